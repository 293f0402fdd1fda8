//! The command line's definitions: subcommands and their arguments.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use knights::plan::Part;
use knights_model::board::{BoardSize, Square};
use knights_model::tours::{MoveOrder, SearchSpec};

/// Knight's tours on an FPGA backtracking engine, or on the CPU reference model.
#[derive(Debug, Parser)]
#[command(name = "knights", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

// A build without a feature parses its commands (to say what they need)
// but never reads their arguments.
#[cfg_attr(not(all(feature = "sim", feature = "fpga")), allow(dead_code))]
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
    /// Count every tour from the start square (or from every square).
    Count {
        #[command(flatten)]
        search: SearchArgs,
        #[command(flatten)]
        device: DeviceArgs,
        #[command(flatten)]
        progress: ProgressArgs,
        /// Keep the count's jobs and each one's result in this file as it
        /// finishes: the same command again goes on from there after
        /// Ctrl-C, a crash or a lost board (the count is cut into paths
        /// from the start, or a job per class of start squares).
        #[arg(long, value_name = "FILE")]
        journal: Option<PathBuf>,
        /// Output format (text or json).
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// N-Queens: the first solution (or the first K with --limit), or the
    /// count of all with --count, placing a queen per rank from rank 1, files
    /// a to z.
    Queens {
        /// Queens on an N×N board.
        #[arg(long, short = 'n', value_name = "N")]
        n: u8,
        /// How many solutions to find before stopping.
        #[arg(long, value_name = "K", conflicts_with = "count")]
        limit: Option<u64>,
        /// Count every solution instead of listing them.
        #[arg(long)]
        count: bool,
        /// Search the whole tree in a count (by default the first queen
        /// stays in the left half and each solution counts twice, the
        /// middle file of an odd board once).
        #[arg(long)]
        no_symmetry: bool,
        /// Count from constellations: the queens of the board's four edges
        /// placed first, one search per class under the board's eight
        /// symmetries, weighted (about three times fewer nodes than the
        /// mirror at N = 17). N >= 4, on the CPU or builds with the
        /// generator (`knights boards` lists them); several devices share
        /// it, and a journal keeps it, a job per file of the canonical
        /// images' first queen.
        #[arg(long, requires = "count", conflicts_with = "no_symmetry")]
        constellations: bool,
        /// With --count: count the unique solutions too, the classes under
        /// the board's eight symmetries (OEIS A002562). The device lists every
        /// solution of the mirror's side (the whole board with
        /// --no-symmetry) and the host counts the least of each class;
        /// several devices share it, and a journal keeps it, a file of the
        /// first queen a job.
        #[arg(long, requires = "count", conflicts_with = "constellations")]
        unique: bool,
        #[command(flatten)]
        device: DeviceArgs,
        #[command(flatten)]
        progress: ProgressArgs,
        /// With --count: keep the count's jobs (a file of the first queen
        /// each) and each one's result in this file as it finishes: the
        /// same command again goes on from there after Ctrl-C, a crash or a
        /// lost board.
        #[arg(long, value_name = "FILE", requires = "count")]
        journal: Option<PathBuf>,
        /// Output format; svg draws the first solution.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Write a count's plan: its jobs in a manifest, for `run-jobs` to run in
    /// parts on many machines (a Slurm array: scripts/slurm/) and `merge`
    /// to sum. Tours from every start square are a job per class of start
    /// squares; N-Queens a job per file of the first queen; one start's
    /// tours one job, or with --min-jobs paths for the CPU device.
    Plan(PlanArgs),
    /// Run one part of a plan's jobs on any device (several devices share
    /// them) and write the part's result file.
    RunJobs {
        /// The plan (`knights plan` wrote it).
        #[arg(long, value_name = "FILE")]
        manifest: PathBuf,
        /// The share to run: I/N runs every N-th job from the I-th on (I
        /// from 0 to N - 1, as Slurm numbers array tasks).
        #[arg(long, value_name = "I/N")]
        part: Part,
        /// The result file to write.
        #[arg(long, short = 'o', value_name = "FILE")]
        out: PathBuf,
        #[command(flatten)]
        device: DeviceArgs,
        #[command(flatten)]
        progress: ProgressArgs,
    },
    /// Merge the parts' result files into the count, checking that every job
    /// of the plan is there exactly once (and naming what is missing or
    /// doubled).
    Merge {
        /// The plan the results are of.
        #[arg(long, value_name = "FILE")]
        manifest: PathBuf,
        /// The parts' result files (none: merge says what is missing).
        #[arg(value_name = "RESULTS")]
        results: Vec<PathBuf>,
        /// Output format (text or json).
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Estimate a count too big to run here: random probes down the search
    /// tree (Knuth's estimator), each ending in a whole job counted on one
    /// CPU core, give the tours, the nodes and one core's time, with their
    /// standard errors.
    Estimate {
        #[command(flatten)]
        search: SearchArgs,
        /// The jobs' level: moves from the start to a job.
        #[arg(long, value_name = "MOVES")]
        depth: usize,
        /// Probes (with --start all, for each class of start squares).
        #[arg(long, default_value_t = 100, value_name = "N")]
        probes: usize,
        /// Seed of the probes' random choices.
        #[arg(long, default_value_t = 1, value_name = "S")]
        seed: u64,
        /// Count each probe's job on the simulated board too (checked
        /// against the CPU's count): its engines' seconds model the board's
        /// time for the whole count.
        #[arg(long)]
        on_sim: bool,
        /// Output format (text or json).
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Run the simulated board behind a pseudo-terminal, so that
    /// `knights ... --port PATH` reaches it through the serial-port code.
    SimServe {
        /// Serve this board's build (as `--device sim --board NAME`).
        #[arg(long, value_name = "NAME")]
        board: Option<String>,
    },
    /// Fuzz the RTL's link on a small simulated build: random and damaged
    /// byte streams (noise, cut and corrupted frames, bad stop bits), each
    /// followed by a good command that must get its right answer.
    FuzzLink {
        /// Damaged streams to send.
        #[arg(long, default_value_t = 10_000, value_name = "N")]
        streams: usize,
        /// Seed of the streams (a failing stream replays from it).
        #[arg(long, default_value_t = 1, value_name = "S")]
        seed: u64,
    },
    /// Check a built board without the board: what the FPGA will run (an
    /// iCE40 bitstream turned back into a netlist, or an ECP5 build's placed
    /// and routed netlist) under Verilator with models of the part's cells,
    /// at the build's clock and baud rate, through the same link code as a
    /// flashed board: its pins against the board file, IDENTIFY, a count
    /// node for node with the reference, a first-K stream, a bad CRC, ABORT.
    /// Exits non-zero on any difference.
    CheckBuild {
        /// The build (as `knights build --board NAME` made it).
        #[arg(long, value_name = "NAME")]
        board: String,
        /// The build's directory [default: build/NAME].
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
        /// Write a waveform of every signal of the netlist's run (FST, for
        /// GTKWave or Surfer); its traced model is made on first use.
        #[arg(long, value_name = "FILE.fst")]
        trace: Option<PathBuf>,
    },
    /// Measure a build's speed: its design simulated (Verilator) on a count
    /// sized for it, node for node with the CPU reference, its clocks
    /// written into the build's report (`knights build` does this after
    /// place and route; this measures an older build, or again).
    Measure {
        /// The build's directory, with its build.json.
        #[arg(long, value_name = "DIR")]
        dir: PathBuf,
    },
    /// The first contact with a flashed board (or a simulated one): it
    /// answers IDENTIFY, counts a small search as the CPU does node for
    /// node, and streams the first solutions in the CPU's order; each step's
    /// real time beside its modeled one.
    Selftest {
        #[command(flatten)]
        device: DeviceArgs,
        /// The board's build solves N-Queens (with --device sim: the
        /// simulated N-Queens build).
        #[arg(long)]
        queens: bool,
    },
    /// Check this machine: the tools (present, version), access to the
    /// boards' USB devices (udev rules, the dialout group), the model cache
    /// and the ports; each problem with its fix. Exit 0 when simulating,
    /// building and flashing can work (no board attached is a note).
    Doctor {
        /// Output format.
        #[arg(long, value_enum, default_value_t = ListFormat::Text)]
        format: ListFormat,
    },
    /// List the USB serial ports: each one's USB identity and which board's
    /// UART it likely is (by the boards' bridges), the port `--device
    /// board` takes without --port; with --probe, what each board's UART
    /// answers to IDENTIFY.
    Ports {
        /// Ask each known board's UART for its build (IDENTIFY); add
        /// --probe-unknown to ask ports of no known board too.
        #[arg(long)]
        probe: bool,
        #[arg(long, requires = "probe")]
        probe_unknown: bool,
        /// Baud rate to probe at [default: each port's board's builds'
        /// rates, then the others its bridge makes].
        #[arg(long, short = 'b', value_name = "B")]
        baud: Option<u32>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = ListFormat::Text)]
        format: ListFormat,
    },
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
        out: PathBuf,
    },
    /// Build a board's bitstream: emit the Verilog, run yosys, nextpnr and
    /// the packer, and report utilisation and Fmax against the clock.
    Build(BuildArgs),
    /// Write the accelerator's Verilog (top module `top`: UART pins, LEDs and
    /// the engines), or one bare engine's, to stdout.
    Verilog(VerilogArgs),
    /// Print the README's table of builds from their build.json reports.
    BuildTable {
        /// Build directories (each with a build.json) [default: every one under build/].
        dirs: Vec<PathBuf>,
    },
    /// Load a bitstream onto a board with its flasher (iceprog,
    /// openFPGALoader, dfu-util): into its configuration flash (kept at
    /// power-off), or with --sram its FPGA's SRAM; the flasher's phases and
    /// progress as it runs.
    Flash {
        /// The board (knights boards lists them).
        #[arg(long, value_name = "NAME")]
        board: String,
        /// The bitstream [default: build/NAME/NAME.bin or .bit].
        #[arg(long, value_name = "FILE")]
        bitstream: Option<PathBuf>,
        /// Load the FPGA's SRAM instead (runs at once, lost at power-off;
        /// where the board's flasher can).
        #[arg(long)]
        sram: bool,
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
        svg: Option<PathBuf>,
        /// Also write the results as JSON to this file (so one run gives
        /// the text, the JSON and the chart).
        #[arg(long, value_name = "FILE")]
        json: Option<PathBuf>,
        /// Build directories (each with a build.json) whose boards to model
        /// [default: every one under build/; none is fine].
        builds: Vec<PathBuf>,
        /// Bench N-Queens instead: counts of N = 12 up to --max-n on the CPU
        /// (one core, every core), the simulated queens build, and each
        /// built N-Queens board modeled.
        #[arg(long)]
        queens: bool,
        /// The largest N of the N-Queens bench.
        #[arg(long, default_value_t = 15, value_name = "N", requires = "queens")]
        max_n: u8,
    },
}

