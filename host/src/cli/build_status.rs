//! A bitstream build's progress on stderr.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use knights::fpga::bitstream::{Phase, Watch};

use super::progress::REFRESH_HZ;

/// How often a build that is not on a terminal prints a progress line, at most.
const PLAIN_EVERY: Duration = Duration::from_secs(60);

/// A build's progress on stderr. On a terminal, a spinner with the elapsed
/// time, the phase and the latest note from its tool's log, below the lines
/// the build says. Otherwise (CI, a pipe) those lines and, at most once a
/// minute, the status as a plain line: signs of life in a 25-minute build
/// without filling the log.
pub struct BuildStatus {
    started: Instant,
    terminal: bool,
    spinner: Option<ProgressBar>,
    /// When the last plain line was printed.
    printed: Instant,
}

impl BuildStatus {
    /// A display on stderr.
    pub fn on_stderr() -> Self {
        let now = Instant::now();
        BuildStatus { started: now, terminal: std::io::stderr().is_terminal(), spinner: None, printed: now }
    }

    /// Clears the spinner, if one was drawn.
    pub fn finish(&mut self) {
        if let Some(spinner) = self.spinner.take() {
            spinner.finish_and_clear();
        }
    }
}

impl Watch for BuildStatus {
    fn say(&mut self, line: &str) {
        // The spinner comes back at the next status, below this line.
        self.finish();
        eprintln!("{line}");
        self.printed = Instant::now();
    }

    fn status(&mut self, phase: Phase, note: &str) {
        let text = build_status(self.started.elapsed(), phase, note);
        if self.terminal {
            let spinner = self.spinner.get_or_insert_with(|| {
                let spinner = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr_with_hz(REFRESH_HZ));
                spinner.set_style(ProgressStyle::with_template("{spinner} {msg}").expect("a valid template"));
                spinner
            });
            spinner.set_message(text);
            spinner.tick();
        } else if self.printed.elapsed() >= PLAIN_EVERY {
            eprintln!("{text}");
            self.printed = Instant::now();
        }
    }
}

impl Drop for BuildStatus {
    fn drop(&mut self) {
        self.finish();
    }
}

/// `[12:05] route: iteration 7, 1,234 overused wires`: the build's elapsed
/// time, its phase, and the note when there is one.
fn build_status(elapsed: Duration, phase: Phase, note: &str) -> String {
    let seconds = elapsed.as_secs();
    let (hours, minutes, seconds) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    let time = if hours > 0 { format!("{hours}:{minutes:02}:{seconds:02}") } else { format!("{minutes}:{seconds:02}") };
    if note.is_empty() {
        format!("[{time}] {phase}")
    } else {
        format!("[{time}] {phase}: {note}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_build_status_has_the_time_the_phase_and_the_note() {
        let at = Duration::from_secs;
        assert_eq!(build_status(at(5), Phase::Pack, ""), "[0:05] pack");
        assert_eq!(
            build_status(at(725), Phase::Route, "iteration 7, 1,234 overused wires"),
            "[12:05] route: iteration 7, 1,234 overused wires"
        );
        assert_eq!(build_status(at(3725), Phase::Synthesis, "3.42 ABC9"), "[1:02:05] synthesis: 3.42 ABC9");
    }
}
