//! What goes wrong between asking a device for a search and its validated
//! answer, one type per layer: the request ([`RequestError`], checked before
//! anything is sent), the port ([`PortError`], finding and opening the
//! device), the link ([`LinkError`], the conversation with it) and the
//! answer ([`ValidationError`], what came back and failed the host's
//! checks). [`DeviceError`] is any of them, or a failure of the device as a
//! whole.
//!
//! Messages say what happened in the library's terms; what to do about it
//! with the command line's options is the CLI's to add (`cli::explain`).

use std::fmt;
use std::io;
use std::time::Duration;

use knights_model::{BoardSize, Square};
use knights_protocol::codec::{ErrorCode, Malformed};
use knights_protocol::command;

use super::Problem;

/// Any failure of the device API.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DeviceError {
    #[error(transparent)]
    Request(#[from] RequestError),
    #[error(transparent)]
    Port(#[from] PortError),
    #[error(transparent)]
    Link(#[from] LinkError),
    #[error(transparent)]
    Invalid(#[from] ValidationError),
    /// The CPU reference search failed (a tour it found did not validate,
    /// or its threads could not start).
    #[error("the CPU reference search failed")]
    Reference(#[source] anyhow::Error),
    #[error("the {device} device failed inside knights (a bug: please report it): {reason}")]
    Panicked { device: &'static str, reason: String },
    /// Devices sharing a count all failed before its jobs were done.
    #[error(
        "every device failed with {left} job{} of the count left ({}): reconnect or reset the boards and count again",
        if *left == 1 { "" } else { "s" },
        failures.join("; ")
    )]
    DevicesLost { left: usize, failures: Vec<String> },
    /// A count's journal could not be read or written (a write failing
    /// stops the count, with what the journal holds kept).
    #[error(transparent)]
    Journal(#[from] JournalError),
}

/// What can be wrong with a count's journal (`crate::journal`).
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    #[error(
        "the count's journal {path}: {source} (free some space or fix its access, then run the same command again)"
    )]
    Io { path: std::path::PathBuf, source: io::Error },
    #[error(
        "journal {path} is another count's ({found}), not this one's ({wanted}): give this count another --journal \
         file, or delete that one to start it over"
    )]
    OtherCount { path: std::path::PathBuf, found: String, wanted: String },
    #[error("journal {path} is damaged at line {line} ({reason}): delete it to count again from the start")]
    Damaged { path: std::path::PathBuf, line: usize, reason: String },
    #[error("journal {path} is being written by another knights process: wait for it, or give another --journal file")]
    InUse { path: std::path::PathBuf },
}

impl DeviceError {
    /// The device failed (its link, or what it answered), as opposed to the
    /// request: another device may well run the same request.
    pub fn is_the_device(&self) -> bool {
        matches!(self, DeviceError::Link(_) | DeviceError::Invalid(_) | DeviceError::Panicked { .. })
    }

    /// The request was wrong for the device, as opposed to a failure while
    /// running it: the same request fails the same way every time.
    pub fn is_bad_request(&self) -> bool {
        matches!(self, DeviceError::Request(_))
    }
}

/// A frame with a good CRC whose content makes no sense is a link failure.
impl From<Malformed> for DeviceError {
    fn from(malformed: Malformed) -> Self {
        LinkError::Malformed(malformed).into()
    }
}

/// A request the device cannot run, found before anything is sent.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RequestError {
    #[error(
        "board {board} is larger than the {device} device supports: each side must be 1 to {} files and 1 to {} ranks{}",
        max.width,
        max.height,
        where_it_fits(builds, *cpu_takes_it, CPU_MAX_SIDE)
    )]
    BoardTooLarge {
        board: BoardSize,
        device: &'static str,
        max: BoardSize,
        /// The board builds that take it (`icebreaker (8x8)`).
        builds: Vec<String>,
        /// The CPU device takes it.
        cpu_takes_it: bool,
    },
    #[error(
        "start square {start} is off the {board} board: choose a square from a1 to {}",
        Square::new(board.width.saturating_sub(1), board.height.saturating_sub(1))
    )]
    StartOffBoard { start: Square, board: BoardSize },
    /// A first-K search for no results.
    #[error("a search for the first results must ask for at least one")]
    NoResults,
    #[error("{device} has 1 to {available} engines, not {requested}")]
    Engines { device: String, requested: u8, available: u8 },
    #[error("split level {level}: the device hands out jobs at most {max} levels deep")]
    SplitTooDeep { level: u8, max: u8 },
    #[error("this bitstream was built without {0}")]
    Unsupported(Capability),
    #[error("{device} runs a build for {build}, not {asked}")]
    WrongProblem { device: String, build: Problem, asked: Problem },
    #[error("N = {n} is larger than the {device} device takes: N must be 1 to {max}")]
    QueensTooLarge { n: u8, device: &'static str, max: u8 },
    #[error("N must be at least 1")]
    NoQueens,
    #[error(
        "{device} runs interleaved engines, which count: a first-K search needs a build of wide or compact engines \
         (e.g. --board ulx3s-85f), or count with `knights count`"
    )]
    CountsOnly { device: String },
    #[error("counting from constellations takes a count of N >= 4, not N = {n} or a first-K search")]
    ConstellationsCountOnly { n: u8 },
    #[error(
        "a unique count takes a count, not a first-K search, and lists every solution of the mirror's side, not \
         constellations"
    )]
    UniqueCountOnly,
    #[error(
        "the {device} device does not count from constellations: its build has no generator, or it is not an \
         N-Queens device"
    )]
    NoConstellations { device: String },
    /// A board side or square past what the protocol's bytes carry.
    #[error("{0} does not fit the protocol")]
    OutOfRange(u16),
    #[error("the {device} device takes whole searches only, not a count below a path")]
    NoPrefixJobs { device: &'static str },
    #[error("a device cannot count below this path: {reason}")]
    BadPath { reason: String },
    #[error("jobs {depth} moves deep leave no search below them on {board}: the depth must be less than {}", board.area().saturating_sub(2))]
    EstimateTooDeep { depth: usize, board: BoardSize },
    #[error("job {id} cannot run: {reason}")]
    BadJob { id: u32, reason: String },
}