/// `knights build`'s arguments.
#[cfg_attr(not(feature = "fpga"), allow(dead_code))]
#[derive(Debug, Args)]
pub struct BuildArgs {
    /// The board (knights boards lists them).
    #[arg(long, value_name = "NAME")]
    pub board: String,
    /// Largest board the bitstream searches, N or WxH [default: the board's].
    #[arg(long, value_name = "WxH")]
    pub max_size: Option<BoardSize>,
    /// Engines in the bitstream [default: the board's].
    #[arg(long, value_name = "N")]
    pub engines: Option<u16>,
    /// Design clock in MHz; a PLL makes it when it differs from the
    /// board's oscillator [default: the board's build clock].
    #[arg(long, value_name = "MHZ")]
    pub clock_mhz: Option<f64>,
    /// UART bit rate, up to the board's USB bridge's and within 1% of what
    /// the clock divides [default: the board's; with --clock-mhz, the
    /// fastest rate that clock takes].
    #[arg(long, value_name = "BAUD")]
    pub baud: Option<u32>,
    /// Leave Warnsdorff's move order out of the engines (about an eighth
    /// of an engine's logic), to fit more engines; the device then
    /// refuses Warnsdorff searches. Some boards' builds leave it out
    /// already (`knights boards` lists them).
    #[arg(long)]
    pub no_warnsdorff: bool,
    /// N-Queens builds: build in the generator of constellation jobs (or
    /// leave it out), whatever the board file says.
    #[arg(long, value_name = "BOOL")]
    pub constellations: Option<bool>,
    /// nextpnr's placement seed [default: the board's, else nextpnr's].
    /// A full part's Fmax varies by a few MHz with it.
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// The delay target in ps that yosys's ABC9 maps a several-engine
    /// build for [default: the board's, else half the clock period]:
    /// lower is a shallower, faster and larger engine.
    #[arg(long, value_name = "PS")]
    pub map_delay_ps: Option<u64>,
    /// Output directory [default: build/NAME].
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Skip measuring the build's speed in simulation (`knights measure
    /// --dir DIR` does it later); its report then has none.
    #[arg(long)]
    pub no_measure: bool,
    /// Run yosys and nextpnr even when the output directory holds this very
    /// build (the same Verilog, constraints, options and tool versions, and
    /// the bitstream it made): by default that build is taken as it is.
    #[arg(long, alias = "force")]
    pub rebuild: bool,
}

