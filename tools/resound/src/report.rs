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
        let _ = err.print();
        return std::process::ExitCode::SUCCESS;
    }
    let text = plain(&err.to_string());
    let line = text.split(" For more information").next().unwrap_or(&text);
    eprintln!("{} (see resound --help)", line.trim_end());
    std::process::ExitCode::from(2)
}

/// Writes to stdout; a closed pipe (`| head`) is the reader's choice, not a failure.
pub fn emit(text: &str) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => anyhow::Context::context(other, "writing to stdout"),
    }
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

/// Prints `doc` as pretty JSON when `json`, else `text`: the `--json` switch of every command.
pub fn emit_doc<T: serde::Serialize + ?Sized>(
    json: bool,
    doc: &T,
    text: impl std::fmt::Display,
) -> anyhow::Result<()> {
    if json {
        emit(&(serde_json::to_string_pretty(doc)? + "\n"))
    } else {
        emit(&text.to_string())
    }
}
