//! The writer's B-tree: node I/O and insert / delete with splits, borrows and merges.

use super::{DatWriter, Fault, Found};
use crate::container::bytes::put32;
use crate::container::chain::{blocks_for, chain_blocks, gather};
use crate::container::entry::DatEntry;
use crate::container::error::{LookupError, MAX_DEPTH};
use crate::container::node::{
    DEGREE, MAX_ENTRIES, NODE_READ_SIZE, NODE_WRITE_SIZE, Node, is_null_branch,
};
use crate::container::reader::node_fault;

impl DatWriter {
    // ----- nodes ----------------------------------------------------------------------------

    /// The blocks of an existing node: enough for 1716 bytes, one more if the chain has it
    /// (nodes written as 1720 bytes may need it).
    pub(super) fn node_blocks(&self, offset: u32) -> Result<Vec<u32>, Fault> {
        let bs = self.header.block_size;
        chain_blocks(
            &self.bytes,
            bs,
            offset,
            blocks_for(NODE_READ_SIZE, bs),
            blocks_for(NODE_WRITE_SIZE, bs),
        )
        .map_err(|f| Fault::Tree(node_fault(offset, self.bytes.len() as u64, f)))
    }

    pub(super) fn read_node(&self, offset: u32) -> Result<Node, Fault> {
        if is_null_branch(offset) {
            return Err(Fault::Tree(LookupError::MissingBranch {
                node: offset,
                index: 0,
            }));
        }
        let blocks = self.node_blocks(offset)?;
        let raw = gather(&self.bytes, self.header.block_size, &blocks, NODE_READ_SIZE);
        let raw: &[u8; NODE_READ_SIZE] = raw[..].try_into().map_err(|_| {
            Fault::Tree(LookupError::ChainTooShort {
                node: offset,
                block: offset,
            })
        })?;
        let node = Node::decode(offset, raw).map_err(|count| {
            Fault::Tree(LookupError::EntryCount {
                node: offset,
                count,
            })
        })?;
        if let Some(index) = node.branches.iter().position(|&b| is_null_branch(b)) {
            return Err(Fault::Tree(LookupError::MissingBranch {
                node: offset,
                index,
            }));
        }
        Ok(node)
    }

    /// Reserves the blocks of a new node (all of them, so they are consecutive when taken
    /// from the end of the file) and returns its offset.
    pub(super) fn alloc_node(&mut self) -> Result<u32, Fault> {
        let n = blocks_for(NODE_WRITE_SIZE, self.header.block_size);
        let mut blocks = Vec::with_capacity(n);
        for _ in 0..n {
            blocks.push(self.reserve()?);
        }
        for (i, &block) in blocks.iter().enumerate() {
            let next = blocks.get(i + 1).copied().unwrap_or(0);
            put32(&mut self.bytes, block as usize, next);
        }
        Ok(blocks[0])
    }

    pub(super) fn write_node(&mut self, node: &mut Node) -> Result<(), Fault> {
        if node.offset == 0 {
            node.offset = self.alloc_node()?;
        }
        let mut raw = [0u8; NODE_WRITE_SIZE];
        node.encode(&mut raw);
        let blocks = self.node_blocks(node.offset)?;
        node.offset = self.write_chain(blocks, &raw)?;
        Ok(())
    }

    pub(super) fn free_node(&mut self, offset: u32) -> Result<(), Fault> {
        for block in self.node_blocks(offset)? {
            self.release(block);
        }
        Ok(())
    }

    // ----- B-tree ---------------------------------------------------------------------------

    pub(super) fn find(&self, id: u32) -> Result<Option<Found>, LookupError> {
        let mut offset = self.header.root_block;
        for _ in 0..MAX_DEPTH {
            if is_null_branch(offset) {
                return Ok(None);
            }
            let node = match self.read_node(offset) {
                Ok(node) => node,
                Err(Fault::Tree(e)) => return Err(e),
                Err(_) => {
                    return Err(LookupError::ChainTooShort {
                        node: offset,
                        block: offset,
                    });
                }
            };
            let (index, hit) = node.search(id);
            if hit {
                return Ok(Some(Found {
                    entry: node.entries[index],
                    node: offset,
                    index,
                }));
            }
            if node.is_leaf() {
                return Ok(None);
            }
            offset = node.branches[index];
        }
        Err(LookupError::TooDeep { node: offset })
    }

