//! knights-model: knight's tours in plain Rust, with no hardware, simulator
//! or command line around them.
//!
//! [`board`] and [`moves`] (geometry), [`search`] (the CPU reference search:
//! the specification the RTL engine matches node for node), [`parallel`] (the
//! same search split into prefix jobs over every core), [`symmetry`] (the
//! start squares a board's symmetries make equivalent) and [`validate`] (the
//! checker every tour a device reports goes through). The host (`knights`)
//! and the RTL's tests build on it.

pub mod board;
pub mod moves;
pub mod parallel;
pub mod queens;
pub mod search;
pub mod symmetry;
pub mod validate;

pub use board::{BoardSize, Square};
pub use search::{Goal, MoveOrder, Outcome, SearchSpec, Searcher, Status};