/// Finding and opening a device.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PortError {
    #[error("no board's USB serial port found")]
    NoPort,
    #[error("several USB serial ports found ({})", .0.join(", "))]
    SeveralPorts(Vec<String>),
    /// `--all-ports` found no known board's UART among these ports.
    #[error("no known board's UART among the USB serial ports{}", if .0.is_empty() { String::new() } else { format!(" ({})", .0.join(", ")) })]
    NoBoardPort(Vec<String>),
    #[error("cannot list serial ports")]
    ListPorts(#[source] serialport::Error),
    #[error("cannot open serial port {path}")]
    OpenPort {
        path: String,
        #[source]
        source: serialport::Error,
    },
    /// The pseudo-terminal a simulated board is served on.
    #[error("cannot {action} the pseudo-terminal")]
    PseudoTerminal {
        action: &'static str,
        #[source]
        source: io::Error,
    },
    #[error("cannot make the simulated {board} board: {reason}")]
    SimModel { board: String, reason: String },
}

/// The conversation with a device: its bytes, its frames and what it says
/// of the search. `device` fields describe the device as its transport
/// does (a port and baud rate, or the simulated board).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LinkError {
    #[error("cannot {direction} {device}: was the board unplugged?")]
    Lost {
        device: String,
        direction: Direction,
        #[source]
        source: io::Error,
    },
    #[error(
        "no answer from {device} within {:.1} s: is the bitstream loaded, and is the baud rate right?",
        timeout.as_secs_f64()
    )]
    NoAnswer { device: String, timeout: Duration },
    /// The device answered, but never IDENTIFY: the line does not stay clean.
    #[error(
        "{device} answered IDENTIFY only with ERROR frames ({errors}, the last: {last}): the bitstream runs, but what \
         reaches it is damaged; is another program using the port, is the line noisy, or is the baud rate off the \
         build's?"
    )]
    DirtyLine { device: String, errors: u32, last: ErrorCode },
    #[error(
        "no knights build answered IDENTIFY on {device} at any of {} baud: is the bitstream loaded (knights flash)? \
         --baud names a build's rate",
        tried.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")
    )]
    NoRate { device: String, tried: Vec<u32> },
    #[error(
        "{device} speaks protocol version {version}, this host {host}: flash a bitstream built from this version of \
         knights"
    )]
    Version { device: String, version: u8, host: u8 },
    #[error(
        "{device} sent nothing for {:.1} s during a search: it may have been reset or unplugged",
        timeout.as_secs_f64()
    )]
    Timeout { device: String, timeout: Duration },
    #[error(transparent)]
    Malformed(Malformed),
    #[error("{device} refused the search: {}: wait for it to finish, or reset the board", ErrorCode::Busy)]
    Busy { device: String },
    #[error("{device} refused {}: {code}", refused(*command))]
    Refused { device: String, code: ErrorCode, command: u8 },
    #[error("{device} reported an error during the search: {code}")]
    Failed { device: String, code: ErrorCode },
    #[error("{device} ended a search with unknown status {status}")]
    UnknownStatus { device: String, status: u8 },
    #[error("result #{number} from {device} arrived numbered {sequence}: results were lost on the way")]
    ResultsLost { device: String, number: u64, sequence: u32 },
    /// A result's engine and job tags contradict the search's split.
    #[error("result #{number} from {device}: {problem}")]
    MixedStreams { device: String, number: u64, problem: String },
}