/// `knights plan`'s arguments.
#[derive(Debug, Args)]
pub struct PlanArgs {
    /// A knight's-tour count on this board: N for N×N, or WxH.
    #[arg(long, value_name = "N|WxH", required_unless_present = "queens", conflicts_with = "queens")]
    pub size: Option<BoardSize>,
    #[command(flatten)]
    pub tours: TourArgs,
    /// Cut one start's count into at least this many paths from the start
    /// (a board's engines share each path's tree below it).
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub min_jobs: usize,
    /// An N-Queens count instead.
    #[arg(long, value_name = "N")]
    pub queens: Option<u8>,
    /// With --queens: search the whole tree, not one side of the mirror.
    #[arg(long, requires = "queens")]
    pub no_symmetry: bool,
    /// The manifest to write.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub out: PathBuf,
}

/// `knights verilog`'s arguments.
#[cfg_attr(not(feature = "fpga"), allow(dead_code))]
#[derive(Debug, Args)]
pub struct VerilogArgs {
    /// Largest board the design searches: N for N×N, or WxH; one the RTL
    /// has an engine of the kind for (wide: 6x6, 8x8, 12x12, ...; compact:
    /// 5x5 to 40x40; queens: N×N).
    #[arg(long, value_name = "N|WxH")]
    pub size: BoardSize,
    /// The engine kind: wide, compact, queens or interleaved.
    #[arg(long, default_value = "wide", value_name = "KIND", value_parser = ["wide", "compact", "queens", "interleaved"])]
    pub engine: String,
    /// Engines in the accelerator.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub engines: u16,
    /// The design's clock in Hz.
    #[arg(long, default_value_t = 12_000_000, value_name = "HZ")]
    pub clock: u64,
    /// UART bit rate: at most a quarter of the clock.
    #[arg(long, default_value_t = 115_200, value_name = "B")]
    pub baud: u64,
    /// Leave Warnsdorff's move order out of the engines.
    #[arg(long)]
    pub no_warnsdorff: bool,
    /// N-Queens: build in the generator of constellation jobs.
    #[arg(long)]
    pub constellations: bool,
    /// Interleaved engines: keep each search's visited squares in block RAM
    /// between its passes (smaller on the iCE40).
    #[arg(long)]
    pub visited_in_block_ram: bool,
    /// Only one bare engine (wide or interleaved), without the link (to
    /// measure an engine's resources and clock, as
    /// scripts/engine-resources.sh and scripts/engine-timing.sh do).
    #[arg(long, conflicts_with_all = ["engines", "clock", "baud", "no_warnsdorff", "constellations", "visited_in_block_ram"])]
    pub engine_only: bool,
}

