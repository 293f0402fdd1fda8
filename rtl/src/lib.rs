//! The knight's tour backtracking engine in rust-hdl, and the serial-linked
//! accelerator around it.
//!
//! [`engine::Engine`] is the search itself; [`geometry`] computes its
//! build-time constants. [`accelerator::Accelerator`] is the top level a board
//! runs: [`uart`], [`command`] (frames in), [`response`] (frames out) and the
//! controller, speaking the protocol of `docs/protocol.md` (its numbers: `knights_protocol`).
//! [`verilog`] emits either for the FPGA tools and for Verilator. The CPU
//! reference in `knights_model::search` is the engine's specification, node for
//! node.

pub mod accelerator;
pub mod command;
pub mod crc;
pub mod engine;
pub mod geometry;
pub mod response;
pub mod sum_tree;
pub mod uart;
pub mod verilog;
