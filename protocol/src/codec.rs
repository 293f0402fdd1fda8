//! Frames, commands and responses as bytes: what a host sends and parses
//! (and a simulated device encodes). Pure: no I/O, no clocks.
//!
//! A frame is `A5 | length (u16 LE) | type | payload | CRC-16 (LE)`, the CRC
//! ([`crate::crc`]) taken over everything before it.

use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use crate::crc::crc16;
use crate::{command, error, feature, flag, length, response, MAX_PATH_MOVES, SYNC, VERSION};

/// Bytes of a frame around its payload: sync, length, type, CRC.
pub const OVERHEAD: usize = 6;
/// TOUR payload bytes before the squares: sequence number, engine, job.
pub const TOUR_HEADER: usize = length::TOUR_HEADER as usize;
/// PROGRESS and DONE payload bytes: state, four 48-bit counters.
pub const COUNTERS_LENGTH: usize = length::COUNTERS as usize;

/// A whole frame around `payload`.
pub fn frame(kind: u8, payload: &[u8]) -> Vec<u8> {
    let length = u16::try_from(payload.len()).expect("payload fits a frame");
    let mut bytes = Vec::with_capacity(payload.len() + OVERHEAD);
    bytes.push(SYNC);
    bytes.extend_from_slice(&length.to_le_bytes());
    bytes.push(kind);
    bytes.extend_from_slice(payload);
    let crc = crc16(&bytes);
    bytes.extend_from_slice(&crc.to_le_bytes());
    bytes
}

/// The moves of a path from the start square, each the canonical index
/// (0–7, `model/src/moves.rs`) of the knight's step taken: a search given a
/// path searches only the tree below the path's last square.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MovePath {
    length: u8,
    moves: [u8; MAX_PATH_MOVES as usize],
}

impl MovePath {
    /// No moves: the whole tree from the start square.
    pub const EMPTY: MovePath = MovePath { length: 0, moves: [0; MAX_PATH_MOVES as usize] };

    /// A path of `moves`; `None` when there are more than
    /// [`MAX_PATH_MOVES`] or one is not a move index (0–7).
    pub fn new(moves: &[u8]) -> Option<Self> {
        if moves.len() > usize::from(MAX_PATH_MOVES) || moves.iter().any(|&m| m > 7) {
            return None;
        }
        let mut path = MovePath::EMPTY;
        path.moves[..moves.len()].copy_from_slice(moves);
        path.length = moves.len() as u8;
        Some(path)
    }

    pub fn moves(&self) -> &[u8] {
        &self.moves[..usize::from(self.length)]
    }

    /// The moves bit-sliced, as the engines keep a path (a level's move is
    /// read with three shifts, not a mux): bit `b` of move `k` at bit
    /// `16 b + k`.
    pub fn sliced(&self) -> u64 {
        let bit = |k: usize, m: u8, b: usize| u64::from(m >> b & 1) << (16 * b + k);
        self.moves().iter().enumerate().map(|(k, &m)| bit(k, m, 0) | bit(k, m, 1) | bit(k, m, 2)).sum()
    }

    /// SOLVE's path fields: the number of moves, then the sliced moves as a
    /// little-endian 48-bit number (three 16-bit masks, mask `b` holding
    /// bit `b` of each move).
    fn fields(&self) -> [u8; 7] {
        let sliced = self.sliced().to_le_bytes();
        [self.length, sliced[0], sliced[1], sliced[2], sliced[3], sliced[4], sliced[5]]
    }
}

/// A search as the device takes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveRequest {
    pub width: u8,
    pub height: u8,
    pub file: u8,
    pub rank: u8,
    pub closed: bool,
    pub warnsdorff: bool,
    /// Dead-end pruning.
    pub prune: bool,
    /// Count every tour without sending any; otherwise tours are streamed.
    pub count: bool,
    /// Tours to stream before stopping; 0 streams every tour.
    pub limit: u32,
    /// The level whose nodes are the jobs the engines share; 0 runs one
    /// engine on the whole tree.
    pub split: u8,
    /// Engines to share the jobs (the first ones); 0 uses all.
    pub engines: u8,
    /// The search covers the tree below this path only (a prefix job); the
    /// split level, when not 0, must lie below the path's end.
    pub path: MovePath,
}

