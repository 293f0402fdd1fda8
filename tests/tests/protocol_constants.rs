//! The hardware (`knights_rtl::protocol`) and the host (`knights::proto`)
//! implement `docs/protocol.md` separately; their numbers must agree.

use knights::proto::{self, code, Command, ErrorCode, Response, SolveRequest};
use knights_rtl::protocol as rtl;

#[test]
fn both_sides_use_the_same_numbers() {
    let pairs: [(u64, u8); 25] = [
        (rtl::SYNC, proto::SYNC),
        (rtl::MAX_SPLIT_LEVEL, proto::MAX_SPLIT_LEVEL),
        (rtl::VERSION, proto::VERSION),
        (rtl::CMD_IDENTIFY, code::IDENTIFY),
        (rtl::CMD_SOLVE, code::SOLVE),
        (rtl::CMD_ABORT, code::ABORT),
        (rtl::CMD_STATUS, code::STATUS),
        (rtl::RSP_IDENTITY, code::IDENTITY),
        (rtl::RSP_ACK, code::ACK),
        (rtl::RSP_TOUR, code::TOUR),
        (rtl::RSP_PROGRESS, code::PROGRESS),
        (rtl::RSP_DONE, code::DONE),
        (rtl::RSP_ERROR, code::ERROR),
        (rtl::FLAG_CLOSED, code::FLAG_CLOSED),
        (rtl::FLAG_WARNSDORFF, code::FLAG_WARNSDORFF),
        (rtl::FLAG_COUNT, code::FLAG_COUNT),
        (rtl::FLAG_PRUNE, code::FLAG_PRUNE),
        (rtl::FEATURE_WARNSDORFF, code::FEATURE_WARNSDORFF),
        (rtl::FEATURE_PRUNE, code::FEATURE_PRUNE),
        (knights_rtl::engine::STATUS_FOUND, code::STATUS_FOUND),
        (knights_rtl::engine::STATUS_EXHAUSTED, code::STATUS_EXHAUSTED),
        (knights_rtl::engine::STATUS_ABORTED, code::STATUS_ABORTED),
        (rtl::ERR_BAD_CRC, ErrorCode::BadCrc.to_byte()),
        (rtl::ERR_BAD_LENGTH, ErrorCode::BadLength.to_byte()),
        (rtl::ERR_UNKNOWN_COMMAND, ErrorCode::UnknownCommand.to_byte()),
    ];
    for (hardware, host) in pairs {
        assert_eq!(hardware, u64::from(host));
    }
    for (hardware, host) in [
        (rtl::ERR_TRUNCATED, ErrorCode::Truncated),
        (rtl::ERR_BUSY, ErrorCode::Busy),
        (rtl::ERR_BOARD_TOO_LARGE, ErrorCode::BoardTooLarge),
        (rtl::ERR_START_OFF_BOARD, ErrorCode::StartOffBoard),
        (rtl::ERR_BAD_ARGUMENT, ErrorCode::BadArgument),
    ] {
        assert_eq!(hardware, u64::from(host.to_byte()));
    }
}

#[test]
fn payload_lengths_agree() {
    let solve = Command::Solve(SolveRequest {
        width: 1,
        height: 1,
        file: 0,
        rank: 0,
        closed: false,
        warnsdorff: false,
        prune: true,
        count: true,
        limit: 0,
        split: 0,
        engines: 0,
    });
    assert_eq!(solve.encode().len() as u64, rtl::SOLVE_LENGTH + proto::OVERHEAD as u64);
    let progress = Response::Progress { searching: true, counters: Default::default() };
    assert_eq!(progress.encode().len() as u64, rtl::PROGRESS_LENGTH + proto::OVERHEAD as u64);
    let done = Response::Done { status: 1, counters: Default::default() };
    assert_eq!(done.encode().len() as u64, rtl::DONE_LENGTH + proto::OVERHEAD as u64);
    let error = Response::Error { code: ErrorCode::Busy, command: 2 };
    assert_eq!(error.encode().len() as u64, rtl::ERROR_LENGTH + proto::OVERHEAD as u64);
    assert_eq!(Response::Ack { command: 1 }.encode().len() as u64, rtl::ACK_LENGTH + proto::OVERHEAD as u64);
    let tour = Response::Tour { sequence: 1, engine: 0, job: 0, squares: Vec::new() };
    assert_eq!(tour.encode().len() as u64, rtl::TOUR_HEADER_LENGTH + proto::OVERHEAD as u64);
}
