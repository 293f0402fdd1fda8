//! The device API every problem shares: a [`Device`] is a place a search
//! can run (the CPU reference here; the simulated board and real boards over
//! a link), and a [`Report`] is what it says when a search ends. Each
//! problem adds its own trait on top (`crate::tours::TourDevice`,
//! `crate::queens::QueensDevice`); [`error`] has what goes wrong, layer by
//! layer.

pub mod error;

use std::fmt;

use knights_model::Status;
use serde::Serialize;

/// A place a search can run.
pub trait Device {
    /// Short name as given to `--device`.
    fn name(&self) -> &'static str;

    /// The build id a linked device's IDENTITY gave (none for the CPU).
    fn build_id(&self) -> Option<u32> {
        None
    }
}

/// The problems a device's build can solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Problem {
    Tours,
    Queens,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Problem::Tours => "knight's tours",
            Problem::Queens => "N-Queens",
        })
    }
}

/// What a device reports when a search ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Report {
    /// Results found (tours, solutions): in first-K mode those sent, in a
    /// count the device's count.
    pub found: u64,
    pub nodes: u64,
    pub status: Status,
    /// Engine clock cycles, for devices that count them.
    pub cycles: Option<u64>,
    /// How a device with engines shared the search.
    pub engines: Option<EngineFigures>,
    /// Traffic and clock of a device reached over a link.
    pub link: Option<LinkFigures>,
}

impl Report {
    /// A report of counts alone, from a device that counts no cycles.
    pub fn counts(found: u64, nodes: u64, status: Status) -> Self {
        Report { found, nodes, status, cycles: None, engines: None, link: None }
    }

    /// The engines' search time at the device's clock, from its cycles
    /// (for the simulated board, the time the real board would take).
    pub fn engine_seconds(&self) -> Option<f64> {
        device_seconds(self.cycles, self.link)
    }
}

/// How the engines of a device shared a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct EngineFigures {
    /// Engines on the device.
    pub engines: u8,
    /// The level whose nodes were the jobs (0: engine 0 ran alone).
    pub split_level: u8,
    /// Cycles each engine ran, summed.
    pub engine_cycles: u64,
}

impl EngineFigures {
    /// Engines that took part: all of them, or one when unsplit.
    pub fn working(&self) -> u64 {
        if self.split_level == 0 {
            1
        } else {
            u64::from(self.engines)
        }
    }

    /// How evenly the work spread: the engines' mean running time over the
    /// longest (1 when all ran to the end), from the search's `cycles`.
    pub fn load_balance(&self, cycles: u64) -> f64 {
        self.engine_cycles as f64 / (self.working() * cycles.max(1)) as f64
    }
}

/// What crossed the link during one search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct LinkFigures {
    /// The device's clock, for engine time from cycles.
    pub clock_hz: u64,
    /// The line's rate, for the link's time from its bytes: the port's, or
    /// the simulated board's build's.
    pub baud: u64,
    pub bytes_sent: u64,
    pub bytes_received: u64,
    /// Bytes the host dropped as line noise.
    pub bytes_skipped: u64,
}

impl LinkFigures {
    /// Seconds the bytes both ways take on the line at its rate (ten bits a
    /// byte), as if none went while the engines searched: an upper bound.
    pub fn line_seconds(&self) -> f64 {
        knights_protocol::design::uart_seconds(self.bytes_sent + self.bytes_received, self.baud)
    }

    /// The traffic of two searches on the same device, one after the other.
    pub fn plus(self, other: LinkFigures) -> LinkFigures {
        LinkFigures {
            bytes_sent: self.bytes_sent + other.bytes_sent,
            bytes_received: self.bytes_received + other.bytes_received,
            bytes_skipped: self.bytes_skipped + other.bytes_skipped,
            ..self
        }
    }

    /// The traffic after `earlier` (taken from the same link).
    pub fn since(self, earlier: LinkFigures) -> LinkFigures {
        LinkFigures {
            clock_hz: self.clock_hz,
            baud: self.baud,
            bytes_sent: self.bytes_sent - earlier.bytes_sent,
            bytes_received: self.bytes_received - earlier.bytes_received,
            bytes_skipped: self.bytes_skipped - earlier.bytes_skipped,
        }
    }
}

/// `cycles` at the clock of the device behind `link`.
pub fn device_seconds(cycles: Option<u64>, link: Option<LinkFigures>) -> Option<f64> {
    match (cycles, link) {
        (Some(cycles), Some(link)) if link.clock_hz > 0 => Some(cycles as f64 / link.clock_hz as f64),
        _ => None,
    }
}

/// A linked device's modeled time: the clocks its engines searched, and
/// the link's bytes at the line's rate, added as if none went while the
/// engines searched (an upper bound: progress frames and streamed results
/// do overlap the search).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ModeledTime {
    pub engine_seconds: f64,
    pub link_seconds: f64,
    pub baud: u64,
}

impl ModeledTime {
    pub fn of(cycles: Option<u64>, link: Option<LinkFigures>) -> Option<Self> {
        let engine_seconds = device_seconds(cycles, link)?;
        let link = link?;
        Some(ModeledTime { engine_seconds, link_seconds: link.line_seconds(), baud: link.baud })
    }

    pub fn total_seconds(&self) -> f64 {
        self.engine_seconds + self.link_seconds
    }

    /// The link's share of the total.
    pub fn link_share(&self) -> f64 {
        self.link_seconds / self.total_seconds().max(f64::MIN_POSITIVE)
    }

    /// `; the link adds 0.0123 s at 115200 baud: 0.0456 s modeled, 27.0% of it link`.
    pub fn link_text(&self) -> String {
        format!(
            "; the link adds {:.4} s at {} baud: {:.4} s modeled, {:.1}% of it link",
            self.link_seconds,
            self.baud,
            self.total_seconds(),
            100.0 * self.link_share()
        )
    }
}

/// The CPU reference searches, counting on several threads (each problem's
/// device trait is implemented in its module).
#[derive(Clone, Debug)]
pub struct CpuDevice {
    pub threads: usize,
}

impl CpuDevice {
    /// The largest board side the CPU device accepts.
    pub const MAX_SIDE: u16 = 64;

    /// A device using every core for counts.
    pub fn all_cores() -> Self {
        CpuDevice { threads: std::thread::available_parallelism().map_or(1, |n| n.get()) }
    }
}

impl fmt::Display for CpuDevice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cpu ({} thread{})", self.threads, if self.threads == 1 { "" } else { "s" })
    }
}

impl Device for CpuDevice {
    fn name(&self) -> &'static str {
        "cpu"
    }
}
