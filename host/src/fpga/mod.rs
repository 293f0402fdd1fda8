//! The FPGA flow: the boards ([`boards`], from the board files), a build's
//! Verilog, bitstream and timing ([`bitstream`]), what a build made
//! ([`build_report`]), builds simulated as built ([`board_sim`]), and the
//! RTL's link fuzzed on a small simulated build ([`link_fuzz`]), and which
//! board a USB serial port is ([`ports`], from the boards' bridges).
//! `build_report` is always there (the bench reads reports); the rest needs
//! the `fpga` feature (and `sim` for simulated builds).

#[cfg(feature = "fpga")]
pub mod bitstream;
#[cfg(all(feature = "sim", feature = "fpga"))]
pub mod board_sim;
#[cfg(feature = "fpga")]
pub mod boards;
pub mod build_report;
#[cfg(feature = "fpga")]
pub mod flasher;
#[cfg(all(feature = "sim", feature = "fpga"))]
pub mod link_fuzz;
#[cfg(feature = "fpga")]
pub mod ports;

pub use knights_protocol::design::{Design, EngineKind, Features};
