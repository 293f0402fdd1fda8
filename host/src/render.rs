//! What both problems draw: a board as an SVG picture (its squares, light
//! and dark), on which each problem puts its own marks.

use std::fmt::Write;

use knights_model::{BoardSize, Square};

/// Side of a square and the margin round the board in the SVG pictures.
pub const SVG_CELL: usize = 40;
const SVG_MARGIN: usize = 20;

/// The centre of `square` in an SVG picture of `board` (rank 1 at the bottom).
pub fn svg_centre(board: BoardSize, square: Square) -> (usize, usize) {
    let x = SVG_MARGIN + square.file as usize * SVG_CELL + SVG_CELL / 2;
    let y = SVG_MARGIN + (board.height - 1 - square.rank) as usize * SVG_CELL + SVG_CELL / 2;
    (x, y)
}

/// An SVG picture's opening tag and `board`'s squares, light and dark.
pub fn svg_board(board: BoardSize) -> String {
    let width = board.width as usize * SVG_CELL + 2 * SVG_MARGIN;
    let height = board.height as usize * SVG_CELL + 2 * SVG_MARGIN;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\">\n"
    );
    for square in board.squares() {
        let (x, y) = svg_centre(board, square);
        let fill = if (square.file + square.rank) % 2 == 0 { "#b58863" } else { "#f0d9b5" };
        writeln!(
            out,
            "<rect x=\"{}\" y=\"{}\" width=\"{SVG_CELL}\" height=\"{SVG_CELL}\" fill=\"{fill}\"/>",
            x - SVG_CELL / 2,
            y - SVG_CELL / 2
        )
        .unwrap();
    }
    out
}
