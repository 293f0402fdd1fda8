//! Emitting a build's accelerator ([`accelerator_verilog`], from its
//! [`Design`]), or one bare wide engine, as Verilog.

use knights_protocol::design::{Design, EngineKind};
use rust_hdl::prelude::*;

use crate::platform::{Accelerator, LinkSettings};
use crate::queens::bank::QueensBank;
use crate::tours::common::geometry::Geometry;
use crate::tours::compact::bank::CompactBank;
use crate::tours::compact::CompactWidths;
use crate::tours::interleaved::bank::InterleavedBank;
use crate::tours::interleaved::Interleaved;
use crate::tours::wide::bank::WideBank;
use crate::tours::wide::Engine;

/// Calls `$build` with the const parameters `(squares, bits)` of the
/// instance for `$area`, or gives `None` when the crate has none.
macro_rules! for_area {
    ($area:expr, $build:ident) => {
        for_area!(@ $area, $build, (12, 4), (16, 4), (20, 5), (25, 5), (30, 5), (36, 6), (48, 6), (64, 6), (100, 7),
            (144, 8), (256, 8))
    };
    (@ $area:expr, $build:ident, $(($squares:literal, $bits:literal)),*) => {
        match $area {
            $($squares => Some($build!($squares, $bits)),)*
            _ => None,
        }
    };
}

/// Board areas with an engine instance: a build's `max_width * max_height`
/// must be one of these.
pub const SUPPORTED_AREAS: [usize; 11] = [12, 16, 20, 25, 30, 36, 48, 64, 100, 144, 256];

/// The engine's Verilog (top module `top`) for boards up to
/// `max_width` × `max_height`, or `None` when that area has no instance.
pub fn engine_verilog(max_width: usize, max_height: usize) -> Option<String> {
    macro_rules! engine {
        ($squares:literal, $bits:literal) => {
            emit(Engine::<$squares, $bits>::new(max_width, max_height))
        };
    }
    for_area!(max_width * max_height, engine)
}

/// The interleaved instances, `(squares, bits)`, appended to the arguments
/// of the macro call it is given: the one list of them.
macro_rules! interleaved_instances {
    ($then:ident ! ($($head:tt)*)) => {
        $then!($($head)* (25, 5), (30, 5), (36, 6), (48, 6), (64, 6))
    };
}

/// Calls `$build` with the const parameters `(squares, bits, stack address
/// bits)` of the interleaved instance for `$area`, or gives `None` when the
/// crate has none. (A stack address is the search's 3-bit slot and a level.)
macro_rules! for_interleaved_area {
    ($area:expr, $build:ident) => {
        interleaved_instances!(for_interleaved_area!(@ $area, $build,))
    };
    (@ $area:expr, $build:ident, $(($squares:literal, $bits:literal)),*) => {
        match $area {
            $($squares => Some($build!($squares, $bits, { $bits + 3 })),)*
            _ => None,
        }
    };
}

macro_rules! areas {
    ($(($squares:literal, $bits:literal)),*) => {
        [$($squares),*]
    };
}

/// One interleaved engine's Verilog (top module `top`: the ring, its
/// settings and job inputs and its counts) for boards up to `max_width` ×
/// `max_height`, or `None` when that area has no instance (see
/// [`INTERLEAVED_AREAS`]).
pub fn interleaved_engine_verilog(max_width: usize, max_height: usize) -> Option<String> {
    macro_rules! engine {
        ($squares:literal, $bits:literal, $address_bits:tt) => {
            emit(Interleaved::<$squares, $bits, $address_bits>::new(max_width, max_height))
        };
    }
    let verilog = for_interleaved_area!(max_width * max_height, engine)?;
    Some(with_memory_attributes(&verilog, "$stack", "no_rw_check"))
}

/// A build's accelerator as Verilog (top module `top`: UART pins, LEDs and
/// the engines), or `None` when the crate has no instance of its kind for
/// its largest board (see [`SUPPORTED_AREAS`], [`QUEENS_SIZES`],
/// [`COMPACT_WIDTHS`]).
pub fn accelerator_verilog(design: &Design) -> Option<String> {
    accelerator_verilog_with(design, LinkSettings::new(design.clock_hz, design.baud))
}

/// As [`accelerator_verilog`], with the link's settings given (a shorter
/// frame timeout, say, for fuzzing the link), not derived from the
/// design's clock and baud rate. IDENTITY's build id names the design: the
/// Verilog is emitted with the id 0, hashed ([`build_id`]), and emitted
/// again with that id.
pub fn accelerator_verilog_with(design: &Design, link: LinkSettings) -> Option<String> {
    named_accelerator_verilog(design, link).map(|(verilog, _)| verilog)
}

/// A build's accelerator as Verilog (as [`accelerator_verilog_with`]) and
/// its build id.
pub fn named_accelerator_verilog(design: &Design, link: LinkSettings) -> Option<(String, u32)> {
    let unnamed = accelerator_verilog_named(design, LinkSettings { build_id: 0, ..link })?;
    let id = build_id(&unnamed);
    Some((accelerator_verilog_named(design, LinkSettings { build_id: id, ..link })?, id))
}