/// What a device answered, refused by the host's checks.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ValidationError {
    #[error("the device returned an invalid tour (#{number}): {reason}")]
    InvalidTour { number: usize, reason: String },
    #[error("the device returned tour #{number} twice")]
    DuplicateTour { number: usize },
    #[error("the device returned an invalid solution (#{number}): {reason}")]
    InvalidSolution { number: usize, reason: String },
    #[error("the device returned solution #{number} twice")]
    DuplicateSolution { number: usize },
    #[error("the {device} device reported {reported} results but sent {sent}: results were lost on the way")]
    Missing { device: &'static str, reported: u64, sent: u64 },
}

/// The largest board side of the CPU device (`CpuDevice::MAX_SIDE`).
const CPU_MAX_SIDE: u16 = super::CpuDevice::MAX_SIDE;

/// Where a board too large for a device fits, to follow the refusal.
fn where_it_fits(builds: &[String], cpu_takes_it: bool, cpu_side: u16) -> String {
    match (builds, cpu_takes_it) {
        ([], true) => format!("; no board's build takes it, the CPU device does (up to {cpu_side}x{cpu_side})"),
        ([], false) => String::new(),
        (builds, _) => format!("; builds that take it: {}", builds.join(", ")),
    }
}

/// What a refused command was, for messages.
fn refused(code: u8) -> String {
    match code {
        command::SOLVE | command::QUEENS => "the search".into(),
        // A frame it could not read names no command it ran.
        _ => format!("a request it could not read (command {code:#04x})"),
    }
}

/// Which way a link failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Write,
    Read,
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Direction::Write => "write to",
            Direction::Read => "read from",
        })
    }
}

/// Search features a bitstream may be built without.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Capability {
    Warnsdorff,
    Pruning,
}

impl fmt::Display for Capability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Capability::Warnsdorff => "Warnsdorff's rule",
            Capability::Pruning => "dead-end pruning",
        })
    }
}

/// A request the user got wrong (as opposed to a failure while running it),
/// from the FPGA flow, whose messages name the CLI's options; the CLI exits
/// with status 2 for these.
#[derive(Debug)]
pub struct UsageError(pub String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_no_cli_flags() {
        let device = || "/dev/ttyUSB1 at 115200 baud".to_string();
        let io = || io::Error::other("gone");
        let errors: Vec<DeviceError> = vec![
            RequestError::NoResults.into(),
            RequestError::Engines { device: device(), requested: 9, available: 4 }.into(),
            RequestError::SplitTooDeep { level: 17, max: 16 }.into(),
            RequestError::Unsupported(Capability::Warnsdorff).into(),
            RequestError::Unsupported(Capability::Pruning).into(),
            RequestError::WrongProblem { device: device(), build: Problem::Tours, asked: Problem::Queens }.into(),
            RequestError::ConstellationsCountOnly { n: 3 }.into(),
            RequestError::UniqueCountOnly.into(),
            RequestError::NoConstellations { device: device() }.into(),
            RequestError::NoPrefixJobs { device: "board" }.into(),
            RequestError::BadPath { reason: "it has 17 moves, and a device takes at most 16".into() }.into(),
            PortError::NoPort.into(),
            PortError::SeveralPorts(vec!["/dev/ttyUSB0".into(), "/dev/ttyUSB1".into()]).into(),
            LinkError::Lost { device: device(), direction: Direction::Read, source: io() }.into(),
            LinkError::NoAnswer { device: device(), timeout: Duration::from_secs(5) }.into(),
            LinkError::DirtyLine { device: device(), errors: 4, last: ErrorCode::BadCrc }.into(),
            LinkError::Timeout { device: device(), timeout: Duration::from_secs(5) }.into(),
            LinkError::Busy { device: device() }.into(),
            DeviceError::DevicesLost { left: 2, failures: vec!["device 1 (board): gone".into()] },
        ];
        for error in errors {
            let message = error.to_string();
            assert!(!message.contains("--"), "{message}");
        }
    }

    #[test]
    fn each_layer_says_whether_another_device_may_run_the_request() {
        let device = || "the simulated board".to_string();
        let link: DeviceError = LinkError::Busy { device: device() }.into();
        let invalid: DeviceError = ValidationError::DuplicateTour { number: 2 }.into();
        let request: DeviceError = RequestError::NoResults.into();
        let port: DeviceError = PortError::NoPort.into();
        assert!(link.is_the_device() && invalid.is_the_device() && !link.is_bad_request());
        assert!(request.is_bad_request() && !request.is_the_device());
        assert!(!port.is_the_device() && !port.is_bad_request());
    }

    #[test]
    fn a_refusal_says_which_command() {
        let device = "the simulated board".to_string();
        let solve =
            LinkError::Refused { device: device.clone(), code: ErrorCode::BadArgument, command: command::SOLVE };
        assert!(solve.to_string().starts_with("the simulated board refused the search: "), "{solve}");
        let frame = LinkError::Refused { device, code: ErrorCode::BadCrc, command: 0 };
        assert!(
            frame.to_string().contains("could not read (command 0x00): a command arrived with a bad CRC"),
            "{frame}"
        );
    }
}
