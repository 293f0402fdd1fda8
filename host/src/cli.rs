//! The `knights` command line: argument definitions and what each command does.

use std::io::Write;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand, ValueEnum};
use knights_rtl::accelerator::Features;

use crate::bench;
use crate::bitstream;
use crate::board::{BoardSize, Square};
use crate::boards;
use crate::device::{CpuDevice, Device};
use crate::link::LinkedDevice;
use crate::progress::{BuildStatus, Progress};
use crate::query::{self, Answer, Query, UsageError};
use crate::render;
use crate::search::{Goal, MoveOrder, SearchSpec};
use crate::transport::{SerialTransport, SimTransport};

/// Knight's tours on an FPGA backtracking engine, or on the CPU reference model.
#[derive(Debug, Parser)]
#[command(name = "knights", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Find the first tour (or the first K with --limit) and show it.
    Solve {
        #[command(flatten)]
        search: SearchArgs,
        /// How many tours to find before stopping.
        #[arg(long, default_value_t = 1, value_name = "K")]
        limit: u64,
        #[command(flatten)]
        device: DeviceArgs,
        /// Output format; svg draws the first tour.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Count every tour from the start square.
    Count {
        #[command(flatten)]
        search: SearchArgs,
        #[command(flatten)]
        device: DeviceArgs,
        /// Output format (text or json).
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Run the simulated board behind a pseudo-terminal, so that
    /// `knights ... --port PATH` reaches it through the serial-port code.
    SimServe,
    /// List the boards' builds (the names --board takes): each one's part
    /// (the board with one FPGA; a part may have several builds) and what
    /// its bitstream holds.
    Boards {
        /// Output format.
        #[arg(long, value_enum, default_value_t = ListFormat::Text)]
        format: ListFormat,
    },
    /// Write the boards' pin constraint files (PCF for iCE40, LPF for ECP5).
    Constraints {
        /// Directory to write them to.
        #[arg(long, default_value = "constraints", value_name = "DIR")]
        out: std::path::PathBuf,
    },
    /// Build a board's bitstream: emit the Verilog, run yosys, nextpnr and
    /// the packer, and report utilisation and Fmax against the clock.
    Build {
        /// The board (knights boards lists them).
        #[arg(long, value_name = "NAME")]
        board: String,
        /// Largest board the bitstream searches, N or WxH [default: the board's].
        #[arg(long, value_name = "WxH")]
        max_size: Option<BoardSize>,
        /// Engines in the bitstream [default: the board's].
        #[arg(long, value_name = "N")]
        engines: Option<u16>,
        /// Design clock in MHz; a PLL makes it when it differs from the
        /// board's oscillator [default: the board's build clock].
        #[arg(long, value_name = "MHZ")]
        clock_mhz: Option<f64>,
        /// UART bit rate [default: the board's, 115200].
        #[arg(long, value_name = "BAUD")]
        baud: Option<u32>,
        /// Leave Warnsdorff's move order out of the engines (about an eighth
        /// of an engine's logic), to fit more engines; the device then
        /// refuses Warnsdorff searches. Some boards' builds leave it out
        /// already (`knights boards` lists them).
        #[arg(long)]
        no_warnsdorff: bool,
        /// nextpnr's placement seed [default: the board's, else nextpnr's].
        /// A full part's Fmax varies by a few MHz with it.
        #[arg(long, value_name = "N")]
        seed: Option<u64>,
        /// The delay target in ps that yosys's ABC9 maps a several-engine
        /// build for [default: the board's, else half the clock period]:
        /// lower is a shallower, faster and larger engine.
        #[arg(long, value_name = "PS")]
        map_delay_ps: Option<u64>,
        /// Output directory [default: build/NAME].
        #[arg(long, value_name = "DIR")]
        out: Option<std::path::PathBuf>,
    },
    /// Write the accelerator's Verilog (top module `top`: UART pins, LEDs and
    /// the engines), or one bare engine's, to stdout.
    Verilog {
        /// Largest board the design searches: N for N×N, or WxH; its area
        /// must be one the RTL has an engine for (6x6, 8x8, 12x12, ...).
        #[arg(long, value_name = "N|WxH")]
        size: BoardSize,
        /// Engines in the accelerator.
        #[arg(long, default_value_t = 1, value_name = "N")]
        engines: u16,
        /// The design's clock in Hz.
        #[arg(long, default_value_t = 12_000_000, value_name = "HZ")]
        clock: u64,
        /// UART bit rate: at most a quarter of the clock.
        #[arg(long, default_value_t = 115_200, value_name = "B")]
        baud: u64,
        /// Leave Warnsdorff's move order out of the engines.
        #[arg(long)]
        no_warnsdorff: bool,
        /// Only one bare engine, without the link (to measure an engine's
        /// resources, as scripts/engine-resources.sh does).
        #[arg(long, conflicts_with_all = ["engines", "clock", "baud", "no_warnsdorff"])]
        engine_only: bool,
    },
    /// Print the README's table of builds from their build.json reports.
    BuildTable {
        /// Build directories (each with a build.json) [default: every one under build/].
        dirs: Vec<std::path::PathBuf>,
    },
    /// Load a bitstream onto a board with its flasher (iceprog,
    /// openFPGALoader, dfu-util).
    Flash {
        /// The board (knights boards lists them).
        #[arg(long, value_name = "NAME")]
        board: String,
        /// The bitstream [default: build/NAME/NAME.bin or .bit].
        #[arg(long, value_name = "FILE")]
        bitstream: Option<std::path::PathBuf>,
        /// Print the command instead of running it.
        #[arg(long)]
        dry_run: bool,
    },
    /// Benchmark: the CPU reference (one core, all cores) and the simulated
    /// accelerator on the first 8x8 tour, the 5x5 count, the closed 6x6
    /// count and Warnsdorff on the largest board, all from a1, with each
    /// built board's time from the simulated cycles and its build report.
    Bench {
        /// Output format (text or json).
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Also draw the speed-ups as an SVG bar chart in this file.
        #[arg(long, value_name = "FILE")]
        svg: Option<std::path::PathBuf>,
        /// Also write the results as JSON to this file (so one run gives
        /// the text, the JSON and the chart).
        #[arg(long, value_name = "FILE")]
        json: Option<std::path::PathBuf>,
        /// Build directories (each with a build.json) whose boards to model
        /// [default: every one under build/; none is fine].
        builds: Vec<std::path::PathBuf>,
    },
}

/// What to search for.
#[derive(Debug, Args)]
pub struct SearchArgs {
    /// Board size: N for N×N, or WxH for W files by H ranks (e.g. 6x5).
    #[arg(long, value_name = "N|WxH")]
    pub size: BoardSize,
    /// Start square in algebraic notation (a1 is the bottom-left corner).
    #[arg(long, default_value = "a1", value_name = "SQUARE")]
    pub start: Square,
    /// Only closed tours (the last square a knight move from the first).
    #[arg(long)]
    pub closed: bool,
    /// Move order: canonical, or Warnsdorff's fewest-onward-moves rule.
    #[arg(long, default_value_t = MoveOrder::Fixed, value_parser = move_order_parser())]
    pub order: MoveOrder,
    /// Search the canonical exhaustive tree: no dead-end pruning (same
    /// tours, many more nodes).
    #[arg(long)]
    pub no_prune: bool,
}

impl SearchArgs {
    fn spec(&self) -> SearchSpec {
        SearchSpec {
            board: self.size,
            start: self.start,
            closed: self.closed,
            order: self.order,
            prune: !self.no_prune,
        }
    }
}

/// Where the search runs.
#[derive(Debug, Args)]
pub struct DeviceArgs {
    /// The device that searches [default: sim, or board when --port is given].
    #[arg(long, value_enum)]
    pub device: Option<DeviceKind>,
    /// Serial port of the board (e.g. /dev/ttyUSB1); found automatically
    /// when exactly one USB serial port exists.
    #[arg(long, short = 'p', env = "KNIGHTS_PORT", value_name = "PATH")]
    pub port: Option<String>,
    /// Baud rate of the board's UART (the bitstream's build setting).
    #[arg(long, short = 'b', default_value_t = 115_200, value_name = "B")]
    pub baud: u32,
    /// Seconds the board or simulator may stay silent before giving up
    /// (default: 5 for a board; 60 for the simulator, which runs a few million
    /// clocks a second and sends progress every 4 million, slower still on a
    /// loaded machine).
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
    /// Threads for counts on the CPU device (default: every core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
    /// How the board's or simulator's engines share a search: the tree level
    /// whose nodes are their jobs. 0 runs one engine, in the reference's
    /// order (so the first tours are the CPU's); default: the shallowest level
    /// with 640 jobs per engine, but not past one whose nodes above outnumber
    /// its jobs by half again (there replaying more jobs' paths costs more
    /// than finer jobs gain), and at most 16. A level at or past the board's
    /// last square has no jobs and runs as 0.
    #[arg(long, value_name = "LEVEL")]
    pub split_level: Option<u8>,
    /// Engines of the board or simulator to use (default: all).
    #[arg(long, value_name = "N")]
    pub engines: Option<u8>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DeviceKind {
    /// The accelerator's Verilog simulated by Verilator, over its UART.
    Sim,
    /// A flashed FPGA board on a serial port.
    Board,
    /// The CPU reference search on this machine.
    Cpu,
}

/// The format of a listing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ListFormat {
    /// A table with a header line.
    Text,
    /// A JSON list of objects, one per line of the table.
    Json,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
    Svg,
}

impl DeviceArgs {
    fn open(&self) -> Result<Box<dyn Device>> {
        let kind = match (self.device, &self.port) {
            (None, Some(_)) | (Some(DeviceKind::Board), _) => DeviceKind::Board,
            (Some(kind), Some(_)) => {
                return Err(UsageError(format!(
                    "--port names a board's serial port, but --device is {kind:?}: drop one of them"
                ))
                .into())
            }
            (kind, None) => kind.unwrap_or(DeviceKind::Sim),
        };
        if kind == DeviceKind::Cpu && (self.split_level.is_some() || self.engines.is_some()) {
            return Err(UsageError(
                "--split-level and --engines are for the sim and board devices; the CPU uses --threads".into(),
            )
            .into());
        }
        let seconds = self.timeout.unwrap_or(if kind == DeviceKind::Sim { 60.0 } else { 5.0 });
        if !(seconds > 0.0 && seconds.is_finite()) {
            return Err(UsageError("--timeout must be a positive number of seconds".into()).into());
        }
        let timeout = Duration::from_secs_f64(seconds);
        Ok(match kind {
            DeviceKind::Cpu => {
                let mut cpu = CpuDevice::all_cores();
                if let Some(threads) = self.threads {
                    cpu.threads = usize::from(threads);
                }
                Box::new(cpu)
            }
            DeviceKind::Sim => {
                let mut sim = LinkedDevice::connect("sim", SimTransport::new(), timeout)?;
                sim.set_split(self.split_level);
                sim.set_engines(self.engines).map_err(|e| UsageError(e.to_string()))?;
                Box::new(sim)
            }
            DeviceKind::Board => {
                let path = match &self.port {
                    Some(path) => path.clone(),
                    None => SerialTransport::detect()?,
                };
                let mut board = LinkedDevice::connect("board", SerialTransport::open(&path, self.baud)?, timeout)?;
                board.set_split(self.split_level);
                board.set_engines(self.engines).map_err(|e| UsageError(e.to_string()))?;
                Box::new(board)
            }
        })
    }
}

/// Runs a parsed command line, writing results to stdout.
pub fn execute(cli: Cli) -> Result<()> {
    let mut out = std::io::stdout().lock();
    match cli.command {
        Command::Solve { search, limit, device, format } => {
            let answer = search_on(&device, Query { spec: search.spec(), goal: Goal::First(limit) })?;
            match format {
                Format::Text => write!(out, "{}", render::text(&answer))?,
                Format::Json => writeln!(out, "{}", render::json(&answer))?,
                Format::Svg => match answer.tours.first() {
                    Some(tour) => {
                        write!(out, "{}", render::svg(answer.query.spec.board, tour, answer.query.spec.closed))?
                    }
                    None => anyhow::bail!("{}", render::summary(&answer)),
                },
            }
        }
        Command::Count { search, device, format } => {
            if format == Format::Svg {
                return Err(UsageError("count has no picture to draw: use --format text or json".into()).into());
            }
            let answer = search_on(&device, Query { spec: search.spec(), goal: Goal::CountAll })?;
            match format {
                Format::Json => writeln!(out, "{}", render::json(&answer))?,
                _ => writeln!(out, "{}", render::summary(&answer))?,
            }
        }
        Command::Bench { format, svg, json, builds } => run_bench(format, svg, json, builds, &mut out)?,
        Command::SimServe => serve(&mut out)?,
        Command::Boards { format } => {
            let listings: Vec<boards::Listing> = boards::all().iter().map(boards::Listing::new).collect();
            match format {
                ListFormat::Text => write!(out, "{}", boards::table(&listings))?,
                ListFormat::Json => writeln!(out, "{}", serde_json::to_string_pretty(&listings)?)?,
            }
        }
        Command::Constraints { out: dir } => {
            for board in boards::all() {
                let path = dir.join(board.constraints_file());
                std::fs::write(&path, board.constraints())
                    .with_context(|| format!("cannot write {}", path.display()))?;
                writeln!(out, "{}", path.display())?;
            }
        }
        Command::Flash { board, bitstream, dry_run } => flash(&board, bitstream, dry_run, &mut out)?,
        Command::Build { board, max_size, engines, clock_mhz, baud, no_warnsdorff, seed, map_delay_ps, out: dir } => {
            let board = boards::find(&board)?;
            let mut options = bitstream::BuildOptions::for_board(&board);
            if let Some(size) = max_size {
                (options.max_width, options.max_height) = (size.width, size.height);
            }
            options.engines = engines.unwrap_or(options.engines);
            if let Some(mhz) = clock_mhz {
                if !(mhz.is_finite() && mhz > 0.0) {
                    return Err(UsageError(format!("--clock-mhz {mhz}: give a clock in MHz, e.g. 25")).into());
                }
                options.clock_hz = (mhz * 1e6).round() as u64;
            }
            options.baud = baud.unwrap_or(options.baud);
            options.warnsdorff &= !no_warnsdorff;
            options.seed = seed.or(options.seed);
            options.map_delay_ps = map_delay_ps.or(options.map_delay_ps);
            options.out_dir = dir.unwrap_or(options.out_dir);
            let mut status = BuildStatus::on_stderr();
            let report = bitstream::build(&board, &options, &mut status)?;
            status.finish();
            write!(out, "{}", bitstream::summary(&report, &options.out_dir))?;
        }
        Command::Verilog { size, engines, clock, baud, no_warnsdorff, engine_only } => {
            let design = if engine_only {
                bitstream::Design::Engine
            } else {
                let features = Features { warnsdorff: !no_warnsdorff };
                bitstream::Design::Accelerator { engines, features, clock_hz: clock, baud }
            };
            write!(out, "{}", bitstream::design_verilog(size, design)?)?;
        }
        Command::BuildTable { dirs } => {
            let dirs = if dirs.is_empty() { build_dirs(std::path::Path::new(bitstream::BUILD_ROOT))? } else { dirs };
            write!(out, "{}", bitstream::markdown_table(&read_reports(&dirs)?))?;
        }
    }
    Ok(())
}

fn search_on(device_args: &DeviceArgs, query: Query) -> Result<Answer> {
    let mut device = device_args.open()?;
    let mut progress = Progress::on_stderr();
    let answer = query::run(device.as_mut(), query, &mut |nodes, tours| progress.update(nodes, tours))?;
    progress.finish();
    Ok(answer)
}

/// The build directories under `root` that hold a report, in board order.
fn build_dirs(root: &std::path::Path) -> Result<Vec<std::path::PathBuf>> {
    let dirs = existing_build_dirs(root);
    if dirs.is_empty() {
        anyhow::bail!("no builds under {}: run knights build --board NAME first", root.display());
    }
    Ok(dirs)
}

fn existing_build_dirs(root: &std::path::Path) -> Vec<std::path::PathBuf> {
    boards::all().iter().map(|b| root.join(&b.name)).filter(|d| d.join("build.json").is_file()).collect()
}

fn read_reports(dirs: &[std::path::PathBuf]) -> Result<Vec<bitstream::BuildReport>> {
    dirs.iter()
        .map(|dir| {
            let path = dir.join("build.json");
            let text = std::fs::read_to_string(&path)
                .with_context(|| format!("no build report at {}: run knights build first", path.display()))?;
            serde_json::from_str(&text).with_context(|| format!("{} is not a build report", path.display()))
        })
        .collect()
}

fn flash(name: &str, bitstream: Option<std::path::PathBuf>, dry_run: bool, out: &mut dyn Write) -> Result<()> {
    let board = boards::find(name)?;
    let bitstream =
        bitstream.unwrap_or_else(|| bitstream::BuildOptions::for_board(&board).out_dir.join(board.bitstream_file()));
    let command = board.flash_command(&bitstream.to_string_lossy());
    if dry_run {
        writeln!(out, "{}", command.join(" "))?;
        return Ok(());
    }
    if !bitstream.is_file() {
        anyhow::bail!(
            "no bitstream at {}: build one with `knights build --board {}` or name it with --bitstream",
            bitstream.display(),
            board.name
        );
    }
    let status = std::process::Command::new(&command[0]).args(&command[1..]).status().map_err(|e| {
        anyhow::anyhow!("cannot run {} ({e}): install it (scripts/setup.sh installs the flashers)", command[0])
    })?;
    if !status.success() {
        anyhow::bail!("{} failed ({status}): is the board connected and powered?", command.join(" "));
    }
    Ok(())
}

#[cfg(unix)]
fn serve(out: &mut dyn Write) -> Result<()> {
    crate::transport::serve_simulated_board(
        &mut |path| {
            let _ = writeln!(out, "{path}");
            let _ = out.flush();
            eprintln!("simulated board on {path}: run e.g. `knights solve --size 5 --port {path}`; Ctrl-C stops it");
        },
        &|| true,
    )
}

#[cfg(not(unix))]
fn serve(_out: &mut dyn Write) -> Result<()> {
    anyhow::bail!("sim-serve needs pseudo-terminals, which this system does not have")
}

fn run_bench(
    format: Format,
    svg: Option<std::path::PathBuf>,
    json: Option<std::path::PathBuf>,
    builds: Vec<std::path::PathBuf>,
    out: &mut dyn Write,
) -> Result<()> {
    if format == Format::Svg {
        return Err(UsageError("bench writes text or json; --svg FILE draws the chart".into()).into());
    }
    let dirs =
        if builds.is_empty() { existing_build_dirs(std::path::Path::new(bitstream::BUILD_ROOT)) } else { builds };
    let reports = read_reports(&dirs)?;
    if reports.is_empty() {
        eprintln!(
            "no build reports under {}/: no board times (scripts/bitstreams.sh builds them)",
            bitstream::BUILD_ROOT
        );
    }
    let mut sim = LinkedDevice::connect("sim", SimTransport::new(), Duration::from_secs(60))?;
    let cases = bench::standard_cases(sim.max_board());
    let results = bench::run(&mut sim, &cases, &reports, &mut |line| eprintln!("bench: {line}"))?;
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

/// `--order`'s values (the model crate has no clap in it).
fn move_order_parser() -> impl clap::builder::TypedValueParser<Value = MoveOrder> {
    use clap::builder::TypedValueParser as _;
    clap::builder::PossibleValuesParser::new(["fixed", "warnsdorff"])
        .map(|name| name.parse().expect("a listed move order parses"))
}