/// The build id of a design whose Verilog, emitted with the id 0, is
/// `unnamed`: the first four bytes of its SHA-256, little-endian.
pub fn build_id(unnamed: &str) -> u32 {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(unnamed.as_bytes());
    u32::from_le_bytes(digest[..4].try_into().expect("a SHA-256 has 32 bytes"))
}

/// The accelerator with `link`'s build id as it is.
fn accelerator_verilog_named(design: &Design, link: LinkSettings) -> Option<String> {
    let (width, height) = (usize::from(design.max_width), usize::from(design.max_height));
    let engines = usize::from(design.engines);
    match design.kind {
        EngineKind::Wide => wide_accelerator_verilog(width, height, engines, design.features.warnsdorff, link),
        EngineKind::Compact => compact_accelerator_verilog(width, height, engines, link),
        EngineKind::Queens if width == height => {
            queens_accelerator_verilog(width, engines, link, design.features.constellations)
        }
        EngineKind::Queens => None,
        EngineKind::Interleaved => {
            interleaved_accelerator_verilog(width, height, engines, design.visited_in_block_ram, link)
        }
    }
}

/// Board areas with an interleaved engine instance.
pub const INTERLEAVED_AREAS: [usize; 5] = interleaved_instances!(areas!());

/// The interleaved accelerator for boards up to `max_width` × `max_height`,
/// or `None` when that area has no instance (see [`INTERLEAVED_AREAS`]).
fn interleaved_accelerator_verilog(
    max_width: usize,
    max_height: usize,
    engines: usize,
    visited_in_block_ram: bool,
    link: LinkSettings,
) -> Option<String> {
    macro_rules! accelerator {
        ($squares:literal, $bits:literal, $address_bits:tt) => {
            emit(Accelerator::new(
                InterleavedBank::<$squares, $bits, $address_bits>::new(
                    max_width,
                    max_height,
                    engines,
                    visited_in_block_ram,
                ),
                link,
            ))
        };
    }
    let verilog = for_interleaved_area!(max_width * max_height, accelerator)?;
    // A ring never reads the stack entry it writes in the same clock (the
    // two are different searches'; a search's own entry written just before
    // its read is forwarded by the ring itself).
    let verilog = with_memory_attributes(&verilog, "$ring$stack", "no_rw_check");
    // The visited squares' memory is small (a word a slot): left to itself,
    // yosys makes it of flip-flops, which is what it replaces.
    Some(with_memory_attributes(&verilog, "$ring$visited_ram", "no_rw_check, ram_style = \"block\""))
}

/// The wide accelerator for boards up to `max_width` × `max_height`.
fn wide_accelerator_verilog(
    max_width: usize,
    max_height: usize,
    engines: usize,
    warnsdorff: bool,
    link: LinkSettings,
) -> Option<String> {
    macro_rules! accelerator {
        ($squares:literal, $bits:literal) => {
            emit(Accelerator::new(WideBank::<$squares, $bits>::new(max_width, max_height, engines, warnsdorff), link))
        };
    }
    for_area!(max_width * max_height, accelerator)
}

/// Boards an N-Queens build can be made for: a build's largest N must be
/// one of these.
pub const QUEENS_SIZES: [usize; 11] = [8, 10, 12, 14, 15, 16, 17, 18, 20, 24, 32];

/// The N-Queens accelerator for boards up to `max_n` queens with `engines`
/// searches (two to a pipeline), or `None` when that N has no instance;
/// with `constellations`, the generator of constellation jobs.
fn queens_accelerator_verilog(
    max_n: usize,
    engines: usize,
    link: LinkSettings,
    constellations: bool,
) -> Option<String> {
    macro_rules! sizes {
        ($(($n:literal, $address_bits:literal)),*) => {
            match max_n {
                $($n => Some(emit(Accelerator::new(QueensBank::<$n, { 4 * $n }, $address_bits>::new(engines, constellations), link))),)*
                _ => None,
            }
        };
    }
    // (N, the RAMs' address bits: a rank's, and the search's.)
    sizes!((8, 4), (10, 5), (12, 5), (14, 5), (15, 5), (16, 5), (17, 6), (18, 6), (20, 6), (24, 6), (32, 6))
        // A pipeline's RAMs never read the entry they write in the same
        // clock (the read is one search's, the write the other's, each in
        // its half; see `queens::ranks`): unmarked, the old-data logic cost
        // an iCE40 solver 74 LUTs and 127 flip-flops. The stack in block
        // RAM: a solver is bound by its logic, and on the ECP5 a LUT RAM
        // stack costs about 100 LUTs a solver (the iCE40 has only block RAM).
        .map(|verilog| with_memory_attributes(&verilog, "$stack", "no_rw_check, ram_style = \"block\""))
        .map(|verilog| with_memory_attributes(&verilog, "$queens", "no_rw_check"))
}

