//! The padded grid the compact engine keeps its board on, in plain Rust: the
//! build's largest board with two cells of border all round (a knight jumps
//! at most two squares, so a step from a board cell never leaves the grid),
//! its rows an even number of cells long so that a cell's bank is its file's
//! parity.

use crate::tours::common::geometry::{Geometry, KNIGHT_STEPS};

/// The moves one file aside (their cells lie in the other bank) and two
/// files aside (the same bank), paired so that a clock reads one of each.
pub const ODD_FILE_MOVES: [usize; 4] = [0, 3, 4, 7];
pub const EVEN_FILE_MOVES: [usize; 4] = [1, 2, 5, 6];

/// Bits that number `count` things (at least one bit).
pub fn bits_for(count: usize) -> usize {
    (usize::BITS - count.saturating_sub(1).leading_zeros()).max(1) as usize
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PaddedGrid {
    /// Cells a row: the board's width plus the border, rounded up to even.
    pub stride: usize,
    pub rows: usize,
}

impl PaddedGrid {
    pub fn new(geometry: Geometry) -> Self {
        let stride = (geometry.max_width + 4).next_multiple_of(2);
        PaddedGrid { stride, rows: geometry.max_height + 4 }
    }

    pub fn cells(&self) -> usize {
        self.stride * self.rows
    }

    /// Move `m`'s cell offset modulo `2^bits`.
    pub fn offset_modulo(&self, m: usize, bits: usize) -> u64 {
        let (df, dr) = KNIGHT_STEPS[m];
        (i64::from(dr) * self.stride as i64 + i64::from(df)).rem_euclid(1 << bits) as u64
    }
}

/// The generic widths of a compact engine for a largest board: `AB` bits
/// number a cell of the padded grid (`AB - 1` a cell of one bank), `LB` a
/// square or a level, `TB` a count of squares (the tallies).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompactWidths {
    pub cell_bits: usize,
    pub level_bits: usize,
    pub tally_bits: usize,
}

impl CompactWidths {
    pub fn new(geometry: Geometry) -> Self {
        let level_bits = bits_for(geometry.squares());
        CompactWidths { cell_bits: bits_for(PaddedGrid::new(geometry).cells()), level_bits, tally_bits: level_bits + 1 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_number_the_cells_squares_and_counts() {
        let eight = CompactWidths::new(Geometry::new(8, 8));
        assert_eq!(PaddedGrid::new(Geometry::new(8, 8)), PaddedGrid { stride: 12, rows: 12 });
        assert_eq!((eight.cell_bits, eight.level_bits, eight.tally_bits), (8, 6, 7));
        let odd = PaddedGrid::new(Geometry::new(5, 3));
        assert_eq!((odd.stride, odd.rows), (10, 7), "rows are an even number of cells long");
        let large = CompactWidths::new(Geometry::new(32, 32));
        assert_eq!((large.cell_bits, large.level_bits, large.tally_bits), (11, 10, 11));
        assert_eq!(bits_for(1), 1);
        assert_eq!(bits_for(256), 8);
        assert_eq!(bits_for(257), 9);
    }

    #[test]
    fn odd_file_moves_change_the_file_by_one() {
        for m in ODD_FILE_MOVES {
            assert_eq!(KNIGHT_STEPS[m].0.abs(), 1);
        }
        for m in EVEN_FILE_MOVES {
            assert_eq!(KNIGHT_STEPS[m].0.abs(), 2);
        }
        let grid = PaddedGrid::new(Geometry::new(8, 8));
        assert_eq!(grid.offset_modulo(0, 8), 25);
        assert_eq!(grid.offset_modulo(4, 8), 256 - 25);
    }
}