impl SolveRequest {
    /// SOLVE's payload: width, height, start file and rank, flags (the
    /// first five bytes, the engines' arguments), limit, split, engines,
    /// the path's length and moves.
    pub fn payload(&self) -> Vec<u8> {
        let flag = |on: bool, bit: u8| if on { bit } else { 0 };
        let flags = flag(self.closed, flag::CLOSED)
            | flag(self.warnsdorff, flag::WARNSDORFF)
            | flag(self.count, flag::COUNT)
            | flag(self.prune, flag::PRUNE);
        let mut payload = vec![self.width, self.height, self.file, self.rank, flags];
        payload.extend_from_slice(&self.limit.to_le_bytes());
        payload.push(self.split);
        payload.push(self.engines);
        payload.extend_from_slice(&self.path.fields());
        payload
    }
}

/// An N-Queens search as a queens build takes it (QUEENS).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueensRequest {
    pub n: u8,
    /// The files the first rank's queen may take: `first_from..first_to`.
    pub first_from: u8,
    pub first_to: u8,
    /// Count every solution without sending any.
    pub count: bool,
    /// Solutions to stream before stopping; 0 streams every one.
    pub limit: u32,
    /// The split level (queens placed in a job) and the engines sharing it.
    pub split: u8,
    pub engines: u8,
    /// With `count`: count from constellations (jobs made on the device,
    /// feature `CONSTELLATIONS`; `first_from..first_to` must be the whole
    /// rank, `split` 0).
    pub constellations: bool,
}

impl QueensRequest {
    /// QUEENS's payload: N twice (the board is square), the first rank's
    /// files from and to, flags, then limit, split and engines as in SOLVE,
    /// and SOLVE's path fields, empty.
    pub fn payload(&self) -> Vec<u8> {
        let flags =
            if self.count { flag::COUNT } else { 0 } | if self.constellations { flag::CONSTELLATIONS } else { 0 };
        let mut payload = vec![self.n, self.n, self.first_from, self.first_to, flags];
        payload.extend_from_slice(&self.limit.to_le_bytes());
        payload.push(self.split);
        payload.push(self.engines);
        payload.extend_from_slice(&MovePath::EMPTY.fields());
        payload
    }
}

/// Host-to-device messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    Identify,
    Solve(SolveRequest),
    Queens(QueensRequest),
    Abort,
    Status,
}

impl Command {
    pub fn code(&self) -> u8 {
        match self {
            Command::Identify => command::IDENTIFY,
            Command::Solve(_) => command::SOLVE,
            Command::Queens(_) => command::QUEENS,
            Command::Abort => command::ABORT,
            Command::Status => command::STATUS,
        }
    }

    /// The command as a frame.
    pub fn encode(&self) -> Vec<u8> {
        match self {
            Command::Solve(r) => frame(self.code(), &r.payload()),
            Command::Queens(r) => frame(self.code(), &r.payload()),
            _ => frame(self.code(), &[]),
        }
    }
}

/// What IDENTIFY reports: the build's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Identity {
    pub version: u8,
    pub max_width: u8,
    pub max_height: u8,
    pub engines: u8,
    pub clock_hz: u32,
    pub baud: u32,
    pub warnsdorff: bool,
    /// The engine prunes dead ends when asked.
    pub prune: bool,
    /// The build solves N-Queens (QUEENS), not knight's tours (SOLVE); its
    /// largest board is `max_width` queens.
    pub queens: bool,
    /// The N-Queens build counts from constellations.
    pub constellations: bool,
    /// The engines are interleaved, five searches each (see
    /// [`Identity::searches`]); they count, and take no first-K search.
    pub interleaved: bool,
    /// Names the design: the first four bytes of the SHA-256 of its
    /// Verilog as emitted with this field 0 (`knights_rtl::verilog`).
    pub build_id: u32,
}

impl Identity {
    /// Searches that run at once when a search is split over `engines` of
    /// the build's engines: an interleaved engine runs
    /// [`crate::design::INTERLEAVED_SEARCHES`].
    pub fn searches(&self, engines: u8) -> u16 {
        if self.interleaved {
            u16::from(engines) * crate::design::INTERLEAVED_SEARCHES
        } else {
            u16::from(engines)
        }
    }
}

/// Search counters in PROGRESS and DONE.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    pub tours: u64,
    pub nodes: u64,
    /// Clock cycles while any engine ran.
    pub cycles: u64,
    /// Cycles each engine ran, summed over the engines.
    pub engine_cycles: u64,
}

/// Why a device refused a frame or a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorCode {
    BadCrc,
    BadLength,
    UnknownCommand,
    Truncated,
    Busy,
    BoardTooLarge,
    StartOffBoard,
    BadArgument,
    WrongProblem,
    Other(u8),
}