/// What to search for.
#[derive(Debug, Args)]
pub struct SearchArgs {
    /// Board size: N for N×N, or WxH for W files by H ranks (e.g. 6x5).
    #[arg(long, value_name = "N|WxH")]
    pub size: BoardSize,
    #[command(flatten)]
    pub tours: TourArgs,
}

/// Which tours, on whatever board: start, kind, move order, pruning.
#[derive(Debug, Args)]
pub struct TourArgs {
    /// Start square in algebraic notation (a1 is the bottom-left corner);
    /// `all` (count only) counts from every square, searching one square of
    /// each class the board's symmetries make equivalent.
    #[arg(long, default_value = "a1", value_name = "SQUARE|all")]
    pub start: Start,
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

/// Where the tours start: one square, or every square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    Square(Square),
    All,
}

impl std::str::FromStr for Start {
    type Err = anyhow::Error;

    fn from_str(text: &str) -> anyhow::Result<Self> {
        if text.eq_ignore_ascii_case("all") {
            Ok(Start::All)
        } else {
            text.parse().map(Start::Square)
        }
    }
}

impl SearchArgs {
    /// The search; with `--start all`, from a1 (the caller counts from
    /// every square).
    pub fn spec(&self) -> SearchSpec {
        self.tours.spec(self.size)
    }

