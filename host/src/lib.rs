//! knights: the host side of an FPGA knight's tour search engine.
//!
//! Layers, bottom up: the model (`knights_model`, re-exported: [`board`],
//! [`moves`], [`search`], the CPU reference the RTL must match node for node,
//! [`parallel`] and [`validate`], the checker every reported tour goes
//! through), [`device`] (one API over every place a
//! search can run), [`proto`] (the link protocol, pure), [`transport`] (byte
//! pipes: serial port, simulated board), [`link`] (devices over a transport),
//! [`render`] (text, JSON and SVG output) and [`cli`].

pub mod bench;
pub mod bitstream;
pub mod boards;
pub mod cli;
pub mod device;
pub mod dfu;
pub mod link;
pub mod pll;
pub mod progress;
pub mod proto;
pub mod query;
pub mod render;
pub mod tool_log;
pub mod transport;

pub use knights_model::{board, moves, parallel, search, validate};
pub use knights_model::{BoardSize, Square};
pub use knights_model::{Goal, MoveOrder, Outcome, SearchSpec, Searcher, Status};