impl ErrorCode {
    pub fn from_byte(byte: u8) -> Self {
        match byte {
            error::BAD_CRC => ErrorCode::BadCrc,
            error::BAD_LENGTH => ErrorCode::BadLength,
            error::UNKNOWN_COMMAND => ErrorCode::UnknownCommand,
            error::TRUNCATED => ErrorCode::Truncated,
            error::BUSY => ErrorCode::Busy,
            error::BOARD_TOO_LARGE => ErrorCode::BoardTooLarge,
            error::START_OFF_BOARD => ErrorCode::StartOffBoard,
            error::BAD_ARGUMENT => ErrorCode::BadArgument,
            error::WRONG_PROBLEM => ErrorCode::WrongProblem,
            other => ErrorCode::Other(other),
        }
    }

    pub fn to_byte(self) -> u8 {
        match self {
            ErrorCode::BadCrc => error::BAD_CRC,
            ErrorCode::BadLength => error::BAD_LENGTH,
            ErrorCode::UnknownCommand => error::UNKNOWN_COMMAND,
            ErrorCode::Truncated => error::TRUNCATED,
            ErrorCode::Busy => error::BUSY,
            ErrorCode::BoardTooLarge => error::BOARD_TOO_LARGE,
            ErrorCode::StartOffBoard => error::START_OFF_BOARD,
            ErrorCode::BadArgument => error::BAD_ARGUMENT,
            ErrorCode::WrongProblem => error::WRONG_PROBLEM,
            ErrorCode::Other(byte) => byte,
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorCode::BadCrc => f.write_str("a command arrived with a bad CRC (line noise or a wrong baud rate)"),
            ErrorCode::BadLength => f.write_str("a command had the wrong length for its type"),
            ErrorCode::UnknownCommand => f.write_str("the device does not know that command (protocol mismatch)"),
            ErrorCode::Truncated => f.write_str("a command stopped arriving part way (bytes lost on the line)"),
            ErrorCode::Busy => f.write_str("the device is still running a search"),
            ErrorCode::BoardTooLarge => f.write_str("the board is larger than the bitstream was built for"),
            ErrorCode::StartOffBoard => f.write_str("the start square is off the board"),
            ErrorCode::BadArgument => f.write_str(
                "the request has a zero board side, unknown flags, a split level too deep for the build or a \
                     path it cannot take",
            ),
            ErrorCode::WrongProblem => {
                f.write_str("the build solves the other problem (knight's tours or N-Queens) than the one asked for")
            }
            ErrorCode::Other(code) => write!(f, "error code {code}"),
        }
    }
}

/// Device-to-host messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Response {
    Identity(Identity),
    /// A command was accepted.
    Ack {
        command: u8,
    },
    /// A tour: its number in this search (from 1), the engine that found it
    /// and its job there, and its squares, each `rank * max_width + file`
    /// with the build's `max_width`.
    Tour {
        sequence: u32,
        engine: u8,
        job: u32,
        squares: Vec<u8>,
    },
    Progress {
        searching: bool,
        counters: Counters,
    },
    /// The search ended; `status` is one of [`crate::status`].
    Done {
        status: u8,
        counters: Counters,
    },
    Error {
        code: ErrorCode,
        command: u8,
    },
}

/// A frame with a good CRC whose content makes no sense: the two sides do
/// not speak the same protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Malformed {
    pub kind: u8,
    pub length: usize,
}

impl fmt::Display for Malformed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the device sent a frame of type {:#04x} with {} payload bytes, which protocol version {VERSION} does not \
             have: flash a bitstream built from this version of knights",
            self.kind, self.length
        )
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Malformed {}

fn u48(bytes: &[u8]) -> u64 {
    bytes[..6].iter().rev().fold(0, |value, &b| value << 8 | u64::from(b))
}

fn counters(payload: &[u8]) -> Counters {
    Counters {
        tours: u48(&payload[1..]),
        nodes: u48(&payload[7..]),
        cycles: u48(&payload[13..]),
        engine_cycles: u48(&payload[19..]),
    }
}

