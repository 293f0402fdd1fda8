//! The board's symmetries and the start squares they make equivalent.
//!
//! A knight's move stays a knight's move under every symmetry of the board
//! (the eight of a square board, the four of a rectangle: the identity, the
//! half turn and the two mirrors), and so does the set of tours: the tours
//! from two squares that a symmetry maps one onto the other are as many.
//! Counting every start square therefore searches one square of each class
//! and weights its count by the class's size.

use crate::board::{BoardSize, Square};

/// A class of equivalent start squares: the one searched (the first of the
/// class in rank-major order) and how many squares the class has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StartClass {
    pub start: Square,
    pub weight: u64,
}

/// The images of `square` under the board's symmetries (with repeats).
pub fn images(board: BoardSize, square: Square) -> Vec<Square> {
    let (last_file, last_rank) = (board.width - 1, board.height - 1);
    let (f, r) = (square.file, square.rank);
    let mut out = vec![
        Square::new(f, r),
        Square::new(last_file - f, r),
        Square::new(f, last_rank - r),
        Square::new(last_file - f, last_rank - r),
    ];
    if board.width == board.height {
        // The quarter turns and the diagonal mirrors swap files and ranks.
        out.extend([
            Square::new(r, f),
            Square::new(last_rank - r, f),
            Square::new(r, last_file - f),
            Square::new(last_rank - r, last_file - f),
        ]);
    }
    out
}

/// The classes of start squares, in rank-major order of the squares
/// searched; their weights add up to the board's area.
pub fn start_classes(board: BoardSize) -> Vec<StartClass> {
    board
        .squares()
        .filter_map(|square| {
            let mut orbit = images(board, square);
            orbit.sort_by_key(|s| s.index(board));
            orbit.dedup();
            (orbit[0] == square).then_some(StartClass { start: square, weight: orbit.len() as u64 })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::Goal;
    use crate::tours::moves::is_knight_move;
    use crate::tours::{SearchSpec, Searcher};

    fn count(board: BoardSize, start: Square) -> u64 {
        let searcher = Searcher::new(SearchSpec::exhaustive(board, start, false)).unwrap();
        searcher.tours(Goal::CountAll).0.tours
    }

    #[test]
    fn weighted_classes_count_the_published_open_5x5_tours() {
        // OEIS A165134: 1,728 open (directed) tours of the 5×5 board.
        let board = BoardSize::square(5);
        let total: u64 = start_classes(board).iter().map(|c| c.weight * count(board, c.start)).sum();
        assert_eq!(total, 1728);
        // Every square of a class has its searched square's count.
        assert_eq!(count(board, Square::new(2, 0)), count(board, Square::new(0, 2)));
        assert_eq!(count(board, Square::new(4, 3)), count(board, Square::new(1, 0)));
    }

    #[test]
    fn classes_cover_the_board_once() {
        for (w, h, classes) in [(5, 5, 6), (6, 6, 6), (8, 8, 10), (5, 4, 6), (6, 5, 9), (3, 4, 4), (1, 1, 1)] {
            let board = BoardSize::new(w, h);
            let found = start_classes(board);
            assert_eq!(found.len(), classes, "{board}");
            assert_eq!(found.iter().map(|c| c.weight).sum::<u64>(), board.area() as u64, "{board}");
        }
        let corner = start_classes(BoardSize::square(8))[0];
        assert_eq!((corner.start, corner.weight), (Square::new(0, 0), 4));
    }

    #[test]
    fn symmetries_keep_knight_moves() {
        for board in [BoardSize::square(6), BoardSize::new(7, 5)] {
            for a in board.squares() {
                for b in board.squares() {
                    let (ia, ib) = (images(board, a), images(board, b));
                    for (x, y) in ia.iter().zip(&ib) {
                        assert_eq!(is_knight_move(a, b), is_knight_move(*x, *y), "{a} {b} on {board}");
                    }
                }
            }
        }
    }
}
