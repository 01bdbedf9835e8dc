//! Tests of the capped reads.
use super::*;

#[test]
fn dev_zero_is_refused_by_size() {
    let path = Path::new("/dev/zero");
    if !path.exists() {
        return;
    }
    let err = read_capped(path, 1 << 20, "scene file").unwrap_err();
    assert_eq!(err.to_string(), "scene file /dev/zero is larger than 1 MiB");
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
