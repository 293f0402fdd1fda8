//! knights: the host side of an FPGA knight's tour search engine.
//!
//! Layers, bottom up: [`board`] and [`moves`] (geometry), [`search`] (the CPU
//! reference model the RTL must match node for node), [`parallel`] (the same
//! search split into prefix jobs over all cores), [`validate`] (the checker
//! every reported tour goes through), [`device`] (one API over every place a
//! search can run), [`proto`] (the link protocol, pure), [`transport`] (byte
//! pipes: serial port, simulated board), [`link`] (devices over a transport),
//! [`render`] (text, JSON and SVG output) and [`cli`].

pub mod bench;
pub mod bitstream;
pub mod board;
pub mod boards;
pub mod cli;
pub mod device;
pub mod dfu;
pub mod link;
pub mod moves;
pub mod parallel;
pub mod pll;
pub mod progress;
pub mod proto;
pub mod query;
pub mod render;
pub mod search;
pub mod tool_log;
pub mod transport;
pub mod validate;

pub use board::{BoardSize, Square};
pub use search::{Goal, MoveOrder, Outcome, SearchSpec, Searcher, Status};