    pub(super) fn replace_in_node(&mut self, found: Found, entry: DatEntry) -> Result<(), Fault> {
        let mut node = self.read_node(found.node)?;
        node.entries[found.index] = entry;
        self.write_node(&mut node)
    }

    /// Splits the full child `parent.branches[i]`: entries 0..30 stay, entry 30 moves up,
    /// entries 31..61 (and branches 31..62) go to a new right sibling. Returns the sibling.
    pub(super) fn split_child(
        &mut self,
        parent: &mut Node,
        i: usize,
        child: &mut Node,
    ) -> Result<Node, Fault> {
        let mut right = Node {
            offset: self.alloc_node()?,
            branches: Vec::new(),
            entries: Vec::new(),
        };
        right.entries = child.entries.split_off(DEGREE);
        if !child.is_leaf() {
            right.branches = child.branches.split_off(DEGREE);
        }
        let Some(median) = child.entries.pop() else {
            return Err(Fault::Tree(LookupError::EntryCount {
                node: child.offset,
                count: 0,
            }));
        };
        parent.entries.insert(i, median);
        parent.branches.insert(i + 1, right.offset);
        self.write_node(&mut right)?;
        self.write_node(child)?;
        self.write_node(parent)?;
        Ok(right)
    }

    pub(super) fn tree_insert(&mut self, entry: DatEntry) -> Result<(), Fault> {
        if is_null_branch(self.header.root_block) {
            let mut root = Node::leaf();
            root.entries.push(entry);
            self.write_node(&mut root)?;
            self.header.root_block = root.offset;
            return Ok(());
        }
        let mut node = self.read_node(self.header.root_block)?;
        if node.entries.len() >= MAX_ENTRIES {
            let mut new_root = Node {
                offset: self.alloc_node()?,
                branches: vec![node.offset],
                entries: Vec::new(),
            };
            self.header.root_block = new_root.offset;
            let right = self.split_child(&mut new_root, 0, &mut node)?;
            node = if entry.id > new_root.entries[0].id {
                right
            } else {
                node
            };
            // descend from the new root's chosen child directly
        }
        for _ in 0..MAX_DEPTH {
            let (pos, hit) = node.search(entry.id);
            if hit {
                node.entries[pos] = entry;
                return self.write_node(&mut node);
            }
            if node.is_leaf() {
                node.entries.insert(pos, entry);
                return self.write_node(&mut node);
            }
            let mut child = self.read_node(node.branches[pos])?;
            if child.entries.len() >= MAX_ENTRIES {
                let right = self.split_child(&mut node, pos, &mut child)?;
                if entry.id > node.entries[pos].id {
                    child = right;
                }
            }
            node = child;
        }
        Err(Fault::Tree(LookupError::TooDeep { node: node.offset }))
    }

    /// Merges `parent.branches[i + 1]` (`right`) and `parent.entries[i]` into
    /// `parent.branches[i]` (`left`) and frees the right node.
    pub(super) fn merge(
        &mut self,
        parent: &mut Node,
        i: usize,
        left: &mut Node,
        right: Node,
    ) -> Result<(), Fault> {
        left.entries.push(parent.entries.remove(i));
        left.entries.extend(right.entries);
        left.branches.extend(right.branches);
        parent.branches.remove(i + 1);
        self.write_node(left)?;
        self.write_node(parent)?;
        self.free_node(right.offset)
    }

    /// Rightmost entry of the subtree at `node`.
    pub(super) fn max_entry(&self, mut node: Node) -> Result<DatEntry, Fault> {
        for _ in 0..MAX_DEPTH {
            match node.branches.last() {
                Some(&child) => node = self.read_node(child)?,
                None => {
                    return node.entries.last().copied().ok_or(Fault::Tree(
                        LookupError::EntryCount {
                            node: node.offset,
                            count: 0,
                        },
                    ));
                }
            }
        }
        Err(Fault::Tree(LookupError::TooDeep { node: node.offset }))
    }

