//! Tests of the position text form.

use super::*;

#[test]
fn land_cells_and_env_cells_parse_and_print() {
    let p = parse_position("0xA9B4000B:30,54,2.5").unwrap();
    assert_eq!(p.objcell_id, 0xA9B4_000B);
    assert_eq!(p.origin, Vec3::new(30.0, 54.0, 2.5));
    assert_eq!(show_position(&p), "0xA9B4000B:30.00,54.00,2.50");
    let env = parse_position("a9b40105: 150 , 10, -3").unwrap();
    assert_eq!(env.objcell_id, 0xA9B4_0105);
}

#[test]
fn bad_positions_are_typed_errors() {
    let err = |t: &str| parse_position(t).unwrap_err();
    assert_eq!(err("0xA9B40001"), PositionError::Form("0xA9B40001".into()));
    assert_eq!(err("zz:1,1,1"), PositionError::CellId("zz".into()));
    assert_eq!(err("0xA9B40001:1,x,1"), PositionError::Number("x".into()));
    assert!(matches!(err("0xA9B40001:1,1"), PositionError::Count(_)));
    assert_eq!(
        err("0xA9B40000:1,1,1"),
        PositionError::InvalidCell(0xA9B4_0000)
    );
    assert_eq!(
        err("0xFFB40001:1,1,1"),
        PositionError::InvalidCell(0xFFB4_0001)
    );
    // Cell 0x0B is (1, 2): X in [24, 48), Y in [48, 72).
    let e = err("0xA9B4000B:10,54,0");
    assert!(
        e.to_string().contains("X in [24, 48), Y in [48, 72)"),
        "{e}"
    );
    assert_eq!(
        err("0xA9B4000B:30,54,3.4e38"),
        PositionError::Height(3.4e38)
    );
    // A landblock id names the whole block.
    assert!(parse_position("0xA9B4FFFF:150,10,0").is_ok());
    assert!(matches!(
        err("0xA9B4000B:30,NaN,0"),
        PositionError::Outside { .. }
    ));
}
