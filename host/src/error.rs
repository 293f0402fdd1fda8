//! The library's errors: [`DeviceError`], everything the device API (a
//! query, a device, its link and transport) reports, and [`UsageError`],
//! options of the FPGA flow that cannot be built.
//!
//! Messages say what happened and, where the fix is the same for every
//! caller, what to do; fixes that depend on how the caller takes its input
//! (the CLI's flags) are the caller's to add.

use std::fmt;
use std::io;
use std::time::Duration;

use crate::board::{BoardSize, Square};
use crate::device::Problem;
use crate::proto::{code, ErrorCode, Malformed};

/// What can go wrong between asking a device for a search and its validated
/// answer. `device` fields describe the device as its transport does (a port
/// and baud rate, or the simulated board).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DeviceError {
    // The request, checked before anything is sent.
    #[error(
        "board {board} is larger than the {device} device supports: each side must be 1 to {} files and 1 to {} ranks{}",
        max.width,
        max.height,
        takes_it
    )]
    BoardTooLarge {
        board: BoardSize,
        device: &'static str,
        max: BoardSize,
        /// Which builds (or devices) would take the board: `; ...`, or empty.
        takes_it: String,
    },
    #[error(
        "start square {start} is off the {board} board: choose a square from a1 to {}",
        Square::new(board.width.saturating_sub(1), board.height.saturating_sub(1))
    )]
    StartOffBoard { start: Square, board: BoardSize },
    /// A first-K search for no tours.
    #[error("a search for the first tours must ask for at least one")]
    NoTours,
    #[error("{device} has 1 to {available} engines, not {requested}")]
    Engines { device: String, requested: u8, available: u8 },
    #[error("split level {level}: the device hands out jobs at most {max} levels deep")]
    SplitTooDeep { level: u8, max: u8 },
    #[error("this bitstream was built without {0}")]
    Unsupported(Capability),
    #[error("{device} runs a build for {build}, not {asked}: use a device or board build for {asked} (`knights boards` lists them)")]
    WrongProblem { device: String, build: Problem, asked: Problem },
    #[error("N = {n} is larger than the {device} device takes: N must be 1 to {max}")]
    QueensTooLarge { n: u8, device: &'static str, max: u8 },
    #[error("N must be at least 1")]
    NoQueens,
    #[error("counting from constellations takes a count (--count) of N >= 4, not N = {n} or a first-K search: leave out --constellations")]
    ConstellationsCountOnly { n: u8 },
    #[error("a unique count takes a count (--count), not a first-K search, and lists every solution of the mirror's side, not constellations: leave out --constellations")]
    UniqueCountOnly,
    #[error("a unique count runs on one device (the host checks each solution against its images): name one --device")]
    UniqueOnOneDevice,
    #[error("counting from constellations runs on one device (its jobs are made there): name one --device")]
    ConstellationsOnOneDevice,
    #[error("the {device} device does not count from constellations: its build has no generator (a board file's `constellations = true`), or it is not an N-Queens device; leave out --constellations")]
    NoConstellations { device: String },
    /// A board side or square past what the protocol's bytes carry.
    #[error("{0} does not fit the protocol")]
    OutOfRange(u16),

    // Finding and opening a serial port.
    #[error("no USB serial port found")]
    NoPort,
    #[error("several USB serial ports found ({})", .0.join(", "))]
    SeveralPorts(Vec<String>),
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

    // The link.
    #[error("cannot {direction} {device}: was the board unplugged?")]
    LinkLost {
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
         reaches it is damaged; is another program using the port, or is the line noisy?"
    )]
    DirtyLine { device: String, errors: u32, last: ErrorCode },
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
    Malformed(#[from] Malformed),

    // The device's answers to a search.
    #[error("{device} refused the search: {}: wait for it to finish, or reset the board", ErrorCode::Busy)]
    Busy { device: String },
    #[error("{device} refused {}: {code}", refused(*command))]
    Refused { device: String, code: ErrorCode, command: u8 },
    #[error("{device} reported an error during the search: {code}")]
    Failed { device: String, code: ErrorCode },
    #[error("cannot make the simulated {board} board: {reason}")]
    SimModel { board: String, reason: String },
    #[error("{device} ended a search with unknown status {status}")]
    UnknownStatus { device: String, status: u8 },
    #[error("tour #{number} from {device} arrived numbered {sequence}: tours were lost on the way")]
    ToursLost { device: String, number: u64, sequence: u32 },
    /// A tour's engine and job tags contradict the search's split.
    #[error("tour #{number} from {device}: {problem}")]
    MixedStreams { device: String, number: u64, problem: String },

    // Validating what came back.
    #[error("the device returned an invalid tour (#{number}): {reason}")]
    InvalidTour { number: usize, reason: String },
    #[error("the device returned tour #{number} twice")]
    DuplicateTour { number: usize },
    #[error("the device returned an invalid solution (#{number}): {reason}")]
    InvalidSolution { number: usize, reason: String },
    #[error("the device returned solution #{number} twice")]
    DuplicateSolution { number: usize },
    #[error("the {device} device reported {reported} tours but sent {sent}: results were lost on the way")]
    ToursMissing { device: &'static str, reported: u64, sent: u64 },
    /// The CPU reference search failed (a tour it found did not validate,
    /// or its threads could not start).
    #[error("the CPU reference search failed")]
    Reference(#[source] anyhow::Error),
    #[error("the {device} device takes whole searches only, not a count below a path: run these jobs on the CPU or on a knight's-tour board or simulator")]
    NoPrefixJobs { device: &'static str },
    #[error("a device cannot count below this path: {reason}")]
    BadPath { reason: String },
    #[error("the {device} device failed inside knights (a bug: please report it): {reason}")]
    Panicked { device: &'static str, reason: String },
    #[error("jobs {depth} moves deep leave no search below them on {board}: the depth must be less than {}", board.area().saturating_sub(2))]
    EstimateTooDeep { depth: usize, board: BoardSize },
    #[error("job {id} cannot run: {reason}")]
    BadJob { id: u32, reason: String },
    #[error(
        "every device failed with {left} job{} of the count left ({}): reconnect or reset the boards and count again",
        if *left == 1 { "" } else { "s" },
        failures.join("; ")
    )]
    DevicesLost { left: usize, failures: Vec<String> },
}

impl DeviceError {
    /// The device failed (its link, or what it answered), as opposed to the
    /// request: another device may well run the same request.
    pub fn is_the_device(&self) -> bool {
        matches!(
            self,
            DeviceError::LinkLost { .. }
                | DeviceError::NoAnswer { .. }
                | DeviceError::DirtyLine { .. }
                | DeviceError::Timeout { .. }
                | DeviceError::Malformed(_)
                | DeviceError::Busy { .. }
                | DeviceError::Failed { .. }
                | DeviceError::UnknownStatus { .. }
                | DeviceError::ToursLost { .. }
                | DeviceError::MixedStreams { .. }
                | DeviceError::InvalidTour { .. }
                | DeviceError::DuplicateTour { .. }
                | DeviceError::InvalidSolution { .. }
                | DeviceError::DuplicateSolution { .. }
                | DeviceError::ToursMissing { .. }
                | DeviceError::Panicked { .. }
        )
    }

    /// The request was wrong for the device, as opposed to a failure while
    /// running it: the same request fails the same way every time.
    pub fn is_bad_request(&self) -> bool {
        matches!(
            self,
            DeviceError::BoardTooLarge { .. }
                | DeviceError::StartOffBoard { .. }
                | DeviceError::NoTours
                | DeviceError::Engines { .. }
                | DeviceError::SplitTooDeep { .. }
                | DeviceError::Unsupported(_)
                | DeviceError::WrongProblem { .. }
                | DeviceError::QueensTooLarge { .. }
                | DeviceError::NoQueens
                | DeviceError::ConstellationsCountOnly { .. }
                | DeviceError::ConstellationsOnOneDevice
                | DeviceError::UniqueCountOnly
                | DeviceError::UniqueOnOneDevice
                | DeviceError::NoConstellations { .. }
                | DeviceError::NoPrefixJobs { .. }
                | DeviceError::BadPath { .. }
                | DeviceError::EstimateTooDeep { .. }
        )
    }
}

/// What a refused command was, for messages.
fn refused(command: u8) -> String {
    match command {
        code::SOLVE | code::QUEENS => "the search".into(),
        // A frame it could not read names no command it ran.
        _ => format!("a request it could not read (command {command:#04x})"),
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
        let errors = [
            DeviceError::NoTours,
            DeviceError::Engines { device: device(), requested: 9, available: 4 },
            DeviceError::SplitTooDeep { level: 17, max: 16 },
            DeviceError::Unsupported(Capability::Warnsdorff),
            DeviceError::Unsupported(Capability::Pruning),
            DeviceError::NoPort,
            DeviceError::SeveralPorts(vec!["/dev/ttyUSB0".into(), "/dev/ttyUSB1".into()]),
            DeviceError::LinkLost { device: device(), direction: Direction::Read, source: io() },
            DeviceError::NoAnswer { device: device(), timeout: Duration::from_secs(5) },
            DeviceError::DirtyLine { device: device(), errors: 4, last: ErrorCode::BadCrc },
            DeviceError::Timeout { device: device(), timeout: Duration::from_secs(5) },
            DeviceError::Busy { device: device() },
            DeviceError::NoPrefixJobs { device: "board" },
            DeviceError::BadPath { reason: "it has 17 moves, and a device takes at most 16".into() },
        ];
        for error in errors {
            let message = error.to_string();
            assert!(!message.contains("--"), "{message}");
        }
    }

    #[test]
    fn a_refusal_says_which_command() {
        let device = "the simulated board".to_string();
        let solve = DeviceError::Refused { device: device.clone(), code: ErrorCode::BadArgument, command: code::SOLVE };
        assert!(solve.to_string().starts_with("the simulated board refused the search: "), "{solve}");
        let frame = DeviceError::Refused { device, code: ErrorCode::BadCrc, command: 0 };
        assert!(
            frame.to_string().contains("could not read (command 0x00): a command arrived with a bad CRC"),
            "{frame}"
        );
    }
}
