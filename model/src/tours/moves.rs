//! Knight moves and the canonical order in which every search tries them.
//!
//! The move index (0..8) is what the hardware keeps on its stack (3 bits per
//! level), so this order is part of the contract between the CPU reference
//! and the RTL. It goes clockwise, starting from the step two ranks up and one
//! file right:
//!
//! | index | step (files, ranks) | from d4 |
//! |-------|---------------------|---------|
//! | 0     | (+1, +2)            | e6      |
//! | 1     | (+2, +1)            | f5      |
//! | 2     | (+2, −1)            | f3      |
//! | 3     | (+1, −2)            | e2      |
//! | 4     | (−1, −2)            | c2      |
//! | 5     | (−2, −1)            | b3      |
//! | 6     | (−2, +1)            | b5      |
//! | 7     | (−1, +2)            | c6      |

use crate::board::{BoardSize, Square};

/// The eight knight steps as `(files, ranks)`, in canonical order.
pub const KNIGHT_STEPS: [(i32, i32); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];

/// True when `a` and `b` are a knight's move apart.
pub fn is_knight_move(a: Square, b: Square) -> bool {
    let df = (i32::from(a.file) - i32::from(b.file)).abs();
    let dr = (i32::from(a.rank) - i32::from(b.rank)).abs();
    (df, dr) == (1, 2) || (df, dr) == (2, 1)
}

/// The canonical index of the knight's step from `a` to `b` (`None` when
/// they are not a knight's move apart).
pub fn step_index(a: Square, b: Square) -> Option<u8> {
    let step = (i32::from(b.file) - i32::from(a.file), i32::from(b.rank) - i32::from(a.rank));
    KNIGHT_STEPS.iter().position(|&s| s == step).map(|i| i as u8)
}

/// The moves of a path of squares, as canonical step indices (`None` when a
/// step is not a knight's move).
pub fn path_moves(path: &[Square]) -> Option<Vec<u8>> {
    path.windows(2).map(|pair| step_index(pair[0], pair[1])).collect()
}

/// The squares a knight on `from` attacks, in canonical order.
pub fn knight_neighbours(from: Square, board: BoardSize) -> impl Iterator<Item = Square> {
    KNIGHT_STEPS.iter().filter_map(move |&(df, dr)| from.offset(df, dr, board))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_order_from_d4() {
        let names: Vec<String> =
            knight_neighbours("d4".parse().unwrap(), BoardSize::square(8)).map(|s| s.to_string()).collect();
        assert_eq!(names, ["e6", "f5", "f3", "e2", "c2", "b3", "b5", "c6"]);
    }

    #[test]
    fn a_paths_moves_are_its_steps_canonical_indices() {
        let d4: Square = "d4".parse().unwrap();
        for (i, to) in knight_neighbours(d4, BoardSize::square(8)).enumerate() {
            assert_eq!(step_index(d4, to), Some(i as u8));
        }
        let path: Vec<Square> = ["a1", "b3", "d4", "c6"].iter().map(|s| s.parse().unwrap()).collect();
        assert_eq!(path_moves(&path), Some(vec![0, 1, 7]));
        assert_eq!(path_moves(&path[..1]), Some(vec![]));
        assert_eq!(step_index(d4, d4), None);
    }

    #[test]
    fn corner_has_two_moves() {
        let names: Vec<String> =
            knight_neighbours(Square::new(0, 0), BoardSize::square(8)).map(|s| s.to_string()).collect();
        assert_eq!(names, ["b3", "c2"]);
        assert!(is_knight_move(Square::new(0, 0), Square::new(2, 1)));
        assert!(!is_knight_move(Square::new(0, 0), Square::new(2, 2)));
    }
}
