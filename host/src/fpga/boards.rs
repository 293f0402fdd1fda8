//! FPGA boards as data: one file per board in `boards/` (compiled in). A file
//! gives the board's pins, clock and flasher; its parts (`[[part]]`: one for
//! each FPGA the board is made with); and their builds (`[[build]]`: what a
//! bitstream holds, named for `--board NAME`; a part may have several). Pin
//! constraint files (`constraints/`) are generated from it, one per build.

use std::fmt::Write as _;

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};

use knights_model::board::BoardSize;
use knights_model::tours::MoveOrder;

use super::{Design, EngineKind, Features};
use crate::device::error::UsageError;
use crate::link::rates;

/// The board files, as compiled into the binary.
const BOARD_FILES: [(&str, &str); 4] = [
    ("icebreaker.toml", include_str!("../../../boards/icebreaker.toml")),
    ("alchitry-cu.toml", include_str!("../../../boards/alchitry-cu.toml")),
    ("ulx3s.toml", include_str!("../../../boards/ulx3s.toml")),
    ("orangecrab.toml", include_str!("../../../boards/orangecrab.toml")),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Family {
    Ice40,
    Ecp5,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Clock {
    pub pin: String,
    pub hz: u64,
    /// The pin is an iCE40 PLL's own pad (the iCEBreaker's 35): a PLL made
    /// from it must take it there (`SB_PLL40_PAD`), since its pad's input
    /// buffer cannot also feed the fabric a CORE PLL would take it from.
    #[serde(default)]
    pub pll_pad: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Uart {
    /// FPGA input (from the host's bridge).
    pub rx: String,
    /// FPGA output.
    pub tx: String,
    /// The fastest rate the board's USB-UART bridge (or the adapter it
    /// needs) makes: the bound on its builds' baud rates.
    pub max_baud: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pin {
    pub pin: String,
    pub active_low: bool,
    /// I/O standard when not the board's default (ECP5 `IO_TYPE`).
    pub io_type: Option<String>,
}

/// A board file's build: what its bitstream holds, and how the tools make
/// it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Build {
    pub design: Design,
    /// nextpnr's placement seed, when the default seed's placement misses
    /// the clock (placement of a full part varies by a few MHz with it).
    pub seed: Option<u64>,
    /// The delay target (ps) yosys's ABC9 maps a several-engine build for
    /// (default: half the clock period). A tighter target buys a shallower
    /// step, and a faster clock, with more LUTs.
    pub map_delay_ps: Option<u64>,
}

/// A feature's default, in board files and build reports: built in.
fn built_in() -> bool {
    true
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Flash {
    pub program: String,
    /// Its arguments writing the configuration flash; `{bitstream}` stands
    /// for the bitstream's path.
    pub args: Vec<String>,
    /// Its arguments loading the FPGA's SRAM, where it can.
    pub sram_args: Option<Vec<String>>,
    /// USB `vendor:product` (hex) of a DFU bootloader: the bitstream then
    /// gets the DFU file suffix `dfu-util` checks.
    pub dfu: Option<String>,
}

/// A board's USB-UART bridge, as the operating system reports it (`[usb]`
/// in its board file; `knights ports` and `--device board` without
/// `--port` find the board's UART by it).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct UsbBridge {
    /// The board, as the port listing names it.
    pub name: String,
    pub vendor_id: u16,
    pub product_id: u16,
    /// The USB interface that is the FPGA's UART.
    pub uart_interface: u8,
    /// What the bridge's other interfaces are, if it has any.
    pub other_interfaces: Option<String>,
    /// Beginnings of the product strings the board's bridge reports (any,
    /// when empty).
    pub products: Vec<String>,
    /// Where the identity comes from.
    pub sources: Vec<String>,
}

/// One FPGA on a board, as a board file's `[[part]]` names it, with the
/// pins, clock and flasher the file gives every part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    pub name: String,
    pub title: String,
    pub family: Family,
    /// nextpnr's device flag without dashes (`up5k`, `hx8k`, `85k`, ...).
    pub device: String,
    pub package: String,
    /// Where the pins come from.
    pub sources: Vec<String>,
    pub clock: Clock,
    pub uart: Uart,
    pub led_busy: Pin,
    pub led_found: Pin,
    pub button: Pin,
    pub flash: Flash,
    /// The board's USB-UART bridge; none when the UART needs an adapter.
    pub usb: Option<UsbBridge>,
}

/// What `--board NAME` chooses: a named build (a board file's `[[build]]`)
/// and the part it is for. A part may have several builds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// As given to `--board`.
    pub name: String,
    /// The build's title: its part's, unless the build has its own.
    pub title: String,
    pub part: Part,
    pub build: Build,
}

/// A board file: what its parts share, the parts, and their builds.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BoardFile {
    family: Family,
    package: String,
    sources: Vec<String>,
    clock: Clock,
    uart: Uart,
    led_busy: Pin,
    led_found: Pin,
    button: Pin,
    flash: Flash,
    usb: Option<UsbBridge>,
    part: Vec<PartEntry>,
    build: Vec<BuildEntry>,
}

