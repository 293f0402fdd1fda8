//! The link protocol's numbers as the hardware sees them. The protocol is
//! specified in `docs/protocol.md`; the host's `knights::proto` implements
//! the other side, and a test checks that both agree on these values.

/// First byte of every frame.
pub const SYNC: u64 = 0xA5;
/// Protocol version reported by IDENTIFY.
pub const VERSION: u64 = 2;

/// Command types (host to device).
pub const CMD_IDENTIFY: u64 = 0x01;
pub const CMD_SOLVE: u64 = 0x02;
pub const CMD_ABORT: u64 = 0x03;
pub const CMD_STATUS: u64 = 0x04;
/// Payload length of SOLVE; the other commands have none.
pub const SOLVE_LENGTH: u64 = 11;
/// The deepest split level a SOLVE may ask for: a job is handed from engine
/// to engine as its path, three bits per level.
pub const MAX_SPLIT_LEVEL: u64 = 16;

/// Response types (device to host).
pub const RSP_IDENTITY: u64 = 0x81;
pub const RSP_ACK: u64 = 0x82;
pub const RSP_TOUR: u64 = 0x83;
pub const RSP_PROGRESS: u64 = 0x84;
pub const RSP_DONE: u64 = 0x85;
pub const RSP_ERROR: u64 = 0x86;
/// Payload lengths of the fixed-size responses.
pub const IDENTITY_LENGTH: u64 = 13;
pub const ACK_LENGTH: u64 = 1;
pub const PROGRESS_LENGTH: u64 = 25;
pub const DONE_LENGTH: u64 = 25;
/// TOUR's payload before the squares: sequence number, engine, job.
pub const TOUR_HEADER_LENGTH: u64 = 9;
pub const ERROR_LENGTH: u64 = 2;

/// SOLVE flag bits.
pub const FLAG_CLOSED: u64 = 1;
pub const FLAG_WARNSDORFF: u64 = 2;
pub const FLAG_COUNT: u64 = 4;
pub const FLAG_PRUNE: u64 = 8;

/// ERROR codes.
pub const ERR_BAD_CRC: u64 = 1;
pub const ERR_BAD_LENGTH: u64 = 2;
pub const ERR_UNKNOWN_COMMAND: u64 = 3;
pub const ERR_TRUNCATED: u64 = 4;
pub const ERR_BUSY: u64 = 5;
pub const ERR_BOARD_TOO_LARGE: u64 = 6;
pub const ERR_START_OFF_BOARD: u64 = 7;
pub const ERR_BAD_ARGUMENT: u64 = 8;

/// IDENTITY feature bits.
pub const FEATURE_WARNSDORFF: u64 = 1;
pub const FEATURE_PRUNE: u64 = 2;
