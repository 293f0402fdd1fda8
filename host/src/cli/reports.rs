//! Build reports on disk: which build directories have one, and reading them
//! (for `build-table` and `bench`).

use std::path::{Path, PathBuf};

use anyhow::Result;
use knights::fpga::build_report::BuildReport;

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

pub fn read_reports(dirs: &[PathBuf]) -> Result<Vec<BuildReport>> {
    dirs.iter().map(|dir| BuildReport::read(dir)).collect()
}
