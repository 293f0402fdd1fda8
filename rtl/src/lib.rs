//! The knight's tour backtracking engine in rust-hdl, and the serial-linked
//! accelerator around it.
//!
//! [`engine::Engine`] is the search itself; [`geometry`] computes its
//! build-time constants. [`platform::Platform`] is everything around the
//! engines, written once for every engine kind against
//! [`platform::EnginePort`]: [`uart`], [`command`] (frames in), [`response`]
//! (frames out), the job queue, the totals, the result arbiter and the
//! controller, speaking the protocol of `docs/protocol.md` (its numbers:
//! `knights_protocol`). [`accelerator::Accelerator`] is the top level a board
//! runs: the platform with knight's-tour engines in its sockets.
//! [`verilog`] emits either for the FPGA tools and for Verilator. The CPU
//! reference in `knights_model::search` is the engine's specification, node for
//! node.

pub mod accelerator;
pub mod command;
pub mod compact;
pub mod crc;
pub mod engine;
pub mod geometry;
pub mod platform;
pub mod queens;
pub mod response;
pub mod sum_tree;
pub mod uart;
pub mod verilog;