    /// Where the tours start.
    pub fn start(&self) -> Start {
        self.tours.start
    }
}

impl TourArgs {
    /// The search on `board`; with `--start all`, from a1.
    pub fn spec(&self, board: BoardSize) -> SearchSpec {
        SearchSpec {
            board,
            start: match self.start {
                Start::Square(square) => square,
                Start::All => Square::new(0, 0),
            },
            closed: self.closed,
            order: self.order,
            prune: !self.no_prune,
        }
    }
}

/// Where the search runs.
#[derive(Clone, Debug, Args)]
pub struct DeviceArgs {
    /// The device that searches [default: sim, or board when --port is given].
    #[arg(long, value_enum)]
    pub device: Option<DeviceKind>,
    /// Serial port of the board (e.g. /dev/ttyUSB1); found automatically
    /// as the one board's UART by its USB identity, else the one port of no
    /// known board (`knights ports` lists them). Given several times, the
    /// boards share a count's jobs (`count --start all`, `queens --count`).
    #[arg(long, short = 'p', env = "KNIGHTS_PORT", value_name = "PATH")]
    pub port: Vec<String>,
    /// With the board device: every known board's UART (by its USB
    /// identity; `knights ports` lists them) shares the count's jobs.
    #[arg(long, conflicts_with = "port")]
    pub all_ports: bool,
    /// With the sim device: this many simulated boards share the count's
    /// jobs, each its own model on its own thread.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=64))]
    pub boards: u8,
    /// Baud rate of the board's UART (its build's setting, `knights boards`
    /// lists them) [default: found: the rates of the port's board's builds
    /// tried first, then the others its bridge makes]. With the sim device:
    /// the rate its link's time is modeled at [default: the build's].
    #[arg(long, short = 'b', value_name = "B")]
    pub baud: Option<u32>,
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
    /// With the sim device: simulate this board's build (its engine kind,
    /// engines, largest board and clock; `knights boards` lists them)
    /// instead of the default simulated board. Its model is made on first
    /// use (a minute or more) and cached.
    #[arg(long, value_name = "NAME")]
    pub board: Option<String>,
    /// With the sim device: write a waveform of every signal (FST, for
    /// GTKWave or Surfer) of the run to this file. The traced model is made
    /// on first use and cached; it runs slower, so keep the search small.
    #[arg(long, value_name = "FILE.fst")]
    pub trace: Option<std::path::PathBuf>,
}

/// How a long search shows its progress.
#[derive(Debug, Args)]
pub struct ProgressArgs {
    /// `bar`: a line on stderr when it is a terminal (jobs done, nodes/s,
    /// ETA); `json`: a JSON object per line on stderr about every second,
    /// for schedulers and scripts; `none`.
    #[arg(long, value_enum, default_value_t = ProgressKind::Bar, value_name = "KIND")]
    pub progress: ProgressKind,
    /// Stop the search after this many seconds and report what was searched
    /// by then (status "aborted"): a long count's rate, cycles per node and
    /// load balance, sampled.
    #[arg(long, value_name = "SECONDS")]
    pub stop_after: Option<f64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ProgressKind {
    Bar,
    Json,
    None,
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

/// `--order`'s values (the model crate has no clap in it).
fn move_order_parser() -> impl clap::builder::TypedValueParser<Value = MoveOrder> {
    use clap::builder::TypedValueParser as _;
    clap::builder::PossibleValuesParser::new(["fixed", "warnsdorff"])
        .map(|name| name.parse().expect("a listed move order parses"))
}