/// A `[[part]]`: one of the FPGAs the board is made with.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PartEntry {
    name: String,
    title: String,
    device: String,
}

/// A `[[build]]`: its name, its part, and the [`Build`] fields.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BuildEntry {
    name: String,
    /// The `[[part]]` it is for, by name.
    part: String,
    title: Option<String>,
    engine: EngineKind,
    max_width: u16,
    max_height: u16,
    engines: u16,
    clock_hz: u64,
    baud: u32,
    #[serde(default = "built_in")]
    warnsdorff: bool,
    #[serde(default)]
    constellations: bool,
    #[serde(default)]
    visited_in_block_ram: bool,
    seed: Option<u64>,
    map_delay_ps: Option<u64>,
}

/// Every build of every board, in file order.
pub fn all() -> Vec<Board> {
    BOARD_FILES
        .iter()
        .flat_map(|(file, text)| {
            parse(text)
                .with_context(|| format!("boards/{file}"))
                .expect("the compiled-in board files parse (a test checks)")
        })
        .collect()
}

/// A board file's builds, each with its part.
fn parse(text: &str) -> Result<Vec<Board>> {
    let file: BoardFile = toml::from_str(text)?;
    let part_names = || file.part.iter().map(|p| p.name.as_str()).collect::<Vec<_>>().join(", ");
    let boards = file
        .build
        .iter()
        .map(|entry| {
            let Some(part) = file.part.iter().find(|p| p.name == entry.part) else {
                bail!(
                    "build {:?}: no part called {:?} in this file (its parts: {})",
                    entry.name,
                    entry.part,
                    part_names()
                );
            };
            let part = Part {
                name: part.name.clone(),
                title: part.title.clone(),
                family: file.family,
                device: part.device.clone(),
                package: file.package.clone(),
                sources: file.sources.clone(),
                clock: file.clock.clone(),
                uart: file.uart.clone(),
                led_busy: file.led_busy.clone(),
                led_found: file.led_found.clone(),
                button: file.button.clone(),
                flash: file.flash.clone(),
                usb: file.usb.clone(),
            };
            if let Some(why) = rates::unfit(entry.clock_hz, u64::from(entry.baud), part.uart.max_baud) {
                bail!("build {:?}: {why}", entry.name);
            }
            if entry.engine == EngineKind::Compact && !entry.warnsdorff {
                bail!("build {:?}: compact engines always have Warnsdorff's order (leave out warnsdorff)", entry.name);
            }
            if entry.constellations && entry.engine != EngineKind::Queens {
                bail!(
                    "build {:?}: only N-Queens builds count from constellations (leave out constellations)",
                    entry.name
                );
            }
            if entry.visited_in_block_ram && entry.engine != EngineKind::Interleaved {
                bail!(
                    "build {:?}: only interleaved engines keep visited squares in block RAM (leave out \
                     visited_in_block_ram)",
                    entry.name
                );
            }
            Ok(Board {
                name: entry.name.clone(),
                title: entry.title.clone().unwrap_or_else(|| part.title.clone()),
                part,
                build: Build {
                    design: Design {
                        kind: entry.engine,
                        max_width: entry.max_width,
                        max_height: entry.max_height,
                        engines: entry.engines,
                        features: Features { warnsdorff: entry.warnsdorff, constellations: entry.constellations },
                        clock_hz: entry.clock_hz,
                        baud: u64::from(entry.baud),
                        visited_in_block_ram: entry.visited_in_block_ram,
                    },
                    seed: entry.seed,
                    map_delay_ps: entry.map_delay_ps,
                },
            })
        })
        .collect::<Result<Vec<Board>>>()?;
    if let Some(idle) = file.part.iter().find(|p| !file.build.iter().any(|b| b.part == p.name)) {
        bail!("part {:?} has no build: add a [[build]] with part = {:?}", idle.name, idle.name);
    }
    Ok(boards)
}

