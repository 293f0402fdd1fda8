//! The emitted Verilog passes Verilator's lint and a yosys check, for the
//! bare engine and the whole accelerator, at the iCE40-sized build (8x8), a
//! small one and the largest one (16x16).

use std::path::{Path, PathBuf};
use std::process::Command;

use knights_protocol::design::{Design, EngineKind, Features};
use knights_rtl::verilog::{accelerator_verilog, engine_verilog, for_verilator, SUPPORTED_AREAS};

/// A design of `kind` at 12 MHz and 115,200 baud.
fn design(kind: EngineKind, max_width: u16, max_height: u16, engines: u16, features: Features) -> Design {
    Design {
        kind,
        max_width,
        max_height,
        engines,
        features,
        clock_hz: 12_000_000,
        baud: 115_200,
        visited_in_block_ram: false,
    }
}

fn write_verilog(name: &str, verilog: String) -> PathBuf {
    assert!(verilog.contains("module top("));
    let path = std::env::temp_dir().join(format!("knights-{name}-{}.v", std::process::id()));
    std::fs::write(&path, verilog).unwrap();
    path
}

/// The accelerator leaves the engine's prefix-loading port unused (engines
/// share work by a job queue), the job outputs of every engine but the walker
/// (engine 0), and every engine's refusal and result size but engine 0's
/// (they all judge the same arguments); the pruning's counting trees read only bit 0 of their
/// last level, and its nine lanes leave the top bits of a 16-bit word unused;
/// a job path's slices are read a bit at a time, and level 0 never numbers
/// a rejoin level's bits; a square's knight moves serve the current square
/// (its targets and the child), the start square (where a closed tour may
/// end) and a backtrack (the child), each use reading only some of them.
/// The compact engine reads the board's size from its sweep, not from the
/// request; a cell's bit 0 picks its bank (the rest is the bank's address);
/// an unvisit's picks read only the moves of their bank; the compact
/// engine's job share leaves the queue's path and end to the state machine;
/// a frame is 13 bits of a 16-bit RAM word. An N-Queens solver reads only N
/// of the arguments (the accelerator reads the rest once for all solvers)
/// and no path (QUEENS carries none); with an odd number of searches, the
/// last solver's second has a spare machine, never started, whose outputs
/// go nowhere, and a machine built without the generator of constellation
/// jobs reads nothing of its feed. The waivers name those signals.
fn lint_waivers(test: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("knights-waivers-{test}-{}.vlt", std::process::id()));
    std::fs::write(
        &path,
        "`verilator_config\n\
         lint_off -rule UNUSEDSIGNAL -file \"*\" -match \"*engines$*$prefix_ready*\"\n\
         lint_off -rule UNUSEDSIGNAL -file \"*\" -match \"*engines$*$refusal*\"\n\
         lint_off -rule UNUSEDSIGNAL -file \"*\" -match \"*engines$*$result_items*\"\n\
         lint_off -rule UNUSEDSIGNAL -file \"*\" -match \"*engines$*$jobs$found*\"\n\
         lint_off -rule UNUSEDSIGNAL -file \"*\" -match \"*engines$*$jobs$found_path*\"\n\
         lint_off -rule UNUSEDSIGNAL -file \"*\" -match \"*engines$*$jobs$found_number*\"\n\
         lint_off -rule UNUSEDSIGNAL -file \"*\" -match \"*engines$*$walking*\"\n\
         lint_off -rule UNUSEDSIGNAL -file \"*\" -match \"*blocked_any*\"\n\
         lint_off -rule UNUSEDSIGNAL -file \"*\" -match \"*blocked_two*\"\n\
         lint_off -rule UNUSEDSIGNAL -file \"*\" -match \"*ends_low*\"\n\
         lint_off -rule UNUSEDSIGNAL -file \"*\" -match \"*ends_high*\"\n\
         lint_off -rule UNUSEDSIGNAL -file \"*\" -match \"*lane_dead*\"\n\
         lint_off -rule UNUSEDSIGNAL -file \"*\" -match \"*replay_slice*\"\n\
         lint_off -rule UNUSEDSIGNAL -file \"*\" -match \"*first_differing*\"\n\
         lint_off -rule UNUSEDSIGNAL -file \"*\" -match \"*start_moves$*\"\n\
         lint_off -rule UNUSEDSIGNAL -file \"*\" -match \"*knight$targets*\"\n\
         lint_off -rule UNUSEDSIGNAL -file \"*\" -match \"*knight$reach*\"\n\
         lint_off -rule UNUSEDSIGNAL -file \"*\" -match \"*'request$width'*\"\n\
         lint_off -rule UNUSEDSIGNAL -file \"*\" -match \"*'request$height'*\"\n\
         lint_off -rule UNUSEDSIGNAL -file \"*\" -match \"*odd_cell'?0]*\"\n\
         lint_off -rule UNUSEDSIGNAL -file \"*\" -match \"*even_cell'?0]*\"\n\
         lint_off -rule UNUSEDSIGNAL -file \"*\" -match \"*odd_freed'?0]*\"\n\
         lint_off -rule UNUSEDSIGNAL -file \"*\" -match \"*even_freed'?0]*\"\n\
         lint_off -rule UNUSEDSIGNAL -file \"*\" -match \"*'odd_pending'*\"\n\
         lint_off -rule UNUSEDSIGNAL -file \"*\" -match \"*'even_pending'*\"\n\
         lint_off -rule UNUSEDSIGNAL -file \"*\" -match \"*'generator_*\"\n\
         lint_off -rule UNUSEDSIGNAL -file \"*\" -match \"*'jobs$path'*\"\n\
         lint_off -rule UNUSEDSIGNAL -file \"*\" -match \"*'jobs$over'*\"\n\
         lint_off -rule UNUSEDSIGNAL -file \"*\" -match \"*'own$read_data'?15:13]*\"\n\
         lint_off -rule UNUSEDSIGNAL -file \"*\" -match \"*'port$arguments'?39:8]*\"\n\
         lint_off -rule UNUSEDSIGNAL -file \"*\" -match \"*'port$path'\"\n\
         lint_off -rule UNUSEDSIGNAL -file \"*\" -match \"*'port$path_length'\"\n\
         lint_off -rule UNUSEDSIGNAL -file \"*\" -match \"*spare$*\"\n\
         lint_off -rule UNUSEDSIGNAL -file \"*\" -match \"*feed_take*\"\n",
    )
    .unwrap();
    path
}

