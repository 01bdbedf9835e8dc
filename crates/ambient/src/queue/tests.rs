//! Unit tests of `queue`, each named after the retail function it checks.
use super::*;

/// `PQueueArray::Insert` @ 0x00540DD0 / `RemoveMin` @ 0x00540E50: 8 equal keys pop 0,7,6,5,4,3,2,1.
#[test]
fn remove_min_tie_order_of_eight_equal_keys() {
    let mut q = PQueueArray::new();
    for i in 0..8_u32 {
        q.insert(5.0, i);
    }
    let order: Vec<u32> = std::iter::from_fn(|| q.remove_min().map(|(_, d)| d)).collect();
    assert_eq!(order, [0, 7, 6, 5, 4, 3, 2, 1]);
}

/// `PQueueArray::Insert` @ 0x00540DD0: keys pop in ascending order; growth past 16 works.
#[test]
fn insert_orders_keys() {
    let mut q = PQueueArray::new();
    let keys = [
        9.0, 3.0, 7.0, 1.0, 8.0, 2.0, 6.0, 4.0, 5.0, 0.5, 11.0, 10.0, 12.0, 15.0, 14.0, 13.0, 16.0,
        0.25,
    ];
    for (i, k) in keys.iter().enumerate() {
        q.insert(*k, i);
    }
    assert_eq!(q.len(), keys.len());
    assert_eq!(q.min_key(), Some(0.25));
    let mut last = f64::NEG_INFINITY;
    while let Some((k, _)) = q.remove_min() {
        assert!(k >= last);
        last = k;
    }
    assert!(q.is_empty());
    assert_eq!(q.remove_min(), None);
}

/// `PQueueArray::_Heapify`: a tie between a moved-up node and a child keeps the node.
#[test]
fn heapify_keeps_parent_on_tie() {
    let mut q = PQueueArray::new();
    q.insert(1.0, 'a');
    q.insert(2.0, 'b');
    q.insert(2.0, 'c');
    q.insert(2.0, 'd');
    // remove 'a'; 'd' moves to the root and ties with 'b' and 'c': it stays.
    assert_eq!(q.remove_min(), Some((1.0, 'a')));
    assert_eq!(q.remove_min(), Some((2.0, 'd')));
    assert_eq!(q.remove_min(), Some((2.0, 'c')));
    assert_eq!(q.remove_min(), Some((2.0, 'b')));
}
