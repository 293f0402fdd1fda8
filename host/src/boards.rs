//! FPGA boards as data: one file per board in `boards/` (compiled in), with
//! its FPGA, pins, clock, flasher and the build its bitstream holds. Pin
//! constraint files (`constraints/`) are generated from it.

use std::fmt::Write as _;

use anyhow::{Context, Result};
use serde::Deserialize;

use crate::query::UsageError;

/// The board files, as compiled into the binary.
const BOARD_FILES: [(&str, &str); 4] = [
    ("icebreaker.toml", include_str!("../../boards/icebreaker.toml")),
    ("alchitry-cu.toml", include_str!("../../boards/alchitry-cu.toml")),
    ("ulx3s.toml", include_str!("../../boards/ulx3s.toml")),
    ("orangecrab.toml", include_str!("../../boards/orangecrab.toml")),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
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
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Uart {
    /// FPGA input (from the host's bridge).
    pub rx: String,
    /// FPGA output.
    pub tx: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pin {
    pub pin: String,
    pub active_low: bool,
    /// I/O standard when not the board's default (ECP5 `IO_TYPE`).
    pub io_type: Option<String>,
}

/// What a board's bitstream holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Build {
    pub max_width: u16,
    pub max_height: u16,
    pub engines: u16,
    /// The clock the design is built for.
    pub clock_hz: u64,
    pub baud: u32,
    /// Warnsdorff's move order in the engines (about an eighth of an engine's
    /// logic; a build without it fits more engines).
    #[serde(default = "built_in")]
    pub warnsdorff: bool,
    /// nextpnr's placement seed, when the default seed's placement misses
    /// the clock (placement of a full part varies by a few MHz with it).
    #[serde(default)]
    pub seed: Option<u64>,
    /// The delay target (ps) yosys's ABC9 maps a several-engine build for
    /// (default: half the clock period). A tighter target buys a shallower
    /// step, and a faster clock, with more LUTs.
    #[serde(default)]
    pub map_delay_ps: Option<u64>,
}

/// A feature's default, in board files and build reports: built in.
pub(crate) fn built_in() -> bool {
    true
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Flash {
    pub program: String,
    /// `{bitstream}` stands for the bitstream's path.
    pub args: Vec<String>,
    /// USB `vendor:product` (hex) of a DFU bootloader: the bitstream then
    /// gets the DFU file suffix `dfu-util` checks.
    pub dfu: Option<String>,
}

/// A smaller part on the same board: same pins, its own device and build.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
struct Variant {
    name: String,
    title: String,
    device: String,
    max_width: u16,
    max_height: u16,
    /// Engines, clock, Warnsdorff's order and mapping delay target when they
    /// differ from the main part's.
    engines: Option<u16>,
    clock_hz: Option<u64>,
    warnsdorff: Option<bool>,
    map_delay_ps: Option<u64>,
    /// Its own placement seed, if any (never the main part's).
    seed: Option<u64>,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Board {
    /// As given to `--board`.
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
    pub build: Build,
    pub flash: Flash,
    #[serde(default)]
    variant: Vec<Variant>,
}

/// Every board, variants included, in file order.
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

/// A board file's board, then its variants.
fn parse(text: &str) -> Result<Vec<Board>, toml::de::Error> {
    let mut board: Board = toml::from_str(text)?;
    let variants = std::mem::take(&mut board.variant);
    let derived: Vec<Board> = variants
        .into_iter()
        .map(|variant| Board {
            name: variant.name,
            title: variant.title,
            device: variant.device,
            build: Build {
                max_width: variant.max_width,
                max_height: variant.max_height,
                engines: variant.engines.unwrap_or(board.build.engines),
                clock_hz: variant.clock_hz.unwrap_or(board.build.clock_hz),
                warnsdorff: variant.warnsdorff.unwrap_or(board.build.warnsdorff),
                // A seed places one netlist on one part: not inherited.
                seed: variant.seed,
                map_delay_ps: variant.map_delay_ps.or(board.build.map_delay_ps),
                ..board.build
            },
            ..board.clone()
        })
        .collect();
    Ok(std::iter::once(board).chain(derived).collect())
}

/// The board called `name`, or a usage error listing the boards.
pub fn find(name: &str) -> Result<Board, UsageError> {
    let boards = all();
    let names: Vec<String> = boards.iter().map(|b| b.name.clone()).collect();
    boards.into_iter().find(|b| b.name == name).ok_or_else(|| {
        UsageError(format!("no board called {name:?}: choose one of {} (knights boards lists them)", names.join(", ")))
    })
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

impl Board {
    fn pins(&self) -> [(&'static str, &Pin); 3] {
        [(port::LED_BUSY, &self.led_busy), (port::LED_FOUND, &self.led_found), (port::BUTTON, &self.button)]
    }

    /// The constraint file's name in `constraints/`.
    pub fn constraints_file(&self) -> String {
        match self.family {
            Family::Ice40 => format!("{}.pcf", self.name),
            Family::Ecp5 => format!("{}.lpf", self.name),
        }
    }

    /// The pin constraints (PCF for iCE40, LPF for ECP5).
    pub fn constraints(&self) -> String {
        let mut out = format!(
            "# {}: generated from boards/ by `knights constraints`; do not edit.\n# Pins: {}\n",
            self.title,
            self.sources.join(" , ")
        );
        let signals = [(port::CLOCK, &self.clock.pin), (port::UART_RX, &self.uart.rx), (port::UART_TX, &self.uart.tx)];
        match self.family {
            Family::Ice40 => {
                for (port, pin) in signals.into_iter().chain(self.pins().map(|(port, p)| (port, &p.pin))) {
                    writeln!(out, "set_io {port} {pin}").unwrap();
                }
                writeln!(out, "set_frequency {} {}", port::CLOCK, self.clock.hz as f64 / 1e6).unwrap();
            }
            Family::Ecp5 => {
                let default = "LVCMOS33".to_string();
                let all = signals
                    .into_iter()
                    .map(|(port, pin)| (port, pin, &default))
                    .chain(self.pins().map(|(port, p)| (port, &p.pin, p.io_type.as_ref().unwrap_or(&default))));
                for (port, pin, io_type) in all {
                    writeln!(out, "LOCATE COMP \"{port}\" SITE \"{pin}\";").unwrap();
                    writeln!(out, "IOBUF PORT \"{port}\" IO_TYPE={io_type};").unwrap();
                }
                writeln!(out, "FREQUENCY PORT \"{}\" {} MHz;", port::CLOCK, self.clock.hz as f64 / 1e6).unwrap();
            }
        }
        out
    }

    /// The flasher's command line for `bitstream`.
    pub fn flash_command(&self, bitstream: &str) -> Vec<String> {
        std::iter::once(self.flash.program.clone())
            .chain(self.flash.args.iter().map(|a| a.replace("{bitstream}", bitstream)))
            .collect()
    }

    /// The bitstream file name a build writes.
    pub fn bitstream_file(&self) -> String {
        match (self.family, &self.flash.dfu) {
            (_, Some(_)) => format!("{}.dfu", self.name),
            (Family::Ice40, None) => format!("{}.bin", self.name),
            (Family::Ecp5, None) => format!("{}.bit", self.name),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_variant_inherits_the_build_but_never_the_placement_seed() {
        // The ULX3S file, with a seed on its main part and on one variant.
        let text = BOARD_FILES.iter().find(|(file, _)| *file == "ulx3s.toml").unwrap().1;
        let text = text.replacen("[build]\n", "[build]\nseed = 7\n", 1).replacen(
            "device = \"45k\"\n",
            "device = \"45k\"\nseed = 3\n",
            1,
        );
        let boards = parse(&text).unwrap();
        let seed_of = |name: &str| boards.iter().find(|b| b.name == name).unwrap().build.seed;
        assert_eq!(seed_of("ulx3s-85f"), Some(7));
        assert_eq!(seed_of("ulx3s-45f"), Some(3));
        assert_eq!(seed_of("ulx3s-25f"), None);
        let main = &boards[0];
        let variant = boards.iter().find(|b| b.name == "ulx3s-25f").unwrap();
        assert_eq!(variant.build.baud, main.build.baud);
        assert_eq!(variant.build.warnsdorff, main.build.warnsdorff);
    }
}
