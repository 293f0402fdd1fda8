//! The knights hardware in rust-hdl: backtracking engines and the
//! serial-linked accelerator around them.
//!
//! [`platform`] is everything around the engines, written once for every
//! engine kind against its [`platform::EnginePort`]: the UART, frames in and
//! out, the job queue, the totals, the result arbiter, the controller, and
//! [`platform::Accelerator`], the top level a board runs, which takes any
//! kind's [`platform::EngineBank`]. The engine kinds, one folder per
//! problem: [`tours`] (the wide and the compact knight's-tour engines) and
//! [`queens`] (the N-Queens solvers). [`verilog`] emits a build for the FPGA
//! tools and for Verilator. The CPU references in `knights_model` are the
//! engines' specification, node for node; the protocol's numbers come from
//! `knights_protocol`.

pub mod platform;
pub mod queens;
pub mod tours;
pub mod verilog;
