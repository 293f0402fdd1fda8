//! Any board's build under Verilator (`--device sim --board NAME`): the
//! board file's engine kind, engines, largest board and clock, with the
//! simulated board's fast UART (four clocks a bit). Its model is made on
//! first use and cached, so that a fresh machine compiles only the models it
//! runs.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use knights_rtl::accelerator::{Features, LinkSettings};
use knights_sim::{Build, Model};

use crate::boards::{Board, EngineKind};
use crate::error::DeviceError;

/// Clocks per UART bit in a simulated board's build.
const CLOCKS_PER_BIT: u64 = 4;

/// The model of `board`'s build, made (and cached) if need be; `say` hears
/// what takes time.
pub fn model(board: &Board, say: &mut dyn FnMut(&str)) -> Result<Arc<Model>, DeviceError> {
    let fail = |reason: String| DeviceError::SimModel { board: board.name.clone(), reason };
    let build = &board.build;
    let link = LinkSettings::new(build.clock_hz, build.clock_hz / CLOCKS_PER_BIT);
    let verilog = match build.engine {
        EngineKind::Wide => knights_rtl::verilog::accelerator_verilog(
            usize::from(build.max_width),
            usize::from(build.max_height),
            usize::from(build.engines),
            Features { warnsdorff: build.warnsdorff },
            link,
        ),
    }
    .ok_or_else(|| fail(format!("the RTL has no {}x{} engine", build.max_width, build.max_height)))?;
    let verilog = knights_rtl::verilog::for_verilator(&verilog);
    let dir = cache_root().join("sim").join(format!("{}-{:016x}", board.name, fnv1a(verilog.as_bytes())));
    let library = dir.join("obj_dir").join("libksim.so");
    if !library.exists() {
        say(&format!("making the simulated {} board (once; cached in {})", board.name, dir.display()));
        make(&verilog, &dir).map_err(fail)?;
    }
    let simulated = Build {
        max_width: build.max_width,
        max_height: build.max_height,
        engines: usize::from(build.engines),
        clock_hz: link.clock_hz,
        clocks_per_bit: link.clocks_per_bit() as u32,
    };
    Model::load(&library, simulated).map_err(|e| fail(format!("cannot load {}: {e}", library.display())))
}

/// Builds the model in a directory of its own, then moves it into place, so
/// that two processes making the same model at once do not mix their files.
fn make(verilog: &str, dir: &Path) -> Result<(), String> {
    let building = dir.with_extension(format!("building-{}", std::process::id()));
    knights_sim::build_model(verilog, &building)?;
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
fn cache_root() -> PathBuf {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    var("KNIGHTS_CACHE_DIR")
        .or_else(|| var("XDG_CACHE_HOME").map(|d| d.join("knights")))
        .or_else(|| var("HOME").map(|d| d.join(".cache").join("knights")))
        .unwrap_or_else(|| std::env::temp_dir().join("knights-cache"))
}

/// FNV-1a, 64 bits: names a model by its Verilog (stable across Rust
/// versions, unlike `DefaultHasher`).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn models_are_named_by_their_verilog() {
        // The FNV-1a test vectors.
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
