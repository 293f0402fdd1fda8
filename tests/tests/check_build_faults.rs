//! `knights check-build` catches a broken netlist at the step that should:
//! real builds are corrupted where a fault shows in one step of the
//! conversation only, and each must pass every step before that one and
//! fail there, saying what differed.
//!
//! The iCEBreaker's bitstream is corrupted in its configuration bits: the
//! LUT of the logic cell that drives a named net is made a constant, so
//! that the net (or the flip-flop after the LUT) is stuck. The ULX3S-12F's
//! routed netlist has a wire cut: a flip-flop's data input tied low.

mod common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::board_build;
use knights::check_build::{self, CheckReport};
use knights::fpga::boards;

/// A fault and the step that must catch it.
struct Fault {
    /// The net the fault sticks, as the build names it.
    net: &'static str,
    /// The level it is stuck at.
    level: bool,
    /// The first step that fails.
    step: &'static str,
    /// What that step's message says.
    says: &'static str,
}

/// One fault for each step of the conversation after the pins.
const ICE40_FAULTS: [Fault; 6] = [
    // The transmitter never pulls the line low: nothing is ever answered.
    Fault { net: "accelerator.platform.transmitter.line_low.q", level: false, step: "identify", says: "no answer" },
    // The sum of the engines' nodes loses its low bit: counts come out
    // right, nodes wrong.
    Fault { net: "accelerator.platform.totals.node_sum", level: false, step: "count", says: "304 tours in 0 nodes" },
    // The job's path reads as all ones: an empty path is not read; any
    // other is a wrong one.
    Fault { net: "accelerator.bank.engines$0.path.q", level: true, step: "path", says: "the reference finds 8 in 425" },
    // Every square of a streamed tour is sent as a1: counts never stream.
    Fault { net: "accelerator.bank.engines$0.emit_square.q", level: false, step: "first-k", says: "invalid tour" },
    // A frame in error is never reported.
    Fault { net: "accelerator.platform.commands.error_valid", level: false, step: "bad crc", says: "was answered []" },
    ABORT_IGNORED,
];

/// ABORT is acknowledged and never acted on.
const ABORT_IGNORED: Fault = Fault {
    net: "accelerator.platform.abort_requested.q",
    level: false,
    step: "abort",
    says: "ABORT was answered [Ack",
};