impl Response {
    /// Parses a frame's type and payload.
    pub fn parse(kind: u8, payload: &[u8]) -> Result<Response, Malformed> {
        let malformed = || Malformed { kind, length: payload.len() };
        let length = payload.len();
        Ok(match kind {
            response::IDENTITY if length == usize::from(length::IDENTITY) => Response::Identity(Identity {
                version: payload[0],
                max_width: payload[1],
                max_height: payload[2],
                engines: payload[3],
                clock_hz: u32::from_le_bytes(payload[4..8].try_into().unwrap()),
                baud: u32::from_le_bytes(payload[8..12].try_into().unwrap()),
                warnsdorff: payload[12] & feature::WARNSDORFF != 0,
                prune: payload[12] & feature::PRUNE != 0,
                queens: payload[12] & feature::QUEENS != 0,
                constellations: payload[12] & feature::CONSTELLATIONS != 0,
                interleaved: payload[12] & feature::INTERLEAVED != 0,
                build_id: u32::from_le_bytes(payload[13..17].try_into().unwrap()),
            }),
            response::ACK if length == usize::from(length::ACK) => Response::Ack { command: payload[0] },
            response::TOUR if length >= TOUR_HEADER => Response::Tour {
                sequence: u32::from_le_bytes(payload[..4].try_into().unwrap()),
                engine: payload[4],
                job: u32::from_le_bytes(payload[5..9].try_into().unwrap()),
                squares: payload[TOUR_HEADER..].to_vec(),
            },
            response::PROGRESS if length == COUNTERS_LENGTH => {
                Response::Progress { searching: payload[0] & 1 != 0, counters: counters(payload) }
            }
            response::DONE if length == COUNTERS_LENGTH => {
                Response::Done { status: payload[0], counters: counters(payload) }
            }
            response::ERROR if length == usize::from(length::ERROR) => {
                Response::Error { code: ErrorCode::from_byte(payload[0]), command: payload[1] }
            }
            _ => return Err(malformed()),
        })
    }

    /// The response as a frame (what a device sends).
    pub fn encode(&self) -> Vec<u8> {
        let counters_payload = |first: u8, c: &Counters| {
            let mut payload = vec![first];
            for value in [c.tours, c.nodes, c.cycles, c.engine_cycles] {
                payload.extend_from_slice(&value.to_le_bytes()[..6]);
            }
            payload
        };
        match self {
            Response::Identity(id) => {
                let mut payload = vec![id.version, id.max_width, id.max_height, id.engines];
                payload.extend_from_slice(&id.clock_hz.to_le_bytes());
                payload.extend_from_slice(&id.baud.to_le_bytes());
                payload.push(
                    (u8::from(id.warnsdorff) * feature::WARNSDORFF)
                        | (u8::from(id.prune) * feature::PRUNE)
                        | (u8::from(id.queens) * feature::QUEENS)
                        | (u8::from(id.constellations) * feature::CONSTELLATIONS)
                        | (u8::from(id.interleaved) * feature::INTERLEAVED),
                );
                payload.extend_from_slice(&id.build_id.to_le_bytes());
                frame(response::IDENTITY, &payload)
            }
            Response::Ack { command } => frame(response::ACK, &[*command]),
            Response::Tour { sequence, engine, job, squares } => {
                let mut payload = sequence.to_le_bytes().to_vec();
                payload.push(*engine);
                payload.extend_from_slice(&job.to_le_bytes());
                payload.extend_from_slice(squares);
                frame(response::TOUR, &payload)
            }
            Response::Progress { searching, counters } => {
                frame(response::PROGRESS, &counters_payload(u8::from(*searching), counters))
            }
            Response::Done { status, counters } => frame(response::DONE, &counters_payload(*status, counters)),
            Response::Error { code, command } => frame(response::ERROR, &[code.to_byte(), *command]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solve_is_encoded_as_the_spec_shows() {
        let solve = Command::Solve(SolveRequest {
            width: 8,
            height: 8,
            file: 0,
            rank: 0,
            closed: true,
            warnsdorff: false,
            prune: true,
            count: false,
            limit: 1,
            split: 3,
            engines: 2,
            path: MovePath::new(&[5, 2]).unwrap(),
        });
        let bytes = solve.encode();
        // Moves 5 (101) and 2 (010): bit 0 of each in the first mask, and
        // so on, move k at bit k.
        let path = [2, 0b01, 0, 0b10, 0, 0b01, 0];
        assert_eq!(&bytes[..15], &[0xA5, 18, 0, 0x02, 8, 8, 0, 0, 9, 1, 0, 0, 0, 3, 2]);
        assert_eq!(&bytes[15..22], &path);
        assert_eq!(bytes.len(), 24);
        assert_eq!(u16::from_le_bytes([bytes[22], bytes[23]]), crc16(&bytes[..22]));
    }

    #[test]
    fn a_path_holds_at_most_sixteen_move_indices() {
        assert_eq!(MovePath::new(&[7; 16]).unwrap().moves(), &[7; 16]);
        assert!(MovePath::new(&[0; 17]).is_none());
        assert!(MovePath::new(&[8]).is_none());
        assert_eq!(MovePath::EMPTY.fields(), [0; 7]);
    }
}
