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
    ///
    /// The new node rises through a hole: each parent it passes moves down one level and the
    /// node is written once where it stops — the slots retail's swaps leave (the node compared
    /// is always the new one).
    #[inline]
    pub fn insert(&mut self, key: f64, data: T) {
        let node = Node { key, data };
        self.nodes.push(node);
        let nodes = self.nodes.as_mut_slice();
        // 0-based here: the parent of slot `i` is `(i − 1) / 2`.
        let mut i = nodes.len() - 1;
        while i > 0 {
            let parent = (i - 1) / 2;
            let p = nodes[parent];
            if key < p.key {
                nodes[i] = p;
                i = parent;
            } else {
                break;
            }
        }
        nodes[i] = node;
    }

    /// `PQueueArray::RemoveMin` @ 0x00540E50: take slot 1, move slot `n` into it, then
    /// `_Heapify` down (left child if strictly smaller than the node, then right child if
    /// strictly smaller than that).
    ///
    /// The moved node sinks through a hole: each chosen child moves up one level and the node
    /// is written once where it stops, which leaves every slot as retail's swaps do (the node
    /// being compared is always the moved one). While a node has both children they are read
    /// as one pair (one bounds check a level); the last level, where only a left child may
    /// exist, is handled after the loop.
    pub fn remove_min(&mut self) -> Option<(f64, T)> {
        if self.nodes.is_empty() {
            return None;
        }
        let top = self.nodes.swap_remove(0);
        let nodes = self.nodes.as_mut_slice();
        let Some(&moved) = nodes.first() else {
            return Some((top.key, top.data));
        };
        // `nodes` holds the moved node, so `n >= 1`. 0-based here: the children of slot `i` are
        // `2i + 1` and `2i + 2`; `i < left`, and the loop runs only while `left < n − 1` (both
        // children exist; written so that `left + 1` cannot overflow), so every index below is
        // in bounds.
        let n = nodes.len();
        let last = n - 1;
        let mut i = 0;
        let mut left = 1;
        while left < last {
            let (l, r) = (nodes[left], nodes[left + 1]);
            // Retail's two tests: smallest = left if `l < node`, else the node; then right if
            // `r < smallest` (both strict; a NaN never moves).
            let (child, c) = if l.key < moved.key {
                if r.key < l.key {
                    (left + 1, r)
                } else {
                    (left, l)
                }
            } else if r.key < moved.key {
                (left + 1, r)
            } else {
                break;
            };
            nodes[i] = c;
            i = child;
            left = 2 * i + 1;
        }
        // The last level, where only a left child may exist: it moves up if strictly smaller.
        if left == last
            && let Some(&l) = nodes.get(left)
            && l.key < moved.key
        {
            nodes[i] = l;
            i = left;
        }
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
