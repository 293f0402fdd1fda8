//! Any board's build under Verilator (`--device sim --board NAME`): the
//! board file's engine kind, engines, largest board and clock, with the
//! simulated board's fast UART (four clocks a bit). Its model is made on
//! first use and cached, so that a fresh machine compiles only the models it
//! runs.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use knights_sim::Model;

use crate::device::error::{DeviceError, PortError};
use crate::fpga::boards::Board;
use crate::fpga::build_report::BuildReport;
use crate::fpga::{Design, EngineKind, Features};

/// Clocks per UART bit in a simulated board's build.
const CLOCKS_PER_BIT: u64 = 4;

/// `design` with the simulated board's fast UART.
fn simulated(design: Design) -> Design {
    Design { baud: design.clock_hz / CLOCKS_PER_BIT, ..design }
}

/// The model of `board`'s build, made (and cached) if need be; `traced`,
/// one that can write waveforms. `say` hears what takes time.
pub fn model(board: &Board, traced: bool, say: &mut dyn FnMut(&str)) -> Result<Arc<Model>, DeviceError> {
    cached(&board.name, &simulated(board.build.design), traced, say)
}

/// The model of a build as its report says it was built: its engine kind,
/// engines, largest board and clock (the build of `knights bench`'s board
/// rows, even if the board file has changed since).
pub fn as_built(report: &BuildReport, say: &mut dyn FnMut(&str)) -> Result<Arc<Model>, DeviceError> {
    cached(&report.board, &simulated(report.design), false, say)
}

/// The model of `design` with its UART at the design's own baud rate (not
/// the simulated board's fast one): for tests of the line's timing.
pub fn at_its_baud(name: &str, design: &Design, say: &mut dyn FnMut(&str)) -> Result<Arc<Model>, DeviceError> {
    cached(name, design, false, say)
}

/// The default simulated board's model with tracing (the linked one has
/// none): the same build, made at run time.
pub fn default_traced(say: &mut dyn FnMut(&str)) -> Result<Arc<Model>, DeviceError> {
    cached("default", &knights_sim::DESIGN, true, say)
}

/// The default simulated N-Queens board (`knights queens --device sim`):
/// four searches (two solvers) for N up to 12 at the simulated board's
/// clock and UART, with the generator of constellation jobs.
pub fn default_queens(traced: bool, say: &mut dyn FnMut(&str)) -> Result<Arc<Model>, DeviceError> {
    let design = Design {
        kind: EngineKind::Queens,
        max_width: 12,
        max_height: 12,
        engines: 4,
        features: Features { warnsdorff: false, constellations: true },
        ..knights_sim::DESIGN
    };
    cached("queens", &design, traced, say)
}

/// The default simulated compact board: four compact engines for boards up
/// to 32x32 at the simulated board's clock and UART (the tests' and the
/// bench's; a board's own compact build is `--board NAME`).
pub fn default_compact(traced: bool, say: &mut dyn FnMut(&str)) -> Result<Arc<Model>, DeviceError> {
    let design = Design { kind: EngineKind::Compact, max_width: 32, max_height: 32, ..knights_sim::DESIGN };
    cached("compact", &design, traced, say)
}

/// The default simulated interleaved board: a walker and three
/// interleaved workers (fifteen searches) for boards up to 6x6, at the
/// simulated board's clock and UART (the tests').
pub fn default_interleaved(traced: bool, say: &mut dyn FnMut(&str)) -> Result<Arc<Model>, DeviceError> {
    let design =
        Design { kind: EngineKind::Interleaved, max_width: 6, max_height: 6, engines: 4, ..knights_sim::DESIGN };
    cached("interleaved", &design, traced, say)
}

/// The model of `design` from the cache, made first if it is not there.
pub(crate) fn cached(
    name: &str,
    design: &Design,
    traced: bool,
    say: &mut dyn FnMut(&str),
) -> Result<Arc<Model>, DeviceError> {
    let verilog = knights_rtl::verilog::accelerator_verilog(design).ok_or_else(|| PortError::SimModel {
        board: name.to_string(),
        reason: format!("the RTL has no {}x{} {} engine", design.max_width, design.max_height, design.kind),
    })?;
    cached_verilog(name, &knights_rtl::verilog::for_verilator(&verilog), *design, traced, say)
}

/// The model of `verilog` (a module `top` with the simulated board's pins),
/// which models `design`, from the cache, made first if it is not there.
pub(crate) fn cached_verilog(
    name: &str,
    verilog: &str,
    design: Design,
    traced: bool,
    say: &mut dyn FnMut(&str),
) -> Result<Arc<Model>, DeviceError> {
    let fail = |reason: String| DeviceError::Port(PortError::SimModel { board: name.to_string(), reason });
    let kind = if traced { "-traced" } else { "" };
    let dir = cache_root().join("sim").join(format!("{name}{kind}-{:016x}", knights_sim::fingerprint(verilog, traced)));
    let library = dir.join("obj_dir").join("libksim.so");
    // One model made at a time in a process: threads asking for the same
    // one on a cold cache (the tests do) wait for it rather than make it
    // again in the same directory. Processes keep apart by `make`'s rename.
    static MAKING: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _making = MAKING.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if !library.exists() {
        say(&format!(
            "making the simulated {name} board{} (once; cached in {})",
            if traced { ", traced" } else { "" },
            dir.display()
        ));
        make(verilog, &dir, traced).map_err(fail)?;
    }
    Model::load(&library, design).map_err(|e| fail(format!("cannot load {}: {e}", library.display())))
}

/// Builds the model in a directory of its own, then moves it into place, so
/// that two processes making the same model at once do not mix their files.
fn make(verilog: &str, dir: &Path, traced: bool) -> Result<(), String> {
    let building = dir.with_extension(format!("building-{}", std::process::id()));
    if let Err(reason) = knights_sim::build_model(verilog, &building, traced) {
        // (A failed build's files would stay in the cache for ever.)
        let _ = std::fs::remove_dir_all(&building);
        return Err(reason);
    }
    match std::fs::rename(&building, dir) {
        Ok(()) => Ok(()),
        // Another process got there first: its model is the same.
        Err(_) if dir.join("obj_dir").join("libksim.so").exists() => {
            let _ = std::fs::remove_dir_all(&building);
            Ok(())
        }
        Err(e) => Err(format!("cannot move {} to {}: {e}", building.display(), dir.display())),
    }
}

/// Where models are cached: `$KNIGHTS_CACHE_DIR`, else the user's cache
/// directory (`$XDG_CACHE_HOME/knights` or `~/.cache/knights`).
pub fn cache_root() -> PathBuf {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    var("KNIGHTS_CACHE_DIR")
        .or_else(|| var("XDG_CACHE_HOME").map(|d| d.join("knights")))
        .or_else(|| var("HOME").map(|d| d.join(".cache").join("knights")))
        .unwrap_or_else(|| std::env::temp_dir().join("knights-cache"))
}
