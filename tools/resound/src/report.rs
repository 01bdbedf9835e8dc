//! How the CLI reports a failure: one plain line on stderr.
//!
//! An error either formats its source into its own message or exposes it as `source()`; the
//! chain is joined with `": "`, and a cause whose text the line already holds is not repeated.
//! Control characters (ANSI colour escapes among them) never reach the line, and line breaks
//! become spaces, so the text can be pasted into a bug report as it is.

/// The error chain as one line: messages joined by `": "`, repeats left out, escapes removed.
pub fn one_line(err: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in err.chain() {
        let text = plain(&cause.to_string());
        if text.is_empty() || line.contains(&text) {
            continue;
        }
        if !line.is_empty() {
            line.push_str(": ");
        }
        line.push_str(&text);
    }
    line
}

/// Reports a command-line parse failure: `--help` and `--version` print in full on stdout (exit
/// 0); a usage error is one plain line on stderr (clap's message and usage, joined), with where
/// to look for help (exit 2).
pub fn usage(err: &clap::Error) -> std::process::ExitCode {
    if !err.use_stderr() {
        // Written by hand so that a failed write (`--help > /dev/full`) is a failure.
        return match emit(&err.render().to_string()) {
            Ok(()) => std::process::ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {}", one_line(&e));
                std::process::ExitCode::FAILURE
            }
        };
    }
    eprintln!("{}", usage_line(err));
    std::process::ExitCode::from(2)
}

/// A usage error as one plain line: clap's message and usage, joined, with where to look for
/// help.
pub fn usage_line(err: &clap::Error) -> String {
    let text = plain(&err.to_string());
    let line = text.split(" For more information").next().unwrap_or(&text);
    format!("{} (see resound --help)", line.trim_end())
}

/// Writes to stdout; a closed pipe (`| head`) is the reader's choice, not a failure. Control
/// characters other than line breaks and tabs are escaped ([`escape_controls`]): text echoed
/// from input (a scene's `name`) cannot drive the terminal.
pub fn emit(text: &str) -> anyhow::Result<()> {
    use std::io::Write;
    let text = escape_controls(text);
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => anyhow::Context::context(other, "writing to stdout"),
    }
}

/// [`emit`] on stderr (when stdout carries a file's bytes).
pub fn emit_to_stderr(text: &str) -> anyhow::Result<()> {
    use std::io::Write;
    let text = escape_controls(text);
    let mut out = std::io::stderr().lock();
    anyhow::Context::context(
        out.write_all(text.as_bytes()).and_then(|()| out.flush()),
        "writing to stderr",
    )
}

/// `text` with every control character but `\n` and `\t` written as a Rust escape (`\u{1b}`).
pub fn escape_controls(text: &str) -> std::borrow::Cow<'_, str> {
    if !text
        .chars()
        .any(|c| c.is_control() && c != '\n' && c != '\t')
    {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if c.is_control() && c != '\n' && c != '\t' {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// `text` in double quotes, control characters and quotes escaped: for echoing input in a
/// message. Long input is cut at 60 characters (with `…`).
pub fn quoted(text: &str) -> String {
    let mut out = String::from("\"");
    for (i, c) in text.chars().enumerate() {
        if i == 60 {
            out.push('…');
            break;
        }
        if c.is_control() || c == '"' || c == '\\' {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out.push('"');
    out
}

/// `text` without ANSI escape sequences or control characters, whitespace runs collapsed.
pub fn plain(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            // CSI: ESC [ parameters… final byte in @..~
            if chars.peek() == Some(&'[') {
                chars.next();
                for d in chars.by_ref() {
                    if ('@'..='~').contains(&d) {
                        break;
                    }
                }
            }
            continue;
        }
        if c.is_control() || c.is_whitespace() {
            if !out.ends_with(' ') && !out.is_empty() {
                out.push(' ');
            }
            continue;
        }
        out.push(c);
    }
    out.trim_end().to_string()
}

#[cfg(test)]
mod tests;

/// A number for a message, at a sane precision: up to 6 significant digits, in scientific
/// notation outside 0.001..1e9 (so `1e300` is `1e300`, not 301 digits).
pub fn num(x: f64) -> String {
    if !x.is_finite() || x == 0.0 {
        return format!("{x}");
    }
    let a = x.abs();
    if (1e-3..1e9).contains(&a) {
        let digits = (5 - a.log10().floor() as i32).max(0) as usize;
        let t = format!("{x:.digits$}");
        if t.contains('.') {
            return t.trim_end_matches('0').trim_end_matches('.').to_owned();
        }
        return t;
    }
    let t = format!("{x:.5e}");
    match t.split_once('e') {
        Some((m, e)) if m.contains('.') => {
            format!("{}e{e}", m.trim_end_matches('0').trim_end_matches('.'))
        }
        _ => t,
    }
}

/// [`emit_doc`] on stderr.
pub fn emit_doc_to_stderr<T: serde::Serialize + ?Sized>(
    json: bool,
    doc: &T,
    text: impl std::fmt::Display,
) -> anyhow::Result<()> {
    if json {
        emit_to_stderr(&json_text(doc)?)
    } else {
        emit_to_stderr(&text.to_string())
    }
}

/// Prints `doc` as pretty JSON when `json`, else `text`: the `--json` switch of every command.
pub fn emit_doc<T: serde::Serialize + ?Sized>(
    json: bool,
    doc: &T,
    text: impl std::fmt::Display,
) -> anyhow::Result<()> {
    if json {
        emit(&json_text(doc)?)
    } else {
        emit(&text.to_string())
    }
}

/// `doc` in the CLI's one schema ([`crate::json_out::normalize`]), pretty-printed, with a
/// final line break.
pub fn json_text<T: serde::Serialize + ?Sized>(doc: &T) -> anyhow::Result<String> {
    let value = crate::json_out::normalize(serde_json::to_value(doc)?);
    Ok(serde_json::to_string_pretty(&value)? + "\n")
}
