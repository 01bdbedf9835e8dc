//! Tests of the capped reads.
use super::*;

#[test]
fn dev_zero_is_refused_before_a_byte_is_read() {
    let path = Path::new("/dev/zero");
    if !path.exists() {
        return;
    }
    let err = read_capped(path, 1 << 20, "scene file").unwrap_err();
    assert_eq!(
        err.to_string(),
        "/dev/zero is a character device, not a scene file (a scene file is a regular file, or - for standard input)"
    );
}

#[test]
fn a_fifo_nobody_writes_to_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        return;
    }
    let link = dir.path().join("link");
    #[cfg(unix)]
    std::os::unix::fs::symlink(&fifo, &link).unwrap();
    let started = std::time::Instant::now();
    for path in [&fifo, &link] {
        let err = read_capped(path, 1024, "walk file").unwrap_err();
        assert!(
            err.to_string()
                .contains("is a FIFO (named pipe), not a walk file"),
            "{err}"
        );
        assert!(matches!(
            open_regular(path, "DAT file"),
            Err(FileError::NotRegular { .. })
        ));
        assert!(check_regular(path, "DAT file").is_err());
    }
    assert!(started.elapsed() < std::time::Duration::from_secs(2));
}

#[test]
fn standard_input_is_named_by_dash_or_dev_stdin() {
    assert!(is_stdin(Path::new("-")));
    assert!(is_stdin(Path::new("/dev/stdin")));
    assert!(!is_stdin(Path::new("/dev/stdin2")));
    assert!(!is_stdin(Path::new("./-x")));
}

#[test]
fn a_file_at_the_cap_is_read_whole() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("f");
    std::fs::write(&path, vec![7u8; 1024]).unwrap();
    assert_eq!(read_capped(&path, 1024, "walk file").unwrap().len(), 1024);
    assert!(matches!(
        read_capped(&path, 1023, "walk file"),
        Err(FileError::TooLarge { .. })
    ));
}

#[test]
fn a_file_is_read_in_one_allocation_of_its_length() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.json");
    let text: Vec<u8> = (0..300_001u32).map(|i| b'a' + (i % 26) as u8).collect();
    std::fs::write(&path, &text).unwrap();
    let bytes = read_capped(&path, 1 << 20, "scene file").unwrap();
    assert_eq!(bytes, text);
    // doubling as it grows would leave 512 KiB or more
    assert!(bytes.capacity() <= text.len() + 1, "{}", bytes.capacity());
    // a file over the cap is still refused, read no further than the cap
    let err = read_capped(&path, 1000, "scene file").unwrap_err();
    assert!(err.to_string().ends_with("is larger than 1 MiB"), "{err}");
}