/// The board called `name`, or a usage error listing the boards.
pub fn find(name: &str) -> Result<Board, UsageError> {
    let boards = all();
    let names: Vec<String> = boards.iter().map(|b| b.name.clone()).collect();
    boards.into_iter().find(|b| b.name == name).ok_or_else(|| {
        UsageError(format!("no board called {name:?}: choose one of {} (knights boards lists them)", names.join(", ")))
    })
}

/// The knight's-tour builds whose largest board takes `board`, each with
/// that largest board (`icebreaker (8x8)`).
pub fn builds_taking(board: BoardSize) -> Vec<String> {
    all()
        .into_iter()
        .map(|b| (b.name, b.build.design))
        .filter(|(_, design)| design.kind != EngineKind::Queens)
        .filter(|(_, design)| board.width <= design.max_width && board.height <= design.max_height)
        .map(|(name, design)| format!("{name} ({}x{})", design.max_width, design.max_height))
        .collect()
}

/// A line of `knights boards`: a build, its part and what its bitstream holds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Listing {
    pub board: String,
    pub part: String,
    pub title: String,
    pub family: Family,
    pub device: String,
    pub package: String,
    pub engine: EngineKind,
    pub max_width: u16,
    pub max_height: u16,
    pub engines: u16,
    pub clock_hz: u64,
    pub baud: u64,
    /// How far the build's divisor puts its rate off `baud`, in percent.
    pub baud_error_percent: f64,
    /// The fastest rate the board's bridge makes.
    pub max_baud: u64,
    /// The move orders the engines take.
    pub orders: Vec<MoveOrder>,
}

impl Listing {
    pub fn new(board: &Board) -> Self {
        // (An N-Queens build has no move orders: files are tried a to z.)
        let design = board.build.design;
        let orders = match (design.kind, design.features.warnsdorff) {
            (EngineKind::Queens, _) => vec![],
            (EngineKind::Wide | EngineKind::Interleaved, true) | (EngineKind::Compact, _) => {
                vec![MoveOrder::Fixed, MoveOrder::Warnsdorff]
            }
            (EngineKind::Wide | EngineKind::Interleaved, false) => vec![MoveOrder::Fixed],
        };
        Listing {
            board: board.name.clone(),
            part: board.part.name.clone(),
            title: board.title.clone(),
            family: board.part.family,
            device: board.part.device.clone(),
            package: board.part.package.clone(),
            engine: design.kind,
            max_width: design.max_width,
            max_height: design.max_height,
            engines: design.engines,
            clock_hz: design.clock_hz,
            baud: design.baud,
            baud_error_percent: rates::divisor_error(design.clock_hz, design.baud) * 100.0,
            max_baud: board.part.uart.max_baud,
            orders,
        }
    }
}

/// The listings as a table with a header line, each column as wide as its
/// widest cell (text left-aligned, numbers right-aligned).
pub fn table(listings: &[Listing]) -> String {
    const HEADER: [&str; 10] =
        ["board", "part", "title", "fpga", "max board", "engine", "engines", "clock", "baud", "orders"];
    const RIGHT_ALIGNED: [bool; 10] = [false, false, false, false, true, false, true, true, true, false];
    let rows: Vec<[String; 10]> = listings
        .iter()
        .map(|l| {
            let orders: Vec<String> = l.orders.iter().map(|o| o.to_string()).collect();
            [
                l.board.clone(),
                l.part.clone(),
                l.title.clone(),
                format!("{:?} {}-{}", l.family, l.device, l.package).to_lowercase(),
                format!("{}x{}", l.max_width, l.max_height),
                l.engine.to_string(),
                l.engines.to_string(),
                format!("{} MHz", l.clock_hz as f64 / 1e6),
                format!("{} ({:+.2}%)", l.baud, l.baud_error_percent),
                if orders.is_empty() { "-".into() } else { orders.join(", ") },
            ]
        })
        .collect();
    let widths: [usize; 10] =
        std::array::from_fn(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0).max(HEADER[c].len()));
    let mut out = String::new();
    for cells in std::iter::once(HEADER.map(String::from)).chain(rows) {
        let padded: Vec<String> = cells
            .iter()
            .zip(widths.iter().zip(RIGHT_ALIGNED))
            .map(|(cell, (&width, right))| if right { format!("{cell:>width$}") } else { format!("{cell:<width$}") })
            .collect();
        writeln!(out, "{}", padded.join("  ").trim_end()).unwrap();
    }
    out
}

