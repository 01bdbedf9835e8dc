//! The play queue: retail `AC1Legacy::PQueueArray<double>` (HR `clinet/PacketController.c`
//! @ 0x00540DD0 `Insert`, @ 0x00540E50 `RemoveMin`, `_Heapify`; `cobject/CObjMaint.c` @ 0x005079C0).
//!
//! A 1-based binary min-heap of `(key, data)` nodes. Both the sift-up and the sift-down
//! comparisons are strict, so equal keys stay where they are: the tie order is deterministic
//! but not FIFO (8 equal keys pushed as 0..7 pop as 0, 7, 6, 5, 4, 3, 2, 1).

#[cfg(test)]
mod tests;

/// One queue node: the due time and the payload.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Node<T> {
    key: f64,
    data: T,
}

/// Retail `PQueueArray<double>`: a min-heap with retail's exact tie order.
#[derive(Clone, Debug, Default)]
pub struct PQueueArray<T> {
    /// Heap slots 1..=n live at `nodes[0..n]` (retail index `i` is `nodes[i - 1]`).
    nodes: Vec<Node<T>>,
}

impl<T: Copy> PQueueArray<T> {
    /// An empty queue with retail's initial capacity of 16 nodes.
    #[must_use]
    pub fn new() -> Self {
        Self {
            nodes: Vec::with_capacity(16),
        }
    }

    /// Number of queued nodes.
    #[must_use]
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the queue is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The minimum key, if any.
    #[must_use]
    pub fn min_key(&self) -> Option<f64> {
        self.nodes.first().map(|n| n.key)
    }

    /// `PQueueArray::Insert` @ 0x00540DD0: append at slot `n + 1`, then sift up while the key is
    /// strictly less than its parent's.
    pub fn insert(&mut self, key: f64, data: T) {
        self.nodes.push(Node { key, data });
        let mut i = self.nodes.len(); // 1-based
        while i > 1 {
            let parent = i / 2;
            if self.nodes[i - 1].key < self.nodes[parent - 1].key {
                self.nodes.swap(i - 1, parent - 1);
                i = parent;
            } else {
                break;
            }
        }
    }

    /// `PQueueArray::RemoveMin` @ 0x00540E50: take slot 1, move slot `n` into it, then
    /// `_Heapify` down (left child if strictly smaller than the node, then right child if
    /// strictly smaller than that).
    ///
    /// The moved node sinks through a hole: each chosen child moves up one level and the node
    /// is written once where it stops, which leaves every slot as retail's swaps do (the node
    /// being compared is always the moved one).
    pub fn remove_min(&mut self) -> Option<(f64, T)> {
        if self.nodes.is_empty() {
            return None;
        }
        let top = self.nodes.swap_remove(0);
        let nodes = self.nodes.as_mut_slice();
        let Some(&moved) = nodes.first() else {
            return Some((top.key, top.data));
        };
        let n = nodes.len();
        // 0-based here: the children of slot `i` are `2i + 1` and `2i + 2`.
        let mut i = 0;
        loop {
            let left = 2 * i + 1;
            let Some(l) = nodes.get(left) else {
                break;
            };
            let (mut child, mut key) = (i, moved.key);
            if l.key < key {
                (child, key) = (left, l.key);
            }
            if let Some(r) = nodes.get(left + 1)
                && r.key < key
            {
                child = left + 1;
            }
            if child == i {
                break;
            }
            nodes[i] = nodes[child];
            i = child;
        }
        debug_assert!(i < n);
        nodes[i] = moved;
        Some((top.key, top.data))
    }

    /// Removes every node.
    pub fn clear(&mut self) {
        self.nodes.clear();
    }

    /// The queued `(key, data)` pairs in heap-slot order (for snapshots and tests).
    pub fn iter(&self) -> impl Iterator<Item = (f64, T)> + '_ {
        self.nodes.iter().map(|n| (n.key, n.data))
    }
}
