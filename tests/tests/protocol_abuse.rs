//! The protocol under abuse, against the simulated board at its UART pins:
//! every bad input gets the answer `docs/protocol.md` prescribes (an ERROR,
//! or silence for noise between frames), the device never hangs, and the
//! next good command is answered correctly.

use std::time::Duration;

use knights::fpga::link_fuzz;
use knights::link::proto::{self, code, crc16, frame, Command, ErrorCode, Response, SolveRequest};
use knights::link::transport::{SimTransport, Transport};
use knights::link::{Link, LinkedDevice};
use knights::tours::query::{self, Query};
use knights_model::tours::{MoveOrder, SearchSpec};
use knights_model::Flow;
use knights_model::{Goal, Status};

/// Longer than the device's frame timeout (10 ms of board time).
const QUIET: Duration = Duration::from_millis(20);

fn link() -> Link<SimTransport> {
    Link::new(SimTransport::new())
}

fn send_raw(link: &mut Link<SimTransport>, bytes: &[u8]) {
    link.transport().write_all(bytes).unwrap();
}

/// Everything the device says until it has been quiet for `QUIET`.
fn answers(link: &mut Link<SimTransport>) -> Vec<Response> {
    let mut all = Vec::new();
    while let Some(response) = link.receive(QUIET).unwrap() {
        all.push(response);
    }
    all
}

/// Everything the device says up to and including DONE (searches may run
/// longer than `QUIET` without a word), then checks it stays quiet.
fn answers_to_done(link: &mut Link<SimTransport>) -> Vec<Response> {
    let mut all = Vec::new();
    while !matches!(all.last(), Some(Response::Done { .. })) {
        match link.receive(Duration::from_secs(60)).unwrap() {
            Some(response) => all.push(response),
            None => panic!("no DONE after {all:?}"),
        }
    }
    all.extend(answers(link));
    all
}

fn solve(width: u8, height: u8, file: u8, rank: u8, count: bool) -> SolveRequest {
    SolveRequest {
        width,
        height,
        file,
        rank,
        closed: false,
        warnsdorff: false,
        prune: false,
        count,
        limit: 1,
        split: 0,
        engines: 0,
        path: knights::link::proto::MovePath::EMPTY,
    }
}

fn error(code: ErrorCode, command: u8) -> Response {
    Response::Error { code, command }
}

fn assert_identifies(link: &mut Link<SimTransport>) {
    link.send(&Command::Identify).unwrap();
    match answers(link).as_slice() {
        [Response::Identity(identity)] => assert_eq!((identity.max_width, identity.max_height), (8, 8)),
        other => panic!("IDENTIFY answered with {other:?}"),
    }
}

#[test]
fn each_bad_input_gets_its_error_and_the_device_goes_on() {
    let mut identify_bad_crc = Command::Identify.encode();
    identify_bad_crc[4] ^= 0x40;
    // SOLVE's payload changed at `at` (a byte past the header's four).
    let solve_with = |at: usize, value: u8, split: u8| {
        let mut bytes = Command::Solve(SolveRequest { split, ..solve(5, 5, 0, 0, true) }).encode();
        bytes[4 + at] = value;
        let end = bytes.len() - 2;
        let crc = crc16(&bytes[..end]).to_le_bytes();
        bytes[end..].copy_from_slice(&crc);
        bytes
    };
    let bad_flags = solve_with(4, 0x10, 0); // the first flag bit without a meaning
    let long_path = solve_with(11, 17, 0); // a path of 17 moves: more than a job holds
    let split_on_path = solve_with(11, 3, 3); // jobs at the path's end, not below it
    let solve_frame = Command::Solve(solve(5, 5, 0, 0, false)).encode();
    let cases: Vec<(&str, Vec<u8>, Response)> = vec![
        ("9x8 board", Command::Solve(solve(9, 8, 0, 0, true)).encode(), error(ErrorCode::BoardTooLarge, code::SOLVE)),
        ("8x9 board", Command::Solve(solve(8, 9, 0, 0, true)).encode(), error(ErrorCode::BoardTooLarge, code::SOLVE)),
        (
            "start f1 on 5x5",
            Command::Solve(solve(5, 5, 5, 0, true)).encode(),
            error(ErrorCode::StartOffBoard, code::SOLVE),
        ),
        (
            "start a6 on 5x5",
            Command::Solve(solve(5, 5, 0, 5, true)).encode(),
            error(ErrorCode::StartOffBoard, code::SOLVE),
        ),
        ("zero width", Command::Solve(solve(0, 5, 0, 0, true)).encode(), error(ErrorCode::BadArgument, code::SOLVE)),
        ("unknown flag", bad_flags, error(ErrorCode::BadArgument, code::SOLVE)),
        ("a path of 17 moves", long_path, error(ErrorCode::BadArgument, code::SOLVE)),
        ("a split level at the path's end", split_on_path, error(ErrorCode::BadArgument, code::SOLVE)),
        ("bad CRC", identify_bad_crc, error(ErrorCode::BadCrc, code::IDENTIFY)),
        ("unknown command", frame(0x7F, &[]), error(ErrorCode::UnknownCommand, 0x7F)),
        ("IDENTIFY with a payload", frame(code::IDENTIFY, &[1]), error(ErrorCode::BadLength, code::IDENTIFY)),
        ("SOLVE too short", frame(code::SOLVE, &[5, 5, 0, 0]), error(ErrorCode::BadLength, code::SOLVE)),
        ("length 300", vec![0xA5, 0x2C, 0x01, 0x02, 0, 0], error(ErrorCode::BadLength, 0)),
        ("truncated SOLVE", solve_frame[..7].to_vec(), error(ErrorCode::Truncated, code::SOLVE)),
        ("truncated in the length", solve_frame[..2].to_vec(), error(ErrorCode::Truncated, 0)),
    ];
    let mut link = link();
    for (what, bytes, expected) in cases {
        send_raw(&mut link, &bytes);
        assert_eq!(answers(&mut link), vec![expected], "{what}");
        assert_identifies(&mut link);
    }
}