/// Top-level port names of a board build, as the constraint files use them.
pub mod port {
    pub const CLOCK: &str = "clock_pin";
    pub const UART_RX: &str = "uart_rx_pin";
    pub const UART_TX: &str = "uart_tx_pin";
    pub const LED_BUSY: &str = "led_busy_pin";
    pub const LED_FOUND: &str = "led_found_pin";
    pub const BUTTON: &str = "button_pin";
}

impl Part {
    fn pins(&self) -> [(&'static str, &Pin); 3] {
        [(port::LED_BUSY, &self.led_busy), (port::LED_FOUND, &self.led_found), (port::BUTTON, &self.button)]
    }
}

impl Board {
    /// The constraint file's name in `constraints/`.
    pub fn constraints_file(&self) -> String {
        match self.part.family {
            Family::Ice40 => format!("{}.pcf", self.name),
            Family::Ecp5 => format!("{}.lpf", self.name),
        }
    }

    /// The pin constraints (PCF for iCE40, LPF for ECP5).
    pub fn constraints(&self) -> String {
        let part = &self.part;
        let mut out = format!(
            "# {}: generated from boards/ by `knights constraints`; do not edit.\n# Pins: {}\n",
            self.title,
            part.sources.join(" , ")
        );
        let signals = [(port::CLOCK, &part.clock.pin), (port::UART_RX, &part.uart.rx), (port::UART_TX, &part.uart.tx)];
        match part.family {
            Family::Ice40 => {
                for (port, pin) in signals.into_iter().chain(part.pins().map(|(port, p)| (port, &p.pin))) {
                    writeln!(out, "set_io {port} {pin}").unwrap();
                }
                writeln!(out, "set_frequency {} {}", port::CLOCK, part.clock.hz as f64 / 1e6).unwrap();
            }
            Family::Ecp5 => {
                let default = "LVCMOS33".to_string();
                let all = signals
                    .into_iter()
                    .map(|(port, pin)| (port, pin, &default))
                    .chain(part.pins().map(|(port, p)| (port, &p.pin, p.io_type.as_ref().unwrap_or(&default))));
                for (port, pin, io_type) in all {
                    writeln!(out, "LOCATE COMP \"{port}\" SITE \"{pin}\";").unwrap();
                    writeln!(out, "IOBUF PORT \"{port}\" IO_TYPE={io_type};").unwrap();
                }
                writeln!(out, "FREQUENCY PORT \"{}\" {} MHz;", port::CLOCK, part.clock.hz as f64 / 1e6).unwrap();
            }
        }
        out
    }

