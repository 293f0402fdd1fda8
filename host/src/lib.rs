//! knights: the host side of an FPGA backtracking search accelerator for
//! knight's tours and N-Queens.
//!
//! Layers, bottom up; each imports only those below it:
//! - [`device`]: the device API every problem shares (a [`device::Device`],
//!   the [`device::Report`] of a search, the CPU device, and
//!   [`device::error`], what goes wrong, layer by layer);
//! - [`link`]: a device over a byte pipe ([`link::transport`]: a serial
//!   port, the simulated board), speaking the framed protocol
//!   ([`link::proto`]);
//! - [`jobs`]: the queue that shares a count's jobs among devices, and
//!   [`journal`], where a long count keeps them to go on after a stop;
//!   [`render`]: the board picture both problems draw on;
//! - [`fpga`]: the FPGA flow (boards, bitstreams, build reports, simulated
//!   builds);
//! - one slice per problem, each with its device trait, queries, jobs,
//!   output and bench: [`tours`] (knight's tours) and [`queens`]
//!   (N-Queens);
//! - above both: [`plan`] (counts in parts on many machines),
//!   [`measure`] (a build's speed, from its design simulated on a
//!   workload) and [`check_build`] (a built netlist checked in a
//!   conversation), and [`doctor`] (whether this machine can simulate,
//!   build and flash).
//!
//! The searches themselves, the CPU references the hardware matches node
//! for node, are `knights_model`'s.
//!
//! Cargo features, both on by default:
//! - `sim`: the simulated board (the accelerator's Verilog under Verilator,
//!   from `knights-sim`): `link::transport::SimTransport` and
//!   `link::transport::serve_simulated_board`.
//! - `fpga`: the FPGA flow (the RTL from `knights-rtl`, rust-hdl): boards,
//!   bitstreams and simulated builds.
//!
//! Without them (`--no-default-features`) the library has the model, the
//! protocol, the devices over a serial port and the output, and needs
//! neither Verilator nor rust-hdl to build.

#[cfg(all(feature = "sim", feature = "fpga"))]
pub mod check_build;
pub mod device;
pub mod doctor;
pub mod fpga;
pub mod jobs;
pub mod journal;
pub mod link;
pub mod measure;
pub mod plan;
pub mod queens;
pub mod render;
pub mod tours;
