//! `knights build` (feature `fpga`): a board's bitstream from the RTL. Emits
//! the accelerator's Verilog and a board wrapper (pins, LED polarity, a PLL
//! when the design runs at another clock than the board's), then runs yosys,
//! nextpnr and the packer (Debian's tools for iCE40, YoWASP's for ECP5).
//! Every exit status is checked, every log kept in the output directory (and
//! read as it grows, for the progress a [`Watch`] shows), and the result is a
//! [`BuildReport`](crate::fpga::build_report::BuildReport) (also written as
//! `build.json`) with utilisation and Fmax.
//!
//! The parts: [`options`] (what to build, checked; the clock plan),
//! [`verilog`] (the design and the board wrapper), [`flow`] (the steps in
//! order), [`tools`] (running one tool and watching its log), with
//! [`tool_log`] (progress from the logs) and [`tool_report`] (figures from
//! the outputs), and [`pll`] and [`dfu`] for the clock and the file format
//! some boards need.

pub mod dfu;
pub mod flow;
pub mod options;
pub mod pll;
pub mod tool_log;
pub mod tool_report;
pub mod tools;
pub mod verilog;

pub use flow::{build, why_rebuild};
pub use options::{check, BuildOptions, ClockPlan};
pub use tools::{Phase, Watch};
pub use verilog::{design_verilog, wrapper_verilog, Emit, WRAPPER_TOP};

/// The placed and routed netlist nextpnr writes into an ECP5 build's
/// directory, for `knights check-build` (iCE40 builds are checked from their
/// bitstream).
pub const ROUTED_JSON: &str = "routed.json";