#[test]
fn noise_between_frames_is_ignored() {
    let mut link = link();
    let noise: Vec<u8> = (0..=255u8).filter(|&b| b != 0xA5).collect();
    send_raw(&mut link, &noise);
    assert_eq!(answers(&mut link), vec![]);
    send_raw(&mut link, &noise);
    assert_identifies(&mut link);
    // A character with a low stop bit is dropped by the UART.
    link.transport().board().write_with_bad_stop_bit(0x5A);
    assert_eq!(answers(&mut link), vec![]);
    assert_identifies(&mut link);
}

#[test]
fn a_second_solve_is_refused_while_busy_and_abort_returns_to_idle() {
    let mut link = link();
    let long = SolveRequest { closed: true, ..solve(8, 8, 0, 0, true) };
    link.send(&Command::Solve(long)).unwrap();
    assert_eq!(link.receive(QUIET).unwrap(), Some(Response::Ack { command: code::SOLVE }));
    link.send(&Command::Solve(solve(5, 5, 0, 0, true))).unwrap();
    assert_eq!(link.receive(QUIET).unwrap(), Some(error(ErrorCode::Busy, code::SOLVE)));
    link.send(&Command::Status).unwrap();
    match link.receive(QUIET).unwrap() {
        Some(Response::Progress { searching: true, counters }) => assert!(counters.nodes > 0),
        other => panic!("STATUS while busy answered {other:?}"),
    }
    link.send(&Command::Abort).unwrap();
    assert_eq!(link.receive(QUIET).unwrap(), Some(Response::Ack { command: code::ABORT }));
    match link.receive(QUIET).unwrap() {
        Some(Response::Done { status: code::STATUS_ABORTED, counters }) => assert!(counters.nodes > 0),
        other => panic!("ABORT ended with {other:?}"),
    }
    link.send(&Command::Status).unwrap();
    match answers(&mut link).as_slice() {
        [Response::Progress { searching: false, .. }] => {}
        other => panic!("STATUS after ABORT answered {other:?}"),
    }
    // ABORT with nothing running is acknowledged and changes nothing.
    link.send(&Command::Abort).unwrap();
    assert_eq!(answers(&mut link), vec![Response::Ack { command: code::ABORT }]);
    link.send(&Command::Solve(solve(5, 5, 0, 0, true))).unwrap();
    let all = answers_to_done(&mut link);
    assert_eq!(all.first(), Some(&Response::Ack { command: code::SOLVE }));
    match all.last() {
        Some(Response::Done { status: code::STATUS_EXHAUSTED, counters }) => {
            assert_eq!((counters.tours, counters.nodes), (304, 1_735_079))
        }
        other => panic!("the search after ABORT ended with {other:?}"),
    }
}

