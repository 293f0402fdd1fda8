//! A one-line progress display on stderr for searches that take a while.
//! Shown only when stderr is a terminal, and only after the first second.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use crate::search::Flow;

const DELAY: Duration = Duration::from_secs(1);
const REFRESH: Duration = Duration::from_millis(200);

pub struct Progress {
    enabled: bool,
    started: Instant,
    last_draw: Option<Instant>,
}

impl Progress {
    /// A display that draws only if stderr is a terminal.
    pub fn on_stderr() -> Self {
        Progress { enabled: std::io::stderr().is_terminal(), started: Instant::now(), last_draw: None }
    }

    /// Takes running totals; redraws the line at most five times a second.
    pub fn update(&mut self, nodes: u64, tours: u64) -> Flow {
        let now = Instant::now();
        let elapsed = now - self.started;
        let due = self.last_draw.map_or(elapsed >= DELAY, |last| now - last >= REFRESH);
        if self.enabled && due {
            self.last_draw = Some(now);
            let rate = nodes as f64 / elapsed.as_secs_f64() / 1e6;
            eprint!("\r\x1b[2K{nodes} nodes, {tours} tours, {rate:.1} M nodes/s, {:.0} s", elapsed.as_secs_f64());
            let _ = std::io::stderr().flush();
        }
        Flow::Continue
    }

    /// Clears the line, if one was drawn.
    pub fn finish(&mut self) {
        if self.last_draw.take().is_some() {
            eprint!("\r\x1b[2K");
            let _ = std::io::stderr().flush();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}
