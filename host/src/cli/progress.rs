//! A search's one-line progress on stderr, for searches that take a while:
//! shown only when stderr is a terminal (indicatif hides it otherwise), and
//! only after the first second, so that quick searches print nothing.

use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use knights::search::Flow;

const DELAY: Duration = Duration::from_secs(1);
/// Redraws per second, at most.
pub(super) const REFRESH_HZ: u8 = 5;

pub struct Progress {
    started: Instant,
    /// Made at the first update after `DELAY`.
    line: Option<ProgressBar>,
}

impl Progress {
    /// A display on stderr.
    pub fn on_stderr() -> Self {
        Progress { started: Instant::now(), line: None }
    }

    /// Takes running totals.
    pub fn update(&mut self, nodes: u64, tours: u64) -> Flow {
        let elapsed = self.started.elapsed();
        if elapsed < DELAY {
            return Flow::Continue;
        }
        let line = self.line.get_or_insert_with(|| {
            let line = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr_with_hz(REFRESH_HZ))
                .with_elapsed(elapsed);
            line.set_style(ProgressStyle::with_template("{msg}, {elapsed}").expect("a valid template"));
            line
        });
        let rate = nodes as f64 / elapsed.as_secs_f64() / 1e6;
        line.set_message(format!("{nodes} nodes, {tours} tours, {rate:.1} M nodes/s"));
        Flow::Continue
    }

    /// Clears the line, if one was drawn.
    pub fn finish(&mut self) {
        if let Some(line) = self.line.take() {
            line.finish_and_clear();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}