    /// The bitstream file name a build writes.
    pub fn bitstream_file(&self) -> String {
        match (self.part.family, &self.part.flash.dfu) {
            (_, Some(_)) => format!("{}.dfu", self.name),
            (Family::Ice40, None) => format!("{}.bin", self.name),
            (Family::Ecp5, None) => format!("{}.bit", self.name),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ulx3s_file() -> &'static str {
        BOARD_FILES.iter().find(|(file, _)| *file == "ulx3s.toml").unwrap().1
    }

    #[test]
    fn engine_kinds_read_back_by_the_names_they_print() {
        for kind in EngineKind::ALL {
            assert_eq!(kind.to_string().parse::<EngineKind>(), Ok(kind));
        }
        // A queens engine is one of its solver's searches: the RTL's
        // pipeline has that many stages.
        let searches = crate::fpga::build_report::QUEENS_SEARCHES_PER_SOLVER;
        assert_eq!(usize::from(searches), knights_rtl::queens::ranks::SEARCHES_PER_PIPELINE);
        let error = "narrow".parse::<EngineKind>().unwrap_err().to_string();
        assert!(error.contains("wide, compact or queens"), "{error}");
    }

    #[test]
    fn a_build_gets_its_part_and_the_files_pins() {
        let boards = parse(ulx3s_file()).unwrap();
        let board = |name: &str| boards.iter().find(|b| b.name == name).unwrap();
        let (main, six, small) = (board("ulx3s-85f"), board("ulx3s-85f-6x6"), board("ulx3s-12f"));
        assert_eq!(six.part, main.part, "the 6x6 build is another build of the 85F");
        assert_eq!((main.title.as_str(), main.part.title.as_str()), ("Radiona ULX3S (LFE5U-85F)", main.title.as_str()));
        assert_ne!(six.title, main.title, "a build may have its own title");
        assert_eq!((small.part.name.as_str(), small.part.device.as_str()), ("ulx3s-12f", "12k"));
        assert_eq!(
            (small.part.uart.clone(), small.part.clock.clone()),
            (main.part.uart.clone(), main.part.clock.clone())
        );
    }

    #[test]
    fn a_build_names_a_part_of_its_file_and_every_part_has_a_build() {
        let unknown = ulx3s_file().replacen("part = \"ulx3s-12f\"", "part = \"ulx3s-11f\"", 1);
        let error = parse(&unknown).unwrap_err().to_string();
        assert!(error.contains("no part called \"ulx3s-11f\"") && error.contains("ulx3s-85f, ulx3s-45f"), "{error}");
        let idle = ulx3s_file().replace("part = \"ulx3s-12f\"", "part = \"ulx3s-85f\"");
        let error = parse(&idle).unwrap_err().to_string();
        assert!(error.contains("part \"ulx3s-12f\" has no build"), "{error}");
        let unknown_kind = ulx3s_file().replacen("engine = \"compact\"", "engine = \"narrow\"", 1);
        let error = format!("{:#}", parse(&unknown_kind).unwrap_err());
        assert!(error.contains("unknown variant `narrow`, expected one of `wide`, `compact`, `queens`"), "{error}");
        let without = ulx3s_file().replacen("engine = \"compact\"", "engine = \"compact\"\nwarnsdorff = false", 1);
        let error = format!("{:#}", parse(&without).unwrap_err());
        assert!(error.contains("compact engines always have Warnsdorff's order"), "{error}");
    }

    #[test]
    fn every_build_talks_at_the_fastest_rate_its_clock_and_bridge_allow() {
        for board in all() {
            let design = board.build.design;
            let fastest = rates::fastest(design.clock_hz, board.part.uart.max_baud).map(u64::from);
            assert_eq!(Some(design.baud), fastest, "{}: {} MHz", board.name, design.clock_hz as f64 / 1e6);
        }
        // A rate past the bridge, or one the clock divides badly, is refused.
        let past = ulx3s_file().replacen("baud = 1_500_000", "baud = 6_000_000", 1);
        let error = parse(&past).unwrap_err().to_string();
        assert!(error.contains("past the board's USB bridge, which goes up to 3000000"), "{error}");
        let off = ulx3s_file().replacen("baud = 1_500_000", "baud = 2_000_000", 1);
        let error = parse(&off).unwrap_err().to_string();
        assert!(error.contains("% off at 31.25 MHz"), "{error}");
    }

    #[test]
    fn the_table_lines_up_its_columns() {
        let listings: Vec<Listing> = all().iter().map(Listing::new).collect();
        let text = table(&listings);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), listings.len() + 1);
        // Every column starts where its header does.
        let header = lines[0];
        for name in ["part", "title", "fpga", "orders"] {
            let column = header.find(name).unwrap();
            for line in &lines[1..] {
                assert!(line[..column].ends_with("  ") && !line[column..].starts_with(' '), "{name}:\n{text}");
            }
        }
        for name in ["max board", "engines", "clock", "baud"] {
            let end = header.find(name).unwrap() + name.len();
            for line in &lines[1..] {
                assert!(line[end..].starts_with("  ") && !line[..end].ends_with(' '), "{name}:\n{text}");
            }
        }
        let six = lines.iter().find(|l| l.starts_with("ulx3s-85f-6x6 ")).unwrap();
        assert!(six.split_whitespace().nth(1) == Some("ulx3s-85f") && six.ends_with("  fixed"), "{six}");
    }
}
