//! The `knights` command line over the library: [`args`] defines it,
//! [`execute`] runs a parsed one through the commands' modules ([`search`];
//! [`sim`] and [`fpga`] with those features), and [`explain`] turns errors
//! into what the user reads and the exit status.

mod args;
#[cfg(feature = "fpga")]
mod build_status;
mod cluster;
mod device;
mod explain;
#[cfg(feature = "fpga")]
mod fpga;
mod progress;
mod queens;
mod reports;
mod search;
mod selftest;
#[cfg(feature = "sim")]
mod sim;

use anyhow::Result;

pub use args::Cli;
use args::Command;
pub use explain::Failure;
use knights::queens::query::QueensQuery;
use knights_model::Goal;
pub use progress::interrupted;

/// Runs a parsed command line, writing results to stdout.
pub fn execute(cli: Cli) -> Result<()> {
    let out = &mut std::io::stdout().lock();
    match cli.command {
        Command::Solve { search, limit, device, format } => search::solve(&search, limit, &device, format, out),
        Command::Count { search, device, progress, journal, format } => {
            search::count(&search, &device, &progress, journal.as_deref(), format, out)
        }
        Command::Queens { n, limit, count, no_symmetry, constellations, unique, device, progress, journal, format } => {
            let goal = if count { Goal::CountAll } else { Goal::First(limit.unwrap_or(1)) };
            queens::queens(
                QueensQuery { n, goal, mirror: !no_symmetry, constellations, unique },
                &device,
                &progress,
                journal.as_deref(),
                format,
                out,
            )
        }
        Command::Estimate { search, depth, probes, seed, on_sim, format } => {
            cluster::estimate(&search, depth, probes, seed, on_sim, format, out)
        }
        Command::Plan(args) => cluster::plan(&args, out),
        Command::RunJobs { manifest, part, out: path, device, progress } => {
            cluster::run_jobs(&manifest, part, &path, &device, &progress, out)
        }
        Command::Merge { manifest, results, format } => cluster::merge(&manifest, &results, format, out),
        Command::Doctor { format } => device::doctor(format, out),
        Command::Selftest { device, queens } => selftest::selftest(&device, queens, out),
        Command::Ports { probe, probe_unknown, baud, format } => device::ports(probe, probe_unknown, baud, format, out),
        #[cfg(feature = "sim")]
        Command::SimServe { board } => sim::serve(board.as_deref(), out),
        #[cfg(feature = "sim")]
        Command::Bench { format, svg, json, builds, queens: false, .. } => sim::bench(format, svg, json, builds, out),
        #[cfg(feature = "sim")]
        Command::Bench { format, builds, queens: true, max_n, .. } => sim::bench_queens(format, builds, max_n, out),
        #[cfg(not(feature = "sim"))]
        Command::SimServe { .. } | Command::Bench { .. } => Err(unavailable("sim")),
        #[cfg(all(feature = "sim", feature = "fpga"))]
        Command::FuzzLink { streams, seed } => sim::fuzz_link(streams, seed, out),
        #[cfg(all(feature = "sim", feature = "fpga"))]
        Command::CheckBuild { board, dir, trace } => sim::check_build(&board, dir, trace.as_deref(), out),
        #[cfg(all(feature = "sim", feature = "fpga"))]
        Command::Measure { dir } => sim::measure_build(&dir, out),
        #[cfg(not(all(feature = "sim", feature = "fpga")))]
        Command::Measure { .. } => Err(unavailable(if cfg!(feature = "sim") { "fpga" } else { "sim" })),
        #[cfg(not(all(feature = "sim", feature = "fpga")))]
        Command::CheckBuild { .. } => Err(unavailable(if cfg!(feature = "sim") { "fpga" } else { "sim" })),
        #[cfg(not(all(feature = "sim", feature = "fpga")))]
        Command::FuzzLink { .. } => Err(unavailable(if cfg!(feature = "sim") { "fpga" } else { "sim" })),
        #[cfg(feature = "fpga")]
        Command::Boards { format } => fpga::list_boards(format, out),
        #[cfg(feature = "fpga")]
        Command::Constraints { out: dir } => fpga::constraints(&dir, out),
        #[cfg(feature = "fpga")]
        Command::Build(args) => fpga::build(args, out),
        #[cfg(feature = "fpga")]
        Command::Verilog(args) => fpga::verilog(&args, out),
        #[cfg(feature = "fpga")]
        Command::BuildTable { dirs } => fpga::build_table(dirs, out),
        #[cfg(feature = "fpga")]
        Command::Flash { board, bitstream, sram, dry_run } => fpga::flash(&board, bitstream, sram, dry_run, out),
        #[cfg(not(feature = "fpga"))]
        Command::Boards { .. }
        | Command::Constraints { .. }
        | Command::Build(_)
        | Command::Verilog(_)
        | Command::BuildTable { .. }
        | Command::Flash { .. } => Err(unavailable("fpga")),
    }
}

/// Says that a part of knights was left out of this build.
#[cfg(not(all(feature = "sim", feature = "fpga")))]
fn missing_feature(feature: &str) -> String {
    format!("needs the `{feature}` feature, which this knights was built without (it is on by default)")
}

/// The error for a command whose feature this build lacks.
#[cfg(not(all(feature = "sim", feature = "fpga")))]
fn unavailable(feature: &str) -> anyhow::Error {
    knights::device::error::UsageError(format!("this command {}", missing_feature(feature))).into()
}