/// The widths `(cell bits, level bits)` a compact build can have (see
/// [`CompactWidths`]): every board from 5x5 to 40x40 has one.
pub const COMPACT_WIDTHS: [(usize, usize); 12] =
    [(7, 5), (7, 6), (8, 6), (8, 7), (8, 8), (9, 7), (9, 8), (9, 9), (10, 9), (10, 10), (11, 10), (11, 11)];

/// Whether the crate has a compact engine for boards up to `max_width` ×
/// `max_height`.
pub fn compact_widths_supported(max_width: usize, max_height: usize) -> bool {
    let widths = CompactWidths::new(Geometry::new(max_width, max_height));
    COMPACT_WIDTHS.contains(&(widths.cell_bits, widths.level_bits))
}

/// Calls `$build` with the const parameters `(AB, CB, LB, TB)` of the
/// compact engine for `$widths`, or gives `None` when the crate has no
/// instance for them.
macro_rules! for_compact_widths {
    ($widths:expr, $build:ident) => {
        for_compact_widths!(@ $widths, $build, (7, 6, 5, 6), (7, 6, 6, 7), (8, 7, 6, 7), (8, 7, 7, 8), (8, 7, 8, 9),
            (9, 8, 7, 8), (9, 8, 8, 9), (9, 8, 9, 10), (10, 9, 9, 10), (10, 9, 10, 11), (11, 10, 10, 11),
            (11, 10, 11, 12))
    };
    (@ $widths:expr, $build:ident, $(($ab:literal, $cb:literal, $lb:literal, $tb:literal)),*) => {{
        let widths: CompactWidths = $widths;
        match (widths.cell_bits, widths.level_bits) {
            $(($ab, $lb) => Some($build!($ab, $cb, $lb, $tb)),)*
            _ => None,
        }
    }};
}

/// The compact accelerator for boards up to `max_width` × `max_height`, or
/// `None` when the crate has no instance for that board (see
/// [`COMPACT_WIDTHS`]).
fn compact_accelerator_verilog(
    max_width: usize,
    max_height: usize,
    engines: usize,
    link: LinkSettings,
) -> Option<String> {
    macro_rules! accelerator {
        ($ab:literal, $cb:literal, $lb:literal, $tb:literal) => {
            emit(Accelerator::new(CompactBank::<$ab, $cb, $lb, $tb>::new(max_width, max_height, engines), link))
        };
    }
    for_compact_widths!(CompactWidths::new(Geometry::new(max_width, max_height)), accelerator)
        .map(|verilog| with_memory_attributes(&verilog, "$cells$banks$", "no_rw_check"))
}

/// Gives the memories of the modules whose names contain `module_part` the
/// yosys `attributes`, e.g. `no_rw_check`: no read that matters in the clock
/// its cell is written. Yosys otherwise keeps Verilog's old-data read with
/// soft logic around the block RAM (an address compare and a bypass mux),
/// and on the compact engine's cell banks that logic joined the move
/// choice's path to the next read's address: the iCEBreaker's clock fell
/// from 14.6 to 11.3 MHz. The banks never need it: a read in a clock that
/// writes the same cell is an unvisit's, whose read data goes unused (see
/// [`crate::tours::compact`]'s `BoardCells`). Verilator and the simulators keep the
/// Verilog's meaning.
fn with_memory_attributes(verilog: &str, module_part: &str, attributes: &str) -> String {
    let mut out = String::with_capacity(verilog.len() + 64);
    let mut in_module = false;
    for line in verilog.lines() {
        let text = line.trim_start();
        if let Some(name) = text.strip_prefix("module ") {
            in_module = name.split('(').next().unwrap_or("").contains(module_part);
        }
        if in_module && text.starts_with("reg[") && text.contains(" mem[") {
            out.push_str(&format!("    (* {attributes} *)\n"));
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

fn emit<T: Block>(mut top: T) -> String {
    top.connect_all();
    generate_verilog(&top)
}

/// The Verilog prepared for Verilator: every combinational `reg` marked
/// `isolate_assignments`. rust-hdl writes each module's logic as one
/// `always @(*)` block, so a block that feeds a child module and reads the
/// child's answer back (the engine and its datapath blocks) is a loop at
/// block granularity, which Verilator can only iterate (UNOPTFLAT: the
/// simulation ran at half speed). Isolated, each signal's assignments form a
/// block of their own, which Verilator orders. rust-hdl's own simulation
/// gives the same meaning: a signal read in a kernel is its settled value.
/// (The FPGA tools take the plain Verilog: to them the hint is a comment.)
pub fn for_verilator(verilog: &str) -> String {
    let mut out = String::with_capacity(verilog.len() + verilog.len() / 8);
    for line in verilog.lines() {
        let declaration = line.trim_start();
        let is_reg = declaration.starts_with("reg ") || declaration.starts_with("output reg ");
        let name = declaration.trim_end_matches(';').split_whitespace().last().unwrap_or("");
        // Flip-flop outputs are written by clocked blocks; memories are arrays.
        if is_reg && declaration.ends_with(';') && !name.ends_with("$q") && !name.contains('[') {
            out.push_str(line.trim_end_matches(';'));
            out.push_str(" /*verilator isolate_assignments*/;");
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}
