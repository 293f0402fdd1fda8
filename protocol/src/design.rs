//! What a bitstream holds: the one description of a build that the RTL is
//! made from, the simulator models, the board files and build reports
//! record, and IDENTITY reports.

use core::fmt;
use core::str::FromStr;

/// Searches an interleaved engine runs at once (one in each stage of its
/// ring; `rtl/src/tours/interleaved`).
pub const INTERLEAVED_SEARCHES: u16 = 5;

/// The kind of engine a build's accelerator is made of; each kind has its
/// own RTL behind the same platform.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum EngineKind {
    /// The knight's-tour engine that keeps the board in registers and
    /// enters a node every clock (`rtl/src/tours/wide`); its size grows
    /// with the board's area.
    Wide,
    /// The knight's-tour engine that keeps the board in block RAM and takes
    /// a few clocks a node (`rtl/src/tours/compact`): small, and boards up
    /// to 40x40; Warnsdorff's order always built in.
    Compact,
    /// The N-Queens solver (`rtl/src/queens`): a queen placed every clock,
    /// by two searches in turn (each an engine); its largest N is the
    /// build's `max_width` (and `max_height`).
    Queens,
    /// Knight's-tour counts on interleaved engines (`rtl/src/tours/interleaved`):
    /// five searches share each engine's pipelined data path, a step every
    /// clock at a clock several times the wide engine's; engine 0 walks the
    /// levels above the jobs. It counts only (no first-K).
    Interleaved,
}

impl EngineKind {
    /// Every kind, in the order the tools list them.
    pub const ALL: [EngineKind; 4] =
        [EngineKind::Wide, EngineKind::Compact, EngineKind::Queens, EngineKind::Interleaved];

    /// The kind's name, as board files, build reports and the CLI give it.
    pub const fn name(self) -> &'static str {
        match self {
            EngineKind::Wide => "wide",
            EngineKind::Compact => "compact",
            EngineKind::Queens => "queens",
            EngineKind::Interleaved => "interleaved",
        }
    }

    /// Its number in IDENTITY.
    pub const fn code(self) -> u8 {
        match self {
            EngineKind::Wide => 0,
            EngineKind::Compact => 1,
            EngineKind::Queens => 2,
            EngineKind::Interleaved => 3,
        }
    }

    /// The kind IDENTITY numbers `code`.
    pub fn from_code(code: u8) -> Option<Self> {
        EngineKind::ALL.into_iter().find(|kind| kind.code() == code)
    }

    /// Whether it solves N-Queens (QUEENS) rather than knight's tours (SOLVE).
    pub const fn solves_queens(self) -> bool {
        matches!(self, EngineKind::Queens)
    }

    /// Whether its engines only count (the interleaved ring: IDENTIFY says
    /// so, and the host refuses such a build a first-K search).
    pub const fn counts_only(self) -> bool {
        matches!(self, EngineKind::Interleaved)
    }
}

impl fmt::Display for EngineKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A kind by its name.
impl FromStr for EngineKind {
    type Err = UnknownKind;

    fn from_str(name: &str) -> Result<Self, UnknownKind> {
        EngineKind::ALL.into_iter().find(|kind| kind.name() == name).ok_or(UnknownKind)
    }
}

/// A name that is no engine kind's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownKind;

impl fmt::Display for UnknownKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an engine kind is wide, compact or queens")
    }
}

/// The search features a build includes beyond its kind's core. Each costs
/// logic in every engine: a build that leaves one out fits more engines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Features {
    /// Knight's tours: Warnsdorff's move order (about an eighth of a wide
    /// engine's logic; the compact engine always has it). Records from
    /// before the field always had it.
    #[cfg_attr(feature = "serde", serde(default = "built_in"))]
    pub warnsdorff: bool,
    /// N-Queens: the generator of constellation jobs (counts from
    /// constellations; about 530 ECP5 LUT4 and 190 carry cells). Records
    /// from before the field had none.
    #[cfg_attr(feature = "serde", serde(default))]
    pub constellations: bool,
}

#[cfg(feature = "serde")]
fn built_in() -> bool {
    true
}

/// Records from before the engine kind was kept are of wide engines.
#[cfg(feature = "serde")]
fn wide() -> EngineKind {
    EngineKind::Wide
}

impl Features {
    /// Every feature.
    pub const ALL: Features = Features { warnsdorff: true, constellations: true };
}

/// Seconds `bytes` take on a UART at `baud` (ten bits a byte: start, eight
/// data bits, stop).
pub fn uart_seconds(bytes: u64, baud: u64) -> f64 {
    bytes as f64 * 10.0 / baud.max(1) as f64
}

/// What a bitstream holds: the engine kind, how many engines, the largest
/// board they take, their features, and the clock and UART rate the design
/// is made for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Design {
    /// (Records name it `engine`.)
    #[cfg_attr(feature = "serde", serde(rename = "engine", default = "wide"))]
    pub kind: EngineKind,
    /// The largest board (N-Queens: N by N).
    pub max_width: u16,
    pub max_height: u16,
    /// Engines sharing a search (N-Queens: searches, two to a solver).
    pub engines: u16,
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub features: Features,
    /// The clock the design runs at.
    pub clock_hz: u64,
    /// The UART's bit rate.
    pub baud: u64,
    /// Interleaved engines: each search's visited squares wait between its
    /// passes in block RAM, not in the ring's registers (where a flip-flop
    /// takes a logic cell of its own, as on the iCE40). Records from before
    /// the field had none.
    #[cfg_attr(feature = "serde", serde(default))]
    pub visited_in_block_ram: bool,
}

impl Design {
    /// Clocks per UART bit: the bit time rounded to whole clocks.
    pub const fn clocks_per_bit(&self) -> u64 {
        clocks_per_bit(self.clock_hz, self.baud)
    }
}

/// Clocks per UART bit at `clock_hz` for `baud`: the bit time rounded to
/// whole clocks, as a build's UART counts it.
pub const fn clocks_per_bit(clock_hz: u64, baud: u64) -> u64 {
    (clock_hz + baud / 2) / baud
}
