//! Unit tests of `id`.
use super::*;

#[test]
fn display_is_lower_0x_and_eight_upper_digits() {
    assert_eq!(WaveId(0x0a00_0101).to_string(), "0x0A000101");
    assert_eq!(SoundTableId(0x2000_0011).to_string(), "0x20000011");
    assert_eq!(CellId(0).to_string(), "0x00000000");
    assert_eq!(CellId(0xA9B4_0025).to_string(), "0xA9B40025");
}

#[test]
fn serde_is_the_bare_number() {
    assert_eq!(serde_json::to_string(&CellId(42)).unwrap(), "42");
    assert_eq!(
        serde_json::from_str::<WaveId>("167772417").unwrap(),
        WaveId(0x0A00_0101)
    );
    assert_eq!(u32::from(SoundTableId::from(7)), 7);
    assert_eq!(CellId(9).get(), 9);
    assert_eq!(vec![CellId(1), CellId(2)], [1, 2]);
}
