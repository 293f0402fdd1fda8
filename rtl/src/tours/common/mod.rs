//! The blocks both knight's-tour engine kinds use: [`arguments`] (SOLVE's
//! arguments as the engines read and refuse them), [`job_path`] (a job as a
//! path of moves), [`move_select`] (the next move in fixed or Warnsdorff
//! order), [`tour_stream`] (a tour out, square by square) and [`geometry`]
//! (the build's board and its move constants).

pub mod arguments;
pub mod geometry;
pub mod job_path;
pub mod move_select;
pub mod tour_stream;

use knights_protocol::{MAX_PATH_MOVES, MAX_SPLIT_LEVEL};

/// IDENTITY's split and path limits of a knight's-tour build whose largest
/// board has `squares` squares: a job level must lie above the board's last
/// level and its path fit the queue (three bits a move), and so must a
/// SOLVE's path's end (a path is a job's, the same bits).
pub fn tour_limits(squares: usize) -> (u8, u8) {
    let split_limit = (squares - 1).min(usize::from(MAX_SPLIT_LEVEL) + 1) as u8;
    let path_limit = (squares - 1).min(usize::from(MAX_PATH_MOVES) + 1) as u8;
    (split_limit, path_limit)
}
