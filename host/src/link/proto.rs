//! The link protocol of `docs/protocol.md`, host side: frames, commands and
//! responses, and a decoder that finds frames in a damaged byte stream.
//!
//! The codec lives in `knights_protocol` (beside the numbers the hardware
//! uses); this module keeps the names the host has always used for it. The
//! link layer (`link`) adds I/O and clocks.

pub use knights_protocol::codec::{
    frame, Command, Counters, ErrorCode, Identity, Malformed, MovePath, QueensRequest, Response, SolveRequest,
    COUNTERS_LENGTH, OVERHEAD, TOUR_HEADER,
};
pub use knights_protocol::crc::crc16;
pub use knights_protocol::decoder::FrameDecoder;
pub use knights_protocol::{square_bytes, MAX_PATH_MOVES, MAX_QUEENS_SPLIT_LEVEL, MAX_SPLIT_LEVEL, SYNC, VERSION};

pub mod code {
    //! Type bytes and numbers (defined in `knights_protocol`, for the
    //! hardware too), under the names the host uses.
    pub use knights_protocol::command::{ABORT, IDENTIFY, QUEENS, SOLVE, STATUS};
    pub use knights_protocol::feature::{
        PRUNE as FEATURE_PRUNE, QUEENS as FEATURE_QUEENS, WARNSDORFF as FEATURE_WARNSDORFF,
    };
    pub use knights_protocol::flag::{
        CLOSED as FLAG_CLOSED, COUNT as FLAG_COUNT, PRUNE as FLAG_PRUNE, WARNSDORFF as FLAG_WARNSDORFF,
    };
    pub use knights_protocol::response::{ACK, DONE, ERROR, IDENTITY, PROGRESS, TOUR};
    pub use knights_protocol::status::{
        ABORTED as STATUS_ABORTED, EXHAUSTED as STATUS_EXHAUSTED, FOUND as STATUS_FOUND,
    };
}