    /// Leftmost entry of the subtree at `node`.
    pub(super) fn min_entry(&self, mut node: Node) -> Result<DatEntry, Fault> {
        for _ in 0..MAX_DEPTH {
            match node.branches.first() {
                Some(&child) => node = self.read_node(child)?,
                None => {
                    return node.entries.first().copied().ok_or(Fault::Tree(
                        LookupError::EntryCount {
                            node: node.offset,
                            count: 0,
                        },
                    ));
                }
            }
        }
        Err(Fault::Tree(LookupError::TooDeep { node: node.offset }))
    }

    /// Deletes `id` from the tree (it must be present), keeping every node it descends into
    /// at ≥ 31 entries first by borrowing from a sibling or merging (CLRS B-TREE-DELETE).
    pub(super) fn tree_delete(&mut self, id: u32) -> Result<(), Fault> {
        let mut key = id;
        let mut node = self.read_node(self.header.root_block)?;
        let mut done = false;
        for _ in 0..MAX_DEPTH * 2 {
            let (i, hit) = node.search(key);
            if hit {
                if node.is_leaf() {
                    node.entries.remove(i);
                    self.write_node(&mut node)?;
                    done = true;
                    break;
                }
                let mut left = self.read_node(node.branches[i])?;
                if left.entries.len() >= DEGREE {
                    let pred = self.max_entry(left.clone())?;
                    node.entries[i] = pred;
                    self.write_node(&mut node)?;
                    key = pred.id;
                    node = left;
                    continue;
                }
                let right = self.read_node(node.branches[i + 1])?;
                if right.entries.len() >= DEGREE {
                    let succ = self.min_entry(right.clone())?;
                    node.entries[i] = succ;
                    self.write_node(&mut node)?;
                    key = succ.id;
                    node = right;
                    continue;
                }
                self.merge(&mut node, i, &mut left, right)?;
                node = left;
                continue;
            }
            if node.is_leaf() {
                break;
            }
            let mut child = self.read_node(node.branches[i])?;
            if child.entries.len() < DEGREE {
                let mut left = match i {
                    0 => None,
                    _ => Some(self.read_node(node.branches[i - 1])?),
                };
                if let Some(l) = left.as_mut().filter(|l| l.entries.len() >= DEGREE) {
                    // borrow through the parent from the left sibling
                    let (Some(moved), Some(&sep)) = (l.entries.pop(), node.entries.get(i - 1))
                    else {
                        break;
                    };
                    child.entries.insert(0, sep);
                    node.entries[i - 1] = moved;
                    if let Some(b) = l.branches.pop() {
                        child.branches.insert(0, b);
                    }
                    self.write_node(&mut child)?;
                    self.write_node(&mut node)?;
                    self.write_node(l)?;
                    node = child;
                    continue;
                }
                let mut right = match i < node.entries.len() {
                    true => Some(self.read_node(node.branches[i + 1])?),
                    false => None,
                };
                if let Some(r) = right.as_mut().filter(|r| r.entries.len() >= DEGREE) {
                    // borrow through the parent from the right sibling
                    let moved = r.entries.remove(0);
                    child.entries.push(node.entries[i]);
                    node.entries[i] = moved;
                    if !r.branches.is_empty() {
                        child.branches.push(r.branches.remove(0));
                    }
                    self.write_node(&mut child)?;
                    self.write_node(&mut node)?;
                    self.write_node(r)?;
                    node = child;
                    continue;
                }
                match (left, right) {
                    (_, Some(r)) => {
                        self.merge(&mut node, i, &mut child, r)?;
                    }
                    (Some(mut l), None) => {
                        self.merge(&mut node, i - 1, &mut l, child)?;
                        child = l;
                    }
                    (None, None) => {}
                }
            }
            node = child;
        }
        if !done {
            return Err(Fault::Tree(LookupError::TooDeep { node: node.offset }));
        }
        let root = self.read_node(self.header.root_block)?;
        if root.entries.is_empty() && !root.is_leaf() {
            self.header.root_block = root.branches[0];
            self.free_node(root.offset)?;
        }
        Ok(())
    }
}