#[test]
fn each_step_of_check_build_catches_a_fault_in_the_icebreaker_bitstream() {
    let built = board_build("icebreaker", "design.asc");
    let board = boards::find("icebreaker").unwrap();
    let asc = std::fs::read_to_string(built.join("design.asc")).unwrap();
    let listing = icebox_listing(&board.part.package, &built.join("design.asc"));
    let cells = LogicCells::read(&listing);
    let mut wrong = Vec::new();
    for fault in &ICE40_FAULTS {
        let stuck = cells.driving(fault.net);
        assert!(!stuck.is_empty(), "no logic cell drives {} in {}", fault.net, built.display());
        let dir = copy_of(&built, &format!("icebreaker-{}", fault.step.replace(' ', "-")));
        std::fs::write(dir.join("design.asc"), luts_made_constant(&asc, &stuck, fault.level)).unwrap();
        let report = check_build::check(&board, &dir, None, &mut |_| {}).unwrap();
        if let Err(why) = fails_first_at(&report, fault) {
            wrong.push(format!("{} stuck at {}: {why}\n{}", fault.net, u8::from(fault.level), report.text()));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The last step, after every other has passed on the corrupted netlist;
/// one compile of the ECP5 netlist (about two minutes) is what this costs.
#[test]
fn check_build_catches_a_cut_wire_in_the_ulx3s_12f_routed_netlist() {
    let built = board_build("ulx3s-12f", "routed.json");
    let board = boards::find("ulx3s-12f").unwrap();
    let mut routed: serde_json::Value =
        serde_json::from_slice(&std::fs::read(built.join("routed.json")).unwrap()).unwrap();
    let fault = ABORT_IGNORED;
    tie_flip_flop_input(&mut routed, fault.net, fault.level);
    let dir = copy_of(&built, "ulx3s-12f-abort");
    std::fs::write(dir.join("routed.json"), serde_json::to_vec(&routed).unwrap()).unwrap();
    let report = check_build::check(&board, &dir, None, &mut |_| {}).unwrap();
    fails_first_at(&report, &fault).unwrap_or_else(|why| panic!("{why}\n{}", report.text()));
}

/// Every step before the fault's passed, and the fault's step failed
/// saying what it should (the check stops at the first failure).
fn fails_first_at(report: &CheckReport, fault: &Fault) -> Result<(), String> {
    let (last, before) = report.steps.split_last().ok_or("no step ran")?;
    if let Some(early) = before.iter().find(|step| step.outcome.is_err()) {
        return Err(format!("{} failed before {}", early.name, fault.step));
    }
    match &last.outcome {
        Err(why) if last.name == fault.step && why.contains(fault.says) => Ok(()),
        Err(why) => Err(format!("{} failed ({why}), not {} saying {:?}", last.name, fault.step, fault.says)),
        Ok(_) => Err(format!("every step passed; {} should have failed", fault.step)),
    }
}

/// A directory for a corrupted copy of the build in `built`: its report
/// (the netlist is written by the test; check-build takes the pins from the
/// board file).
fn copy_of(built: &Path, name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("check-build-faults").join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(built.join("build.json"), dir.join("build.json")).unwrap();
    dir
}

// ---------------------------------------------------------------- iCE40

/// The bitstream as icebox_vlog reads it, with the net names nextpnr wrote
/// into it (`.sym`, read with `-L`) and each cell's tile in a comment.
fn icebox_listing(package: &str, asc: &Path) -> String {
    let output = Command::new("icebox_vlog").args(["-L", "-d", package]).arg(asc).output().unwrap();
    assert!(output.status.success(), "icebox_vlog: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

/// A logic cell: its tile's column and row, and its place in the tile (0-7).
type Cell = (usize, usize, usize);

/// Where each net of the listing is named and made.
struct LogicCells {
    /// icebox's net (`n123`) of each named net and bus bit (`name[3]`).
    names: HashMap<String, String>,
    /// The cell whose flip-flop (or, without one, whose LUT) drives a net.
    drivers: HashMap<String, Cell>,
}

impl LogicCells {
    fn read(listing: &str) -> Self {
        let mut names = HashMap::new();
        let mut flip_flops = HashMap::new();
        let mut luts = HashMap::new();
        for line in listing.lines() {
            // wire \_accelerator.platform.started.q = n2345;
            if let Some(rest) = line.strip_prefix("wire \\_") {
                if let Some((name, net)) = rest.strip_suffix(';').and_then(|r| r.split_once(" = ")) {
                    names.insert(name.to_string(), net.to_string());
                }
            // /* FF 13 25  1 */ always @(posedge n8) if (1'b1) n2397 <= …
            } else if let Some(rest) = line.strip_prefix("/* FF ") {
                let (place, logic) = rest.split_once("*/").unwrap();
                let net = logic.split(" <= ").next().unwrap().split_whitespace().last().unwrap();
                flip_flops.insert(net.to_string(), cell(place));
            // assign n4753 = /* LUT   13 25  1 */ …
            } else if let Some(rest) = line.strip_prefix("assign ") {
                if let Some((net, lut)) = rest.split_once(" = /* LUT ") {
                    luts.insert(net.to_string(), cell(lut.split("*/").next().unwrap()));
                }
            }
        }
        // A net a flip-flop drives is the cell's output; its LUT feeds it.
        luts.extend(flip_flops);
        LogicCells { names, drivers: luts }
    }

    /// The cells driving `net`, or every bit of it when it is a bus.
    fn driving(&self, net: &str) -> Vec<Cell> {
        let bus = format!("{net}[");
        let mut cells: Vec<Cell> = (self.names.iter())
            .filter(|(name, _)| *name == net || (name.starts_with(&bus) && name.ends_with(']')))
            .filter_map(|(_, n)| self.drivers.get(n).copied())
            .collect();
        cells.sort_unstable();
        cells
    }
}

/// "13 25  1 " as a cell.
fn cell(place: &str) -> Cell {
    let numbers: Vec<usize> = place.split_whitespace().map(|n| n.parse().unwrap()).collect();
    (numbers[0], numbers[1], numbers[2])
}

/// The bitstream `asc` with the LUT of each of `cells` giving `level` for
/// every input. A logic tile's configuration is 16 rows of bits; cell i's
/// LUT is columns 36-43 of rows 2i and 2i+1 (its other four bits, in
/// columns 44-45, configure the flip-flop and carry and are left be), as
/// IceStorm's database documents the iCE40 logic tile.
fn luts_made_constant(asc: &str, cells: &[Cell], level: bool) -> String {
    let mut lines: Vec<String> = asc.lines().map(str::to_string).collect();
    let bits = if level { "1" } else { "0" }.repeat(8);
    for &(x, y, index) in cells {
        let header = format!(".logic_tile {x} {y}");
        let tile = lines.iter().position(|line| *line == header).unwrap_or_else(|| panic!("no {header}"));
        for row in [2 * index, 2 * index + 1] {
            lines[tile + 1 + row].replace_range(36..44, &bits);
        }
    }
    lines.join("\n") + "\n"
}

// ---------------------------------------------------------------- ECP5

/// Ties the data input of the flip-flop that drives `net` in nextpnr's
/// routed netlist to `level`: the wire into it cut.
fn tie_flip_flop_input(routed: &mut serde_json::Value, net: &str, level: bool) {
    let top = routed["modules"].as_object_mut().unwrap().values_mut().next().unwrap();
    let bits = top["netnames"][net]["bits"].clone();
    assert!(bits.is_array(), "no net {net} in the routed netlist");
    let cells = top["cells"].as_object_mut().unwrap();
    let flip_flop = cells
        .values_mut()
        .find(|cell| cell["type"] == "TRELLIS_FF" && cell["connections"]["Q"] == bits)
        .unwrap_or_else(|| panic!("no flip-flop drives {net}"));
    let tied = serde_json::json!([if level { "1" } else { "0" }]);
    flip_flop["connections"]["DI"] = tied;
}
