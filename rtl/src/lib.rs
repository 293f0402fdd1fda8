//! The knight's tour backtracking engine in rust-hdl.
//!
//! [`engine::Engine`] is the search itself; [`geometry`] computes its
//! build-time constants; [`verilog`] emits it for the FPGA tools and for
//! Verilator. The CPU reference in `knights::search` is its specification,
//! node for node.

pub mod engine;
pub mod geometry;
pub mod verilog;
