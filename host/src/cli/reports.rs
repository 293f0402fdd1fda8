//! Build reports on disk: which build directories have one, and reading them
//! (for `build-table` and `bench`).

use std::path::{Path, PathBuf};

use anyhow::Result;
use knights::fpga::build_report::{BuildReport, BUILD_ROOT};

/// The build directories under `root` that hold a report, in board order.
#[cfg(feature = "fpga")]
pub fn existing_build_dirs(root: &Path) -> Vec<PathBuf> {
    knights::fpga::boards::all().iter().map(|b| root.join(&b.name)).filter(|d| d.join("build.json").is_file()).collect()
}

/// The build directories under `root` that hold a report, in name order
/// (without the FPGA flow there is no board list to order them by).
#[cfg(not(feature = "fpga"))]
pub fn existing_build_dirs(root: &Path) -> Vec<PathBuf> {
    let entries = std::fs::read_dir(root).into_iter().flatten().flatten();
    let mut dirs: Vec<PathBuf> = entries.map(|e| e.path()).filter(|d| d.join("build.json").is_file()).collect();
    dirs.sort();
    dirs
}

#[cfg_attr(not(any(feature = "sim", feature = "fpga")), allow(dead_code))]
pub fn read_reports(dirs: &[PathBuf]) -> Result<Vec<BuildReport>> {
    dirs.iter().map(|dir| BuildReport::read(dir)).collect()
}

/// Which of this machine's builds (under `build/`) answers IDENTIFY with
/// build id `id`: `build 1a2b3c4d, the build in build/icebreaker`.
pub fn which_build(id: u32) -> String {
    let mine: Vec<String> = existing_build_dirs(Path::new(BUILD_ROOT))
        .into_iter()
        .filter(|dir| BuildReport::read(dir).ok().and_then(|report| report.build_id) == Some(id))
        .map(|dir| dir.display().to_string())
        .collect();
    if mine.is_empty() {
        format!("build {id:08x}, none of this machine's builds in {BUILD_ROOT}/ (made elsewhere, or rebuilt since: knights flash)")
    } else {
        format!("build {id:08x}, the build in {}", mine.join(" and "))
    }
}
