//! Build-time constants of the engine's board layout, in plain Rust.
//!
//! Squares of the largest board a build supports (`max_width` × `max_height`)
//! are numbered rank-major: `index = rank * max_width + file`, a1 = 0. A board
//! chosen at run time occupies the bottom-left `W×H` corner; the other squares
//! are simply never free. The current square is kept one-hot, so a knight move
//! is a constant shift of that vector, masked first by the squares from which
//! the move stays on the largest board.

use rust_hdl::prelude::{Bits, Constant};

/// The canonical knight steps as `(files, ranks)`: the reference search's,
/// which the RTL follows move for move.
pub use knights_model::tours::moves::KNIGHT_STEPS;

/// The largest board of a build, and the move constants derived from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    pub max_width: usize,
    pub max_height: usize,
}

impl Geometry {
    pub fn new(max_width: usize, max_height: usize) -> Self {
        assert!(max_width >= 1 && max_height >= 1, "a board needs at least one square");
        Geometry { max_width, max_height }
    }

    pub fn squares(&self) -> usize {
        self.max_width * self.max_height
    }

    pub fn index(&self, file: usize, rank: usize) -> usize {
        rank * self.max_width + file
    }

    /// Index offset of move `m`: positive moves shift the one-hot vector left.
    pub fn offset(&self, m: usize) -> i64 {
        let (df, dr) = KNIGHT_STEPS[m];
        i64::from(dr) * self.max_width as i64 + i64::from(df)
    }

    /// Bit `s` is set when move `m` from square `s` stays on the largest board.
    pub fn legal_sources(&self, m: usize) -> Vec<bool> {
        let (df, dr) = KNIGHT_STEPS[m];
        (0..self.squares())
            .map(|s| {
                let file = (s % self.max_width) as i32 + df;
                let rank = (s / self.max_width) as i32 + dr;
                (0..self.max_width as i32).contains(&file) && (0..self.max_height as i32).contains(&rank)
            })
            .collect()
    }

    /// Move `m`'s offset as an unsigned number modulo `2^bits`, for adding
    /// to a binary square index.
    pub fn offset_modulo(&self, m: usize, bits: usize) -> u64 {
        (self.offset(m).rem_euclid(1 << bits)) as u64
    }

    /// The eight moves' offsets as `LB`-bit constants (modulo `2^LB`), the
    /// adders' operands that step a square's index.
    pub fn move_offsets<const LB: usize>(&self) -> [Constant<Bits<LB>>; 8] {
        std::array::from_fn(|m| Constant::new(self.offset_modulo(m, LB).into()))
    }
}

/// The constant shifts of a knight move on the one-hot board vector, as the
/// engine's blocks take them: move `m` from the squares in `legal[m]` is
/// `((v & legal[m]) << up[m]) >> down[m]` (one of the shifts is 0).
pub struct MoveShifts<const SQ: usize> {
    pub legal: [Constant<Bits<SQ>>; 8],
    pub up: [Constant<Bits<16>>; 8],
    pub down: [Constant<Bits<16>>; 8],
}

impl<const SQ: usize> MoveShifts<SQ> {
    pub fn new(geometry: Geometry) -> Self {
        assert_eq!(geometry.squares(), SQ, "SQ must be max_width * max_height");
        let shift = |amount: i64| Constant::new(amount.unsigned_abs().into());
        MoveShifts {
            legal: std::array::from_fn(|m| square_mask(geometry.legal_sources(m))),
            up: std::array::from_fn(|m| shift(geometry.offset(m).max(0))),
            down: std::array::from_fn(|m| shift(geometry.offset(m).min(0))),
        }
    }
}

/// A square mask constant: bit `i` set where `bits[i]` is.
pub fn square_mask<const SQ: usize>(bits: impl IntoIterator<Item = bool>) -> Constant<Bits<SQ>> {
    let mut value = Bits::<SQ>::default();
    for (i, bit) in bits.into_iter().enumerate() {
        value = value.replace_bit(i, bit);
    }
    Constant::new(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_and_legal_sources_on_8x8() {
        let g = Geometry::new(8, 8);
        assert_eq!((0..8).map(|m| g.offset(m)).collect::<Vec<_>>(), [17, 10, -6, -15, -17, -10, 6, 15]);
        let a1 = g.index(0, 0);
        let legal_from_a1: Vec<usize> = (0..8).filter(|&m| g.legal_sources(m)[a1]).collect();
        assert_eq!(legal_from_a1, [0, 1]);
        assert_eq!(g.legal_sources(0).iter().filter(|&&b| b).count(), 7 * 6);
        assert_eq!(g.offset_modulo(4, 6), 64 - 17);
    }
}
