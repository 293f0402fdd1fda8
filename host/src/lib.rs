//! knights: the host side of an FPGA knight's tour search engine.
//!
//! Layers, bottom up: the model (`knights_model`, re-exported: [`board`],
//! [`moves`], [`search`], the CPU reference the RTL must match node for node,
//! [`parallel`] and [`validate`], the checker every reported tour goes
//! through), [`device`] (one API over every place a search can run, with
//! [`query`] checking a request and validating its answer, [`whole_board`]
//! counting from every start square, and
//! [`error::DeviceError`] for what goes wrong), [`proto`] (the link
//! protocol, pure), [`transport`] (byte pipes: serial port, simulated
//! board), [`link`] (devices over a transport), [`render`] (text, JSON and
//! SVG output), [`build_report`] and [`bench`](mod@bench).
//!
//! Cargo features, both on by default:
//! - `sim`: the simulated board (the accelerator's Verilog under Verilator,
//!   from `knights-sim`): `transport::SimTransport` and
//!   `transport::serve_simulated_board`.
//! - `fpga`: the FPGA flow (the RTL from `knights-rtl`, rust-hdl): `boards`
//!   and `bitstream`.
//!
//! Without them (`--no-default-features`) the library has the model, the
//! protocol, the devices over a serial port and the output, and needs
//! neither Verilator nor rust-hdl to build.

pub mod bench;
pub mod bench_queens;
#[cfg(feature = "fpga")]
pub mod bitstream;
#[cfg(all(feature = "sim", feature = "fpga"))]
pub mod board_sim;
#[cfg(feature = "fpga")]
pub mod boards;
pub mod build_report;
#[cfg(all(feature = "sim", feature = "fpga"))]
pub mod check_build;
pub mod device;
pub mod error;
pub mod estimate;
pub mod jobs;
pub mod link;
#[cfg(feature = "sim")]
pub mod link_fuzz;
pub mod manifest;
pub mod proto;
pub mod queens_query;
pub mod query;
pub mod render;
pub mod transport;
pub mod whole_board;

pub use knights_model::{board, moves, parallel, queens, search, symmetry, validate};
pub use knights_model::{BoardSize, Square};
pub use knights_model::{Goal, MoveOrder, Outcome, SearchSpec, Searcher, Status};