#[test]
fn all_304_tours_of_5x5_arrive_through_the_uart_once_each() {
    let device = LinkedDevice::connect("sim", SimTransport::new(), Duration::from_secs(60)).unwrap();
    let mut device: Box<dyn knights::tours::TourDevice> = Box::new(device);
    let spec = SearchSpec {
        board: "5".parse().unwrap(),
        start: "a1".parse().unwrap(),
        closed: false,
        order: MoveOrder::Fixed,
        prune: false,
    };
    // `query::run` validates every tour and rejects duplicates; the link
    // checks the sequence numbers, so none can be missing either.
    let answer =
        query::run(device.as_mut(), Query { spec, goal: Goal::First(u64::MAX) }, &mut |_, _| Flow::Continue).unwrap();
    assert_eq!((answer.tours.len(), answer.tour_count, answer.status), (304, 304, Status::Exhausted));
    assert_eq!(answer.nodes, 1_735_079);
    // The engines shared the search; clocks they all spent waiting for the
    // UART to take a tour (back-pressure) are not search cycles.
    assert!(answer.cycles.unwrap() < answer.nodes, "{:?}", answer.cycles);
    let frame_bytes = (proto::OVERHEAD + proto::TOUR_HEADER + 25) as u64;
    assert!(answer.link.unwrap().bytes_received >= 304 * frame_bytes);
    let link = answer.link.unwrap();
    assert_eq!(link.bytes_skipped, 0);
    assert!(link.bytes_received >= 304 * 35);
}

/// Random damage: noise, truncated and corrupted frames, framing errors.
/// After each stream the line goes quiet, the device may only have answered
/// with ERROR frames, and then a good command must get its right answer
/// (`knights fuzz-link` runs the same with more streams).
#[test]
fn random_damage_never_stops_the_device() {
    // The default build, with a board's link timing (frames time out after
    // 10 ms).
    let report = link_fuzz::fuzz(SimTransport::new(), 30, 0x9E37_79B9_7F4A_7C15, QUIET).unwrap();
    assert!(report.errors_answered > 15, "{report:?}");
    // The fuzzing build (frames time out after 100 µs): ten times as many.
    let (board, quiet) = link_fuzz::fuzz_board(&mut |line| eprintln!("{line}")).unwrap();
    let report = link_fuzz::fuzz(board, 1_000, 7, quiet).unwrap();
    eprintln!("{report:?}");
    assert!(report.errors_answered > 500 && report.split_commands > 50, "{report:?}");
}

/// A host killed while writing a frame leaves half of it on the line: the
/// next session's first command must still succeed, with no retry by the
/// user (the device's frame timeout has not run out when it arrives).
#[test]
fn a_frame_cut_off_by_an_earlier_host_does_not_spoil_the_next_session() {
    let mut transport = SimTransport::new();
    let cut = Command::Solve(solve(5, 5, 0, 0, true)).encode();
    transport.write_all(&cut[..6]).unwrap();
    let mut device = LinkedDevice::connect("sim", transport, Duration::from_secs(60)).unwrap();
    let spec = SearchSpec {
        board: "5".parse().unwrap(),
        start: "a1".parse().unwrap(),
        closed: false,
        order: MoveOrder::Fixed,
        prune: true,
    };
    let answer = query::run(&mut device, Query { spec, goal: Goal::CountAll }, &mut |_, _| Flow::Continue).unwrap();
    assert_eq!((answer.tour_count, answer.nodes), (304, 8_855));
}

#[test]
fn connecting_aborts_a_search_an_earlier_session_left_running() {
    let mut link = link();
    let long = SolveRequest { closed: true, ..solve(8, 8, 0, 0, true) };
    link.send(&Command::Solve(long)).unwrap();
    assert_eq!(link.receive(QUIET).unwrap(), Some(Response::Ack { command: code::SOLVE }));
    // The host goes away without reading; a new one connects to the board.
    let transport = std::mem::replace(link.transport(), SimTransport::new());
    let mut device = LinkedDevice::connect("sim", transport, Duration::from_secs(60)).unwrap();
    let spec = SearchSpec {
        board: "5".parse().unwrap(),
        start: "a1".parse().unwrap(),
        closed: false,
        order: MoveOrder::Fixed,
        prune: false,
    };
    let answer = query::run(&mut device, Query { spec, goal: Goal::CountAll }, &mut |_, _| Flow::Continue).unwrap();
    assert_eq!((answer.tour_count, answer.nodes), (304, 1_735_079));
}
