//! A level's untried moves, in the order each move rule tries them.

use super::visited::neighbour;

/// The untried moves of a level, in the order the move rule tries them.
pub(super) trait Pending: Copy {
    fn empty() -> Self;
    fn is_empty(&self) -> bool;
    /// The free moves out of `at`, with `at` itself already marked visited.
    fn new(cells: &[u8], at: u32, offsets: &[i32; 8]) -> Self;
    /// Takes the next move index to try.
    fn next(&mut self) -> Option<usize>;
}

/// Fixed order: a mask of free move indices, tried lowest first.
#[derive(Clone, Copy)]
pub(super) struct FixedPending(u8);

impl Pending for FixedPending {
    fn empty() -> Self {
        FixedPending(0)
    }

    fn is_empty(&self) -> bool {
        self.0 == 0
    }

    #[inline(always)]
    fn new(cells: &[u8], at: u32, offsets: &[i32; 8]) -> Self {
        let mut mask = 0u8;
        for (m, &offset) in offsets.iter().enumerate() {
            mask |= u8::from(neighbour(cells, at, offset) == 0) << m;
        }
        FixedPending(mask)
    }

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let m = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(m)
    }
}

/// Warnsdorff order: free move indices sorted by (onward moves, index),
/// packed three bits each, next move in the low bits.
#[derive(Clone, Copy)]
pub(super) struct WarnsdorffPending {
    queue: u32,
    len: u8,
}

impl Pending for WarnsdorffPending {
    fn empty() -> Self {
        WarnsdorffPending { queue: 0, len: 0 }
    }

    fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn new(cells: &[u8], at: u32, offsets: &[i32; 8]) -> Self {
        // Key degree * 8 + index orders by (degree, index) because index < 8.
        let mut keys = [0u8; 8];
        let mut len = 0;
        for (m, &offset) in offsets.iter().enumerate() {
            let candidate = at.wrapping_add_signed(offset);
            if neighbour(cells, at, offset) == 0 {
                let degree = offsets.iter().filter(|&&o| neighbour(cells, candidate, o) == 0).count();
                keys[len] = (degree * 8 + m) as u8;
                len += 1;
            }
        }
        keys[..len].sort_unstable();
        let queue = keys[..len].iter().rev().fold(0u32, |queue, &key| (queue << 3) | u32::from(key & 7));
        WarnsdorffPending { queue, len: len as u8 }
    }

    fn next(&mut self) -> Option<usize> {
        if self.len == 0 {
            return None;
        }
        let m = (self.queue & 7) as usize;
        self.queue >>= 3;
        self.len -= 1;
        Some(m)
    }
}
