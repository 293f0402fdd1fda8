//! `knights plan`, `run-jobs` and `merge`: a count spread over many
//! machines through files (see `knights::plan`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::{Context, Result};
use knights::device::error::UsageError;
use knights::device::{CpuDevice, Problem};
use knights::plan::{self, AnyDevice, Manifest, Part, ResultFile, Task};
use knights::tours::jobs::TourTask;
use knights::tours::TourDevice;
use knights_model::Status;
use serde_json::json;

use super::args::{DeviceArgs, DeviceKind, Format, PlanArgs, ProgressArgs, SearchArgs, Start};
use super::progress::{warn_of_failures, Progress};

/// `knights plan`: writes the manifest and says what is in it.
pub fn plan(args: &PlanArgs, out: &mut dyn Write) -> Result<()> {
    let manifest = match (args.queens, args.size) {
        (Some(n), _) => Manifest::queens(n, !args.no_symmetry).map_err(|e| UsageError(format!("--queens {n}: {e}")))?,
        (None, Some(board)) => {
            let every_start = args.tours.start == Start::All;
            if every_start && args.min_jobs > 1 {
                return Err(UsageError(
                    "--min-jobs cuts one start's count; --start all is already a job per class of start squares".into(),
                )
                .into());
            }
            let spec = args.tours.spec(board);
            if !board.contains(spec.start) {
                return Err(UsageError(format!("--start {} is off the {board} board", spec.start)).into());
            }
            Manifest::tours(&spec, every_start, args.min_jobs)
        }
        (None, None) => unreachable!("clap requires --size or --queens"),
    };
    std::fs::write(&args.out, serde_json::to_string_pretty(&manifest)?)
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    let runs_on = if manifest.jobs.iter().any(|job| matches!(job.task, Task::Tours(TourTask::TourPath { .. }))) {
        "paths from the start"
    } else {
        "whole searches"
    };
    writeln!(
        out,
        "{}: {} job{} ({runs_on}), plan {} in {}",
        manifest.count,
        manifest.jobs.len(),
        if manifest.jobs.len() == 1 { "" } else { "s" },
        &manifest.id[..12],
        args.out.display()
    )?;
    Ok(())
}

/// `knights run-jobs`: one part of a plan, its devices sharing its jobs.
pub fn run_jobs(
    manifest_path: &Path,
    part: Part,
    result_path: &Path,
    device_args: &DeviceArgs,
    progress: &ProgressArgs,
    out: &mut dyn Write,
) -> Result<()> {
    let manifest = Manifest::read(manifest_path)?;
    let problem = match manifest.jobs.first().map(|job| &job.task) {
        Some(Task::Queens(_)) => Problem::Queens,
        _ => Problem::Tours,
    };
    let devices = open_for_jobs(device_args, problem)?;
    let progress = Mutex::new(Progress::from_args(progress)?);
    let result = plan::run_part(&manifest, part, devices, &|tally| {
        progress.lock().expect("progress is not poisoned").update_jobs(tally)
    })?;
    progress.into_inner().expect("progress is not poisoned").finish();
    warn_of_failures(&result.failed_devices);
    std::fs::write(result_path, serde_json::to_string_pretty(&result)?)
        .with_context(|| format!("cannot write {}", result_path.display()))?;
    let found: u64 = result.results.iter().map(|r| r.count).sum();
    writeln!(
        out,
        "part {part}: {} job{} of {}, {found} found before weights, {} nodes{}; results in {}",
        result.results.len(),
        if result.results.len() == 1 { "" } else { "s" },
        manifest.jobs.len(),
        result.results.iter().map(|r| r.nodes).sum::<u64>(),
        if result.status == Status::Aborted { " (stopped before the part was done)" } else { "" },
        result_path.display()
    )?;
    Ok(())
}

/// The devices for a part's jobs: the CPU as one single-threaded device per
/// thread (jobs are the unit of work), others as given.
fn open_for_jobs(device_args: &DeviceArgs, problem: Problem) -> Result<Vec<Box<dyn AnyDevice + Send>>> {
    let devices = device_args.open_all(problem)?;
    if device_args.device != Some(DeviceKind::Cpu) {
        return Ok(devices);
    }
    let threads = device_args.threads.map_or_else(|| CpuDevice::all_cores().threads, usize::from);
    Ok((0..threads).map(|_| Box::new(CpuDevice { threads: 1 }) as Box<dyn AnyDevice + Send>).collect())
}

/// `knights merge`: the count from the parts' result files.
pub fn merge(manifest_path: &Path, result_paths: &[PathBuf], format: Format, out: &mut dyn Write) -> Result<()> {
    if format == Format::Svg {
        return Err(UsageError("merge writes text or json".into()).into());
    }
    let manifest = Manifest::read(manifest_path)?;
    let files = result_paths
        .iter()
        .map(|path| Ok((path.clone(), ResultFile::read(path)?)))
        .collect::<Result<Vec<_>, plan::ManifestError>>()?;
    let merged = plan::merge(&manifest, &files)?;
    match format {
        Format::Json => writeln!(
            out,
            "{}",
            json!({
                "count": merged.count,
                "total": merged.total,
                "nodes": merged.nodes,
                "jobs": merged.jobs,
                "result_files": merged.parts,
                "device_seconds": merged.device_seconds,
                "failed_devices": merged.failed_devices,
            })
        )?,
        _ => {
            let seconds: Vec<String> = merged.device_seconds.iter().map(|(d, s)| format!("{d} {s:.1} s")).collect();
            writeln!(
                out,
                "{} {}: {} nodes; {} jobs from {} result files, every job once (job time: {})",
                merged.total,
                merged.count,
                merged.nodes,
                merged.jobs,
                merged.parts,
                seconds.join(", ")
            )?
        }
    }
    Ok(())
}

