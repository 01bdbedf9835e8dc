//! Tests of cell budgets.

use crate::*;

#[test]
fn budget_split_and_absorb() {
    let mut b = Budget::new(100);
    assert!(b.try_take(30));
    let mut child = b.split(1000);
    assert_eq!(child.limit(), 70);
    assert!(child.try_take(70));
    assert!(!child.try_take(1));
    b.absorb(&child);
    assert_eq!((b.used(), b.remaining()), (100, 0));
}
