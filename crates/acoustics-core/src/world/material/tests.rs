//! Tests of the material table.

use crate::*;

#[test]
fn material_table_names_and_defaults() {
    let t = MaterialTable::standard();
    let stone = t.get(t.by_name("Stone").unwrap());
    assert_eq!((stone.occlusion, stone.reflectivity), (1.0, 1.5));
    assert_eq!(t.get(t.by_name("wool").unwrap()).occlusion, 1.5);
    assert_eq!(t.get(t.by_name("netherrack").unwrap()).reflectivity, 1.1);
    assert_eq!(t.get(MaterialId(9999)).name, "default");
    assert_eq!(
        t.get(t.by_name("water").unwrap()).occlusion_of_cell(false),
        0.0
    );
    assert_eq!(t.get(MaterialId::DEFAULT).occlusion_of_cell(true), 0.25);
    let mut t2 = MaterialTable::minimal();
    assert!(matches!(
        t2.add(Material::new("x", f64::NAN, 0.5)),
        Err(world::material::AddMaterialError::BadValue(_))
    ));
    assert_eq!(t2.add(Material::new("x", 1.0, 0.5)), Ok(MaterialId(1)));
    assert!(matches!(
        t2.add(Material::new("X", 1.0, 0.5)),
        Err(world::material::AddMaterialError::Duplicate(_))
    ));
}
