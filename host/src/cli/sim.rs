//! The simulated board's commands (feature `sim`): `sim-serve`, `bench` and
//! `fuzz-link`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result};
use knights::device::error::UsageError;
use knights::fpga::build_report::{BuildReport, BUILD_ROOT};
use knights::link::transport::SimTransport;
use knights::link::LinkedDevice;
use knights::tours::bench;
use knights::tours::TourDevice;
use knights_model::BoardSize;

use super::args::Format;
use super::reports::{existing_build_dirs, read_reports};

/// `knights sim-serve`: the simulated board on a pseudo-terminal, its path
/// on stdout, until killed.
#[cfg(unix)]
pub fn serve(board: Option<&str>, out: &mut dyn Write) -> Result<()> {
    // The line at the build's rate, as the flashed board's would be.
    let (simulated, line_baud) = match board {
        None => (knights_sim::SimulatedBoard::new(), knights_sim::DESIGN.baud),
        Some(name) => (
            super::device::simulated_board(knights::device::Problem::Tours, Some(name), None)?,
            knights::fpga::boards::find(name)?.build.design.baud,
        ),
    };
    knights::link::transport::serve_simulated_board(
        simulated,
        Some(line_baud as u32),
        &mut |path| {
            let _ = writeln!(out, "{path}");
            let _ = out.flush();
            eprintln!("simulated board on {path}: run e.g. `knights solve --size 5 --port {path}`; Ctrl-C stops it");
        },
        &|| true,
    )?;
    Ok(())
}

#[cfg(not(unix))]
pub fn serve(_board: Option<&str>, _out: &mut dyn Write) -> Result<()> {
    anyhow::bail!("sim-serve needs pseudo-terminals, which this system does not have")
}

