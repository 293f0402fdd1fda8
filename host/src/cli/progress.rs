//! A long search's progress on stderr: a line when stderr is a terminal
//! (indicatif hides it otherwise), shown only after the first second so that
//! quick searches print nothing; or, with `--progress json`, a JSON object a
//! line about every second, for schedulers and scripts.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use knights::jobs::{DeviceFailure, Tally};
use knights_model::Flow;
use serde_json::json;

use super::args::{ProgressArgs, ProgressKind};

const DELAY: Duration = Duration::from_secs(1);
/// Redraws per second, at most.
pub(super) const REFRESH_HZ: u8 = 5;
/// Time between two JSON lines.
const JSON_EVERY: Duration = Duration::from_secs(1);

/// Set by Ctrl-C once [`stop_on_interrupt`] is on: the search stops at its
/// next progress report (the board gets its ABORT).
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Makes Ctrl-C stop a journaled count cleanly, its finished jobs kept: the
/// first Ctrl-C stops the search, a second one ends the process at once.
pub fn stop_on_interrupt() -> anyhow::Result<()> {
    ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        eprintln!("\nstopping: the finished jobs are in the journal (Ctrl-C again to quit at once)");
    })?;
    Ok(())
}

/// Whether Ctrl-C stopped the search.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Says on stderr where a stopped count's finished jobs are, and how to go
/// on.
pub fn tell_of_journal(journal: Option<&std::path::Path>, status: knights_model::Status) {
    if let (Some(path), knights_model::Status::Aborted) = (journal, status) {
        eprintln!("stopped: the finished jobs are kept in {}; the same command goes on from them", path.display());
    }
}

pub struct Progress {
    kind: ProgressKind,
    /// Stop the search after this long.
    stop_after: Option<Duration>,
    started: Instant,
    /// Made at the first update after `DELAY`.
    line: Option<ProgressBar>,
    last_json: Option<Instant>,
    /// The JSON line held back by the rate limit (written at the finish).
    unsaid: Option<serde_json::Value>,
}

impl Progress {
    pub fn new(kind: ProgressKind) -> Self {
        Progress { kind, stop_after: None, started: Instant::now(), line: None, last_json: None, unsaid: None }
    }

    /// The display `--progress` asks for, stopping at `--stop-after`.
    pub fn from_args(args: &ProgressArgs) -> anyhow::Result<Self> {
        let stop_after = match args.stop_after {
            Some(seconds) if !(seconds > 0.0 && seconds.is_finite()) => {
                return Err(knights::device::error::UsageError(
                    "--stop-after must be a positive number of seconds".into(),
                )
                .into())
            }
            seconds => seconds.map(Duration::from_secs_f64),
        };
        let mut progress = Progress::new(args.progress);
        progress.stop_after = stop_after;
        Ok(progress)
    }

    /// Takes one search's running totals.
    pub fn update(&mut self, nodes: u64, tours: u64) -> Flow {
        let elapsed = self.started.elapsed();
        self.update_jobs(&Tally { nodes, count: tours, elapsed, ..Tally::default() })
    }

    /// Takes a count's totals over its jobs.
    pub fn update_jobs(&mut self, tally: &Tally) -> Flow {
        self.show(tally);
        match self.stop_after {
            _ if interrupted() => Flow::Stop,
            Some(limit) if self.started.elapsed() >= limit => Flow::Stop,
            _ => Flow::Continue,
        }
    }

    fn show(&mut self, tally: &Tally) {
        let elapsed = tally.elapsed.max(self.started.elapsed());
        // This run's rate: an earlier run's nodes took no time here.
        let rate = (tally.nodes - tally.resumed_nodes) as f64 / elapsed.as_secs_f64().max(1e-9);
        match self.kind {
            ProgressKind::None => {}
            ProgressKind::Json => {
                let line = json_line(tally, elapsed, rate);
                if self.last_json.is_some_and(|at| at.elapsed() < JSON_EVERY) {
                    self.unsaid = Some(line);
                    return;
                }
                self.last_json = Some(Instant::now());
                self.unsaid = None;
                eprintln!("{line}");
            }
            ProgressKind::Bar => {
                if elapsed < DELAY {
                    return;
                }
                let line = self.line.get_or_insert_with(|| {
                    let line = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr_with_hz(REFRESH_HZ))
                        .with_elapsed(elapsed);
                    let template = if tally.jobs > 1 {
                        "{msg}, {pos}/{len} jobs, {elapsed}, about {eta} left"
                    } else {
                        "{msg}, {elapsed}"
                    };
                    line.set_style(ProgressStyle::with_template(template).expect("a valid template"));
                    line
                });
                if tally.jobs > 1 {
                    line.set_length(tally.jobs as u64);
                    line.set_position(tally.jobs_done as u64);
                }
                let resumed = match tally.resumed_jobs {
                    0 => String::new(),
                    jobs => format!(" ({jobs} jobs from the journal)"),
                };
                line.set_message(format!(
                    "{} nodes, {} found, {:.1} M nodes/s{resumed}",
                    tally.nodes,
                    tally.count,
                    rate / 1e6
                ));
            }
        }
    }

    /// Clears the line, if one was drawn, or writes the last JSON line.
    pub fn finish(&mut self) {
        if let Some(line) = self.unsaid.take() {
            eprintln!("{line}");
        }
        if let Some(line) = self.line.take() {
            line.finish_and_clear();
        }
    }
}

/// One JSON progress line. The time left is estimated from the jobs this
/// run did (null before the first, and for a search of one job).
fn json_line(tally: &Tally, elapsed: Duration, rate: f64) -> serde_json::Value {
    let seconds = elapsed.as_secs_f64();
    let done_here = tally.jobs_done - tally.resumed_jobs;
    let left =
        (tally.jobs > 1 && done_here > 0).then(|| seconds * (tally.jobs - tally.jobs_done) as f64 / done_here as f64);
    json!({
        "elapsed_seconds": seconds,
        "jobs_done": tally.jobs_done,
        "jobs": tally.jobs,
        "nodes": tally.nodes,
        "found": tally.count,
        "nodes_per_second": rate,
        "eta_seconds": left,
        "resumed_jobs": tally.resumed_jobs,
        "resumed_nodes": tally.resumed_nodes,
    })
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

/// Says on stderr which devices a shared count dropped (their jobs went to
/// the others, so the count is whole).
pub fn warn_of_failures(failures: &[DeviceFailure]) {
    for failure in failures {
        eprintln!(
            "device {} ({}) failed on job {}, which went to the other devices: {}",
            failure.device + 1,
            failure.name,
            failure.job,
            failure.error
        );
    }
}
