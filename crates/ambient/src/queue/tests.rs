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

/// `RemoveMin` @ 0x00540E50 as retail writes it: swap the node down, 1-based slots.
fn reference_remove_min(nodes: &mut Vec<(f64, u32)>) -> Option<(f64, u32)> {
    if nodes.is_empty() {
        return None;
    }
    let top = nodes.swap_remove(0);
    let n = nodes.len();
    let mut i = 1;
    loop {
        let (left, right) = (2 * i, 2 * i + 1);
        let mut smallest = i;
        if left <= n && nodes[left - 1].0 < nodes[i - 1].0 {
            smallest = left;
        }
        if right <= n && nodes[right - 1].0 < nodes[smallest - 1].0 {
            smallest = right;
        }
        if smallest == i {
            break;
        }
        nodes.swap(i - 1, smallest - 1);
        i = smallest;
    }
    Some(top)
}

/// The sinking hole leaves every slot where retail's swaps leave it: random inserts and
/// removals with many equal keys (and a NaN now and then) give the same pops and the same
/// heap slots as the swap-by-swap `RemoveMin`.
#[test]
fn remove_min_leaves_the_slots_of_retails_swaps() {
    check_against_swaps(|r| match r >> 8 & 63 {
        0 => f64::NAN,
        k => f64::from((k % 9) as u32) * 0.25,
    });
}

/// As [`remove_min_leaves_the_slots_of_retails_swaps`] with nearly all keys distinct (due times
/// as the play path makes them), so the sift paths run deep without stopping at a tie; the
/// rising hole of `Insert` is checked against the swap-by-swap sift-up too.
#[test]
fn insert_and_remove_min_leave_the_slots_of_retails_swaps_distinct_keys() {
    check_against_swaps(|r| match r >> 8 & 1023 {
        0 => f64::NAN,
        1 => 0.5,
        k => f64::from((r >> 20) as u32) * 1e-6 + f64::from(k as u32),
    });
}

/// Random inserts (keys from `key_of`) and removals against retail's swap-by-swap
/// `Insert`/`RemoveMin`: the same pops and, after every operation, the same heap slots.
fn check_against_swaps(key_of: impl Fn(u64) -> f64) {
    let mut q = PQueueArray::new();
    let mut reference: Vec<(f64, u32)> = Vec::new();
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut pops = 0;
    for id in 0..20_000u32 {
        let r = next();
        if r % 5 < 3 || reference.is_empty() {
            let key = key_of(r);
            q.insert(key, id);
            // Retail's sift-up, as `insert` does it (checked by the tests above).
            reference.push((key, id));
            let mut i = reference.len();
            while i > 1 && reference[i - 1].0 < reference[i / 2 - 1].0 {
                reference.swap(i - 1, i / 2 - 1);
                i /= 2;
            }
        } else {
            let got = q.remove_min();
            let want = reference_remove_min(&mut reference);
            assert_eq!(
                got.map(|(k, d)| (k.to_bits(), d)),
                want.map(|(k, d)| (k.to_bits(), d))
            );
            pops += 1;
        }
        let slots: Vec<_> = q.iter().map(|(k, d)| (k.to_bits(), d)).collect();
        let want: Vec<_> = reference.iter().map(|&(k, d)| (k.to_bits(), d)).collect();
        assert_eq!(slots, want, "after op {id}");
    }
    assert!(pops > 5_000);
}