/// `knights bench`: the CPU and the simulated board on the standard cases,
/// and the boards of the build reports in `builds` (default: every build).
pub fn bench(
    format: Format,
    svg: Option<PathBuf>,
    json: Option<PathBuf>,
    builds: Vec<PathBuf>,
    out: &mut dyn Write,
) -> Result<()> {
    if format == Format::Svg {
        return Err(UsageError("bench writes text or json; --svg FILE draws the chart".into()).into());
    }
    let dirs = if builds.is_empty() { existing_build_dirs(Path::new(BUILD_ROOT)) } else { builds };
    let reports = read_reports(&dirs)?;
    if reports.is_empty() {
        eprintln!("no build reports under {BUILD_ROOT}/: no board times (scripts/bitstreams.sh builds them)");
    }
    let say = &mut |line: &str| eprintln!("bench: {line}");
    let mut sim = LinkedDevice::connect("sim", SimTransport::new(), Duration::from_secs(60))?;
    let mut boards = boards_as_built(&reports, say)?;
    let mut largest = vec![sim.max_board()];
    largest.extend(boards.iter().map(|b| BoardSize::new(b.report.design.max_width, b.report.design.max_height)));
    largest.sort_by_key(|b| (b.area(), b.width));
    largest.dedup();
    let cases = bench::standard_cases(&largest);
    let results = bench::run(&mut sim, &cases, &mut boards, say)?;
    match format {
        Format::Json => writeln!(out, "{}", serde_json::to_string_pretty(&results)?)?,
        _ => write!(out, "{}", bench::text(&results))?,
    }
    if let Some(path) = svg {
        std::fs::write(&path, bench::svg(&results)).with_context(|| format!("cannot write {}", path.display()))?;
    }
    if let Some(path) = json {
        std::fs::write(&path, serde_json::to_string_pretty(&results)? + "\n")
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

/// Each knight's-tour build of `reports` simulated as built (made on first
/// use and cached).
#[cfg(feature = "fpga")]
fn boards_as_built(reports: &[BuildReport], say: &mut dyn FnMut(&str)) -> Result<Vec<bench::BoardSim<SimTransport>>> {
    let mut boards = Vec::new();
    for report in reports.iter().filter(|r| !r.design.kind.solves_queens()) {
        let model = knights::fpga::board_sim::as_built(report, say)?;
        let transport = SimTransport::on(knights_sim::SimulatedBoard::on(model));
        let device = LinkedDevice::connect("sim", transport, Duration::from_secs(600))?;
        boards.push(bench::BoardSim { report: report.clone(), device });
    }
    Ok(boards)
}

#[cfg(not(feature = "fpga"))]
fn boards_as_built(reports: &[BuildReport], say: &mut dyn FnMut(&str)) -> Result<Vec<bench::BoardSim<SimTransport>>> {
    if !reports.is_empty() {
        say(&format!("no board rows: simulating a board's build {}", super::missing_feature("fpga")));
    }
    Ok(Vec::new())
}

/// `knights bench --queens`: N = 12 up to `max_n`.
#[cfg(feature = "fpga")]
pub fn bench_queens(format: Format, builds: Vec<PathBuf>, max_n: u8, out: &mut dyn Write) -> Result<()> {
    if format == Format::Svg {
        return Err(UsageError("bench writes text or json".into()).into());
    }
    let dirs = if builds.is_empty() { existing_build_dirs(Path::new(BUILD_ROOT)) } else { builds };
    let reports = read_reports(&dirs)?;
    let say = &mut |line: &str| eprintln!("bench: {line}");
    let simulated = super::device::simulated_board(knights::device::Problem::Queens, None, None)?;
    let mut sim = LinkedDevice::connect("sim", SimTransport::on(simulated), Duration::from_secs(60))?;
    let rows = knights::queens::bench::run(&mut sim, 12.min(max_n)..=max_n, &reports, say)?;
    match format {
        Format::Json => writeln!(out, "{}", serde_json::to_string_pretty(&rows)?)?,
        _ => write!(out, "{}", knights::queens::bench::text(&rows))?,
    }
    Ok(())
}

#[cfg(not(feature = "fpga"))]
pub fn bench_queens(_: Format, _: Vec<PathBuf>, _: u8, _: &mut dyn Write) -> Result<()> {
    Err(UsageError(format!(
        "bench --queens (its simulated build is made at run time) {}",
        super::missing_feature("fpga")
    ))
    .into())
}

/// `knights fuzz-link`: damaged streams against the fuzzing build's link.
#[cfg(feature = "fpga")]
pub fn fuzz_link(streams: usize, seed: u64, out: &mut dyn Write) -> Result<()> {
    let started = std::time::Instant::now();
    let (board, quiet) = knights::fpga::link_fuzz::fuzz_board(&mut |line| eprintln!("{line}"))?;
    let report = knights::fpga::link_fuzz::fuzz(board, streams, seed, quiet)?;
    writeln!(
        out,
        "{} damaged streams ({} bytes of damage, seed {seed}): {} answered with ERROR frames, \
         every good command answered after its stream ({} of them sent in two parts): 0 hangs; \
         {} board clocks, {:.1} s",
        report.streams,
        report.damaged_bytes,
        report.errors_answered,
        report.split_commands,
        report.cycles,
        started.elapsed().as_secs_f64()
    )?;
    Ok(())
}

/// A build's speed, measured on its design simulated as built (its model
/// made on first use and cached); `say` hears what takes time.
#[cfg(feature = "fpga")]
pub fn measured(report: &BuildReport, say: &mut dyn FnMut(&str)) -> Result<knights::fpga::build_report::Measured> {
    let model = knights::fpga::board_sim::as_built(report, say)?;
    let transport = SimTransport::on(knights_sim::SimulatedBoard::on(model));
    let mut device = LinkedDevice::connect("sim", transport, knights::measure::SILENCE)?;
    say(&format!(
        "measuring: `{}` on the simulated build",
        knights::measure::Workload::for_design(&report.design).command()
    ));
    knights::measure::measure(&mut device, &report.design)
}

/// `knights measure --dir DIR`: the build's speed, measured and written
/// into its report.
#[cfg(feature = "fpga")]
pub fn measure_build(dir: &Path, out: &mut dyn Write) -> Result<()> {
    let mut report = BuildReport::read(dir)?;
    report.measured = Some(measured(&report, &mut |line| eprintln!("{line}"))?);
    report.write(dir)?;
    write!(out, "{}", knights::fpga::build_report::summary(&report, dir))?;
    Ok(())
}

/// `knights check-build`: the built board's netlist in a conversation; the
/// report on stdout, an error (exit status 1) when a step failed.
#[cfg(feature = "fpga")]
pub fn check_build(
    name: &str,
    dir: Option<std::path::PathBuf>,
    trace: Option<&std::path::Path>,
    out: &mut dyn Write,
) -> Result<()> {
    let board = knights::fpga::boards::find(name)?;
    let dir = dir.unwrap_or_else(|| std::path::Path::new(knights::fpga::build_report::BUILD_ROOT).join(name));
    let report = knights::check_build::check(&board, &dir, trace, &mut |line| eprintln!("{line}"))?;
    write!(out, "{}", report.text())?;
    if !report.passed() {
        anyhow::bail!("the {name} build differs from what it was built to be (see above)");
    }
    Ok(())
}
