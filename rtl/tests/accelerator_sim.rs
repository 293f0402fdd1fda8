//! The accelerator in rust-hdl's own simulator, spoken to over its UART:
//! what a build without Warnsdorff's order reports, refuses and still does.
//! (The Verilator-simulated board, with every feature, is in
//! `tests/tests/simulated_board.rs`.)

use std::sync::{Arc, Mutex};

use knights_model::tours::{MoveOrder, Outcome, SearchSpec, Searcher};

use knights_model::{BoardSize, Goal, Square};
use knights_protocol::codec::{Command, ErrorCode, Response, SolveRequest};
use knights_protocol::decoder::FrameDecoder;
use knights_protocol::{command, status};
use knights_rtl::platform::{Accelerator, LinkSettings};
use knights_rtl::tours::wide::bank::WideBank;
use rust_hdl::prelude::*;

const MAX: (usize, usize) = (4, 3);

/// Sends `commands` back to back to a one-engine 4x3 accelerator and returns
/// every frame it sends within `clocks`.
fn converse(warnsdorff: bool, commands: &[Command], clocks: usize) -> Vec<Response> {
    let link = LinkSettings::simulation();
    let bit = link.clocks_per_bit() as usize;
    // The line the host drives: idle high, then each byte as a start bit,
    // eight data bits (least significant first) and a stop bit.
    let mut rx = vec![true; 4 * bit];
    for byte in commands.iter().flat_map(|c| c.encode()) {
        let bits = std::iter::once(false).chain((0..8).map(|b| byte >> b & 1 == 1)).chain(std::iter::once(true));
        rx.extend(bits.flat_map(|level| std::iter::repeat_n(level, bit)));
    }
    rx.resize(rx.len().max(clocks), true);

    let mut uut = Accelerator::new(WideBank::<12, 4>::new(MAX.0, MAX.1, 1, warnsdorff), link);
    uut.connect_all();
    let tx = Arc::new(Mutex::new(Vec::with_capacity(rx.len())));
    let seen = tx.clone();
    let mut sim = Simulation::new();
    sim.add_clock(5, |x: &mut Box<Accelerator<WideBank<12, 4>>>| x.clock.next = !x.clock.val());
    sim.add_testbench(move |mut sim: Sim<Accelerator<WideBank<12, 4>>>| {
        let mut x = sim.init()?;
        for &level in &rx {
            x.uart_rx.next = level;
            wait_clock_cycle!(sim, clock, x);
            seen.lock().unwrap().push(x.uart_tx.val());
        }
        sim.done(x)
    });
    sim.run(Box::new(uut), 100 * clocks as u64).unwrap();

    // The device's line, read back as bytes: sample each bit mid-way.
    let tx = tx.lock().unwrap();
    let mut bytes = Vec::new();
    let mut at = 1;
    while at + 10 * bit <= tx.len() {
        if tx[at - 1] && !tx[at] {
            let sample = |k: usize| tx[at + k * bit + bit / 2];
            bytes.push((0..8).fold(0u8, |byte, b| byte | u8::from(sample(b + 1)) << b));
            assert!(sample(9), "a stop bit is high");
            at += 10 * bit - bit / 2;
        } else {
            at += 1;
        }
    }
    let mut frames = FrameDecoder::new(1024);
    frames.push(&bytes);
    std::iter::from_fn(|| frames.next_frame()).map(|frame| frame.expect("a well-formed frame")).collect()
}

/// The CPU reference's outcome for the first open tour of 4x3 from a1, unpruned.
fn reference(order: MoveOrder) -> Outcome {
    let spec = SearchSpec { order, ..SearchSpec::exhaustive(BoardSize::new(4, 3), Square::new(0, 0), false) };
    Searcher::new(spec).unwrap().tours(Goal::First(1)).0
}

/// SOLVE: the first open tour of 4x3 from a1, unpruned (the orders find the
/// same tour, after different numbers of nodes).
fn first_tour(order: MoveOrder) -> Command {
    Command::Solve(SolveRequest {
        width: 4,
        height: 3,
        file: 0,
        rank: 0,
        closed: false,
        warnsdorff: order == MoveOrder::Warnsdorff,
        prune: false,
        count: false,
        limit: 1,
        split: 0,
        engines: 0,
        path: knights_protocol::codec::MovePath::EMPTY,
    })
}

/// The DONE frame's status and node count, checking that one TOUR came.
fn outcome(answers: &[Response]) -> (u8, u64) {
    let tours = answers.iter().filter(|a| matches!(a, Response::Tour { .. })).count();
    assert_eq!(tours, 1, "{answers:?}");
    let Some(Response::Done { status, counters }) = answers.last() else { panic!("a DONE last: {answers:?}") };
    (*status, counters.nodes)
}

#[test]
fn a_build_without_warnsdorff_says_so_and_refuses_it() {
    let commands = [Command::Identify, first_tour(MoveOrder::Warnsdorff), first_tour(MoveOrder::Fixed)];
    let answers = converse(false, &commands, 10_000);
    let Some(Response::Identity(identity)) = answers.first() else { panic!("IDENTITY first: {answers:?}") };
    assert!(!identity.warnsdorff && identity.prune, "{identity:?}");
    assert_eq!(
        answers.get(1),
        Some(&Response::Error { code: ErrorCode::BadArgument, command: command::SOLVE }),
        "{answers:?}"
    );
    // The fixed order still runs.
    assert_eq!(answers.get(2), Some(&Response::Ack { command: command::SOLVE }), "{answers:?}");
    let expected = reference(MoveOrder::Fixed);
    assert_eq!(outcome(&answers), (status::FOUND, expected.nodes));
}

#[test]
fn a_build_with_warnsdorff_says_so_and_runs_it() {
    let answers = converse(true, &[Command::Identify, first_tour(MoveOrder::Warnsdorff)], 10_000);
    let Some(Response::Identity(identity)) = answers.first() else { panic!("IDENTITY first: {answers:?}") };
    assert!(identity.warnsdorff && identity.prune, "{identity:?}");
    assert_eq!(answers.get(1), Some(&Response::Ack { command: command::SOLVE }), "{answers:?}");
    let expected = reference(MoveOrder::Warnsdorff);
    let fixed = reference(MoveOrder::Fixed);
    assert_ne!(expected.nodes, fixed.nodes, "the orders must differ here for the test to tell them apart");
    assert_eq!(outcome(&answers), (status::FOUND, expected.nodes));
}