/// Lints what Verilator compiles (`for_verilator`), and has yosys check what
/// the FPGA tools read.
fn check(path: &Path, waivers: &Path) {
    let file = path.to_str().unwrap();
    let prepared = path.with_extension("verilator.v");
    std::fs::write(&prepared, for_verilator(&std::fs::read_to_string(path).unwrap())).unwrap();
    let lint = tool(
        "verilator",
        &[
            "--lint-only",
            "-Wall",
            "-Wno-WIDTH",
            "-Wno-DECLFILENAME",
            "-Wno-UNUSEDPARAM",
            waivers.to_str().unwrap(),
            prepared.to_str().unwrap(),
        ],
    );
    assert!(!lint.contains("%Warning") && !lint.contains("%Error"), "{file}:\n{lint}");
    std::fs::remove_file(prepared).unwrap();
    let script = format!("read_verilog {file}; hierarchy -check -top top; proc; check -assert");
    tool("yosys", &["-q", "-p", &script]);
    std::fs::remove_file(path).unwrap();
}

fn tool(program: &str, args: &[&str]) -> String {
    let output = Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program} ({e}): scripts/setup.sh installs it"));
    let text = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "{program} {args:?} failed:\n{text}");
    text
}

#[test]
fn verilog_lints_clean_and_passes_yosys_check() {
    let waivers = lint_waivers("wide");
    // The several-engine build also leaves Warnsdorff's order out.
    let without_warnsdorff = Features { warnsdorff: false, constellations: false };
    for (width, height, engines, features) in
        [(8, 8, 1, Features::ALL), (5, 4, 3, without_warnsdorff), (16, 16, 1, Features::ALL)]
    {
        let engine = engine_verilog(usize::from(width), usize::from(height)).expect("supported size");
        check(&write_verilog(&format!("engine-{width}x{height}"), engine), &waivers);
        let accelerator =
            accelerator_verilog(&design(EngineKind::Wide, width, height, engines, features)).expect("supported size");
        check(&write_verilog(&format!("accelerator-{width}x{height}x{engines}"), accelerator), &waivers);
    }
    std::fs::remove_file(&waivers).unwrap();
}

/// The compact accelerator at the iCEBreaker's build (8x8, one engine) and
/// a several-engine build past 256 squares (two-byte squares).
#[test]
fn compact_verilog_lints_clean_and_passes_yosys_check() {
    let waivers = lint_waivers("compact");
    for (width, height, engines) in [(8, 8, 1), (32, 32, 2)] {
        let accelerator = accelerator_verilog(&design(EngineKind::Compact, width, height, engines, Features::ALL))
            .expect("supported size");
        // Only the cell banks (two an engine) read nothing that matters in
        // a clock that writes the same cell.
        assert_eq!(accelerator.matches("(* no_rw_check *)").count(), 2 * usize::from(engines));
        check(&write_verilog(&format!("compact-{width}x{height}x{engines}"), accelerator), &waivers);
    }
    std::fs::remove_file(&waivers).unwrap();
}

/// The N-Queens accelerator at four searches (two solvers) for N up to 15,
/// and the largest (N up to 32) with three searches (a solver's second
/// search a spare).
#[test]
fn queens_verilog_lints_clean_and_passes_yosys_check() {
    let waivers = lint_waivers("queens");
    for (n, searches) in [(15, 4), (32, 3)] {
        let without_generator = Features { warnsdorff: false, constellations: false };
        let accelerator = accelerator_verilog(&design(EngineKind::Queens, n, n, searches, without_generator))
            .expect("supported size");
        // Each solver's stack and its queens' RAM, and nothing else, need
        // no read-during-write logic; the stack is in block RAM.
        let solvers = usize::from(searches).div_ceil(2);
        assert_eq!(accelerator.matches("(* no_rw_check, ram_style = \"block\" *)").count(), solvers);
        assert_eq!(accelerator.matches("(* no_rw_check *)").count(), solvers);
        check(&write_verilog(&format!("queens-{n}x{searches}"), accelerator), &waivers);
    }
    std::fs::remove_file(&waivers).unwrap();
}

#[test]
fn only_instantiated_areas_are_offered() {
    assert!(engine_verilog(7, 7).is_none());
    assert!(engine_verilog(6, 6).is_some());
    assert!(SUPPORTED_AREAS.contains(&64) && SUPPORTED_AREAS.contains(&256));
}
