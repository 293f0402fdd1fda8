//! The link between a host and a knights device, as `docs/protocol.md`
//! specifies it. Its numbers (this module) and [`crc`] are `no_std`: the one
//! definition that the hardware (`knights-rtl`, which builds them into the
//! accelerator) and the host both use. With the `alloc` feature (on by
//! default, through `std`), [`codec`] and [`decoder`] turn messages into
//! frames and back; the host re-exports them as `knights::proto`.
//!
//! A frame is `SYNC`, a 16-bit little-endian payload length, a type byte,
//! the payload, and a CRC-16 of everything before it.
#![no_std]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

#[cfg(feature = "alloc")]
pub mod codec;
pub mod crc;
#[cfg(feature = "alloc")]
pub mod decoder;
pub mod design;

/// First byte of every frame.
pub const SYNC: u8 = 0xA5;
/// Protocol version, reported in IDENTITY; a host refuses any other.
pub const VERSION: u8 = 7;
/// The deepest split level a SOLVE may ask for: a job is handed from engine
/// to engine as its path, three bits per level.
pub const MAX_SPLIT_LEVEL: u8 = 16;
/// The most moves a SOLVE's path may hold (the job the search is confined
/// to; three bits a move, as a split search's jobs).
pub const MAX_PATH_MOVES: u8 = 16;
/// A TOUR's squares are one byte each from a build whose largest board has
/// up to this many squares (their numbers, `rank * max_width + file`, are
/// below it), two bytes (little-endian) each from a larger build.
pub const BYTE_SQUARES: usize = 256;

/// Bytes a square takes in a TOUR from a build whose largest board has
/// `squares` squares.
pub const fn square_bytes(squares: usize) -> usize {
    if squares > BYTE_SQUARES {
        2
    } else {
        1
    }
}

/// The deepest split level a QUEENS may ask for: a job is handed on as its
/// queens' files, five bits a rank.
pub const MAX_QUEENS_SPLIT_LEVEL: u8 = 9;

/// Command types (host to device).
pub mod command {
    pub const IDENTIFY: u8 = 0x01;
    pub const SOLVE: u8 = 0x02;
    pub const ABORT: u8 = 0x03;
    pub const STATUS: u8 = 0x04;
    /// SOLVE for an N-Queens build (same payload length, its own fields).
    pub const QUEENS: u8 = 0x05;
}

/// Response types (device to host).
pub mod response {
    pub const IDENTITY: u8 = 0x81;
    pub const ACK: u8 = 0x82;
    pub const TOUR: u8 = 0x83;
    pub const PROGRESS: u8 = 0x84;
    pub const DONE: u8 = 0x85;
    pub const ERROR: u8 = 0x86;
}

/// Payload lengths (the other commands have none; TOUR's is its header plus
/// a byte per square).
pub mod length {
    /// SOLVE and QUEENS.
    pub const SOLVE: u16 = 18;
    pub const IDENTITY: u16 = 17;
    pub const ACK: u16 = 1;
    /// PROGRESS and DONE: status, then tours, nodes, cycles and engine cycles.
    pub const COUNTERS: u16 = 25;
    /// TOUR's payload before the squares: sequence number, engine, job.
    pub const TOUR_HEADER: u16 = 9;
    pub const ERROR: u16 = 2;
}

/// SOLVE flag bits.
pub mod flag {
    pub const CLOSED: u8 = 1;
    pub const WARNSDORFF: u8 = 2;
    pub const COUNT: u8 = 4;
    pub const PRUNE: u8 = 8;
    /// QUEENS, with COUNT: count from the constellations of the board's
    /// edges (feature `CONSTELLATIONS`), the jobs made on the device.
    pub const CONSTELLATIONS: u8 = 16;
}

/// IDENTITY feature bits: what the build's engines can do.
pub mod feature {
    pub const WARNSDORFF: u8 = 1;
    pub const PRUNE: u8 = 2;
    /// The build solves N-Queens (QUEENS) instead of knight's tours (SOLVE).
    pub const QUEENS: u8 = 4;
    /// The N-Queens build counts from constellations (QUEENS's flag
    /// `CONSTELLATIONS`).
    pub const CONSTELLATIONS: u8 = 8;
    /// The engines are interleaved, of
    /// [`crate::design::INTERLEAVED_SEARCHES`] searches each: they count,
    /// and refuse a first-K search.
    pub const INTERLEAVED: u8 = 16;
}

/// How a search ended (DONE's status byte).
pub mod status {
    /// The requested number of tours was found.
    pub const FOUND: u8 = 1;
    /// The whole tree was searched.
    pub const EXHAUSTED: u8 = 2;
    /// The search was cancelled.
    pub const ABORTED: u8 = 3;
}

/// ERROR codes.
pub mod error {
    pub const BAD_CRC: u8 = 1;
    pub const BAD_LENGTH: u8 = 2;
    pub const UNKNOWN_COMMAND: u8 = 3;
    pub const TRUNCATED: u8 = 4;
    pub const BUSY: u8 = 5;
    pub const BOARD_TOO_LARGE: u8 = 6;
    pub const START_OFF_BOARD: u8 = 7;
    pub const BAD_ARGUMENT: u8 = 8;
    /// SOLVE to an N-Queens build, or QUEENS to a knight's-tour build.
    pub const WRONG_PROBLEM: u8 = 9;
}
