//! knights-model: the searches in plain Rust, with no hardware, simulator or
//! command line around them: the specification the RTL matches node for
//! node.
//!
//! Shared by both problems: [`board`] (sizes and squares), [`symmetry`] (a
//! board's eight symmetries) and [`run`] (a search's goal, status and flow).
//! Then one module per problem: [`tours`] (knight's tours: moves, the
//! reference search, prefix jobs over every core, the tour validator) and
//! [`queens`] (N-Queens: the reference search, constellations, unique
//! solutions). The host (`knights`) and the RTL's tests build on it.

pub mod board;
pub mod queens;
pub mod run;
pub mod symmetry;
pub mod tours;

pub use board::{BoardSize, Square};
pub use run::{Flow, Goal, Status};