/// `knights estimate`: a count's size from random probes.
pub fn estimate(
    search: &SearchArgs,
    depth: usize,
    probes: usize,
    seed: u64,
    on_sim: bool,
    format: Format,
    out: &mut dyn Write,
) -> Result<()> {
    if format == Format::Svg {
        return Err(UsageError("estimate writes text or json".into()).into());
    }
    if probes < 2 {
        return Err(UsageError("--probes must be at least 2 (the spread of the probes is the error)".into()).into());
    }
    // (Opened once the arguments are known good: a simulated model may take
    // minutes to make on first use.)
    let mut sim = if on_sim { Some(super::device::default_simulated()?) } else { None };
    let board = sim.as_deref_mut().map(|d| d as &mut dyn TourDevice);
    let spec = search.spec();
    let quiet = &mut |_| knights_model::Flow::Continue;
    let (classes, tours, nodes, seconds, board_seconds) = if search.start() == Start::All {
        let whole = knights::tours::estimate::estimate_every_start(&spec, depth, probes, seed, board, quiet)?;
        let classes: Vec<_> = whole.classes.into_iter().map(|(class, e)| (class.start, class.weight, e)).collect();
        (classes, whole.tours, whole.nodes, whole.cpu_seconds, whole.board_seconds)
    } else {
        let one = knights::tours::estimate::estimate(&spec, depth, probes, seed, board, quiet)?;
        let (tours, nodes, seconds, board_seconds) = (one.tours, one.nodes, one.cpu_seconds, one.board_seconds);
        (vec![(spec.start, 1, one)], tours, nodes, seconds, board_seconds)
    };
    let sampled_nodes: u64 = classes.iter().map(|c| c.2.sampled_nodes).sum();
    let sampled_seconds: f64 = classes.iter().map(|c| c.2.sampled_seconds).sum();
    let rate = sampled_nodes as f64 / sampled_seconds.max(1e-9);
    let board_cycles: u64 = classes.iter().filter_map(|c| c.2.board_sampled_cycles).sum();
    let board_clocks_per_node = board_cycles as f64 / sampled_nodes.max(1) as f64;
    let figure = |f: knights::tours::estimate::Figure| json!({ "mean": f.mean, "std_error": f.std_error });
    match format {
        Format::Json => writeln!(
            out,
            "{}",
            json!({
                "size": spec.board.to_string(),
                "start": match search.start() { Start::All => "all".to_string(), Start::Square(s) => s.to_string() },
                "closed": spec.closed,
                "order": spec.order,
                "prune": spec.prune,
                "depth": depth,
                "probes": probes,
                "seed": seed,
                "tours": figure(tours),
                "nodes": figure(nodes),
                "cpu_core_seconds": figure(seconds),
                "sampled_nodes": sampled_nodes,
                "sampled_seconds": sampled_seconds,
                "cpu_core_nodes_per_second": rate,
                "sim_board": sim.as_ref().map(|board| json!({
                    "device": board.name(),
                    "engine_seconds": board_seconds.map(figure),
                    "sampled_cycles": board_cycles,
                    "cycles_per_node": board_clocks_per_node,
                })),
                "classes": classes.iter().map(|(start, weight, e)| json!({
                    "start": start.to_string(),
                    "weight": weight,
                    "jobs": figure(e.jobs),
                    "tours": figure(e.tours),
                    "nodes": figure(e.nodes),
                    "probes_reaching_jobs": e.probes_reaching_jobs,
                })).collect::<Vec<_>>(),
            })
        )?,
        _ => {
            let pm = |f: knights::tours::estimate::Figure| format!("{:.4e} ± {:.1e}", f.mean, f.std_error);
            writeln!(
                out,
                "{} tours of {} from {} ({} order{}): {} tours, {} nodes, {} s on one CPU core ({:.1} M nodes/s on the {} probed jobs, {} moves deep; {} probes{})",
                if spec.closed { "closed" } else { "open" },
                spec.board,
                match search.start() { Start::All => "every start square".to_string(), Start::Square(s) => s.to_string() },
                spec.order,
                if spec.prune { ", pruned" } else { "" },
                pm(tours),
                pm(nodes),
                pm(seconds),
                rate / 1e6,
                classes.iter().map(|c| c.2.probes_reaching_jobs).sum::<usize>(),
                depth,
                probes,
                if classes.len() > 1 { " a class" } else { "" }
            )?;
            if let Some(board_seconds) = board_seconds {
                writeln!(
                    out,
                    "on the simulated board: {} s of its engines' time at its clock, {:.3} clocks per node on the probed jobs, every job's count equal to the CPU's",
                    pm(board_seconds),
                    board_clocks_per_node
                )?;
            }
        }
    }
    Ok(())
}
