//! The interleaved engines' accelerator under Verilator (the default
//! simulated interleaved build: four engines of five searches, boards up to
//! 6x6), reached over its UART through the host's link code, against the
//! CPU reference: tour counts and node counts exactly equal, shared by every
//! search or on the walker's one; first-K refused. One engine alone (its
//! visited squares in block RAM) shares a count among its own five searches.

mod common;
use common::{connect, pruned, reference, Tours};

use std::sync::OnceLock;

use knights::device::error::{DeviceError, RequestError};
use knights::device::Report;
use knights::fpga::board_sim;
use knights::fpga::{Design, EngineKind};
use knights::link::transport::SimTransport;
use knights::link::LinkedDevice;
use knights::tours::TourDevice;
use knights_model::tours::{MoveOrder, SearchSpec};
use knights_model::{BoardSize, Goal};
use knights_sim::Model;

/// The default interleaved build's model, made (or found in the cache) once.
fn model() -> std::sync::Arc<Model> {
    static MODEL: OnceLock<std::sync::Arc<Model>> = OnceLock::new();
    MODEL
        .get_or_init(|| knights::fpga::board_sim::default_interleaved(false, &mut |line| eprintln!("{line}")).unwrap())
        .clone()
}

fn device() -> LinkedDevice<SimTransport> {
    connect(model())
}

/// Runs the search on the device at `split` (`None`: the host's choice) and
/// checks it against the reference, tours too for first-K.
fn compare(device: &mut LinkedDevice<SimTransport>, spec: SearchSpec, goal: Goal, split: Option<u8>) -> Report {
    let (expected, expected_tours) = reference(spec, goal);
    let what = format!(
        "{} from {} closed={} {} prune={} {goal:?}",
        spec.board, spec.start, spec.closed, spec.order, spec.prune
    );
    let mut tours = Tours::default();
    device.set_split(split);
    let got = device.search(&spec, goal, &mut tours).unwrap();
    device.set_split(None);
    assert_eq!(got.tour_outcome(), expected, "{what}, split {split:?}");
    if let Goal::First(_) = goal {
        assert_eq!(tours.0, expected_tours, "{what}");
    }
    got
}

#[test]
fn the_interleaved_build_reports_itself() {
    let device = device();
    let identity = device.identity();
    assert_eq!((identity.max_width, identity.max_height, identity.engines), (6, 6, 4));
    assert!(identity.prune && identity.interleaved && !identity.queens);
    // Four engines of five searches: the host splits a search for twenty.
    assert_eq!(identity.searches(identity.engines), 20);
}

#[test]
fn every_start_on_5x5_counts_exactly_shared_and_on_one_search() {
    let mut device = device();
    let board = BoardSize::square(5);
    let mut open = 0;
    for start in board.squares() {
        let spec = SearchSpec { board, start, closed: false, order: MoveOrder::Fixed, prune: true };
        open += compare(&mut device, spec, Goal::CountAll, None).found;
        if start.index(board) % 6 == 0 {
            compare(&mut device, spec, Goal::CountAll, Some(0));
            compare(&mut device, SearchSpec { prune: false, ..spec }, Goal::CountAll, Some(3));
        }
    }
    // OEIS A165134: 1,728 open tours of 5x5 from every start.
    assert_eq!(open, 1728);
}

#[test]
fn rectangles_closed_tours_and_warnsdorff_counts_exactly() {
    let mut device = device();
    for board in ["4x3", "3x4", "5x4", "6x4", "6x5", "1x1", "2x2"] {
        let size: BoardSize = board.parse().unwrap();
        for start in size.squares().step_by(5) {
            let spec = SearchSpec { board: size, start, closed: false, order: MoveOrder::Fixed, prune: true };
            compare(&mut device, spec, Goal::CountAll, None);
        }
    }
    for start in ["a1", "c2"] {
        compare(&mut device, pruned("6x5", start, true), Goal::CountAll, Some(3));
    }
    let warnsdorff = SearchSpec { order: MoveOrder::Warnsdorff, ..pruned("5", "b1", false) };
    compare(&mut device, warnsdorff, Goal::CountAll, Some(2));
}

#[test]
fn a_first_k_search_is_refused_with_what_to_run_instead() {
    let mut device = device();
    let error = device.search(&pruned("5", "a1", false), Goal::First(20), &mut Tours::default()).unwrap_err();
    assert!(matches!(error, DeviceError::Request(RequestError::CountsOnly { .. })), "{error}");
    assert!(error.to_string().contains("knights count"), "{error}");
    // The device still counts.
    compare(&mut device, pruned("5", "a1", false), Goal::CountAll, None);
}

#[test]
fn the_closed_6x6_count_is_exact_and_twenty_searches_share_it() {
    let mut device = device();
    let spec = pruned("6", "a1", true);
    let shared = compare(&mut device, spec, Goal::CountAll, None);
    let alone = compare(&mut device, spec, Goal::CountAll, Some(0));
    let (shared_cycles, alone_cycles) = (shared.cycles.unwrap(), alone.cycles.unwrap());
    eprintln!(
        "closed 6x6 from a1: {} nodes; {shared_cycles} cycles shared, {alone_cycles} on one search",
        shared.nodes
    );
    // The walker alone counts about two nodes a clock (dead children in the
    // clock that judges them); each worker adds about one.
    assert!(shared_cycles * 2 < alone_cycles, "{shared_cycles} cycles shared against {alone_cycles} alone");
}

#[test]
fn one_engine_alone_shares_a_count_among_its_five_searches() {
    // As the Alchitry Cu's counting build is made: its searches' visited
    // squares wait in block RAM between passes (the default build carries
    // them in registers).
    let design = Design {
        kind: EngineKind::Interleaved,
        max_width: 6,
        max_height: 6,
        engines: 1,
        visited_in_block_ram: true,
        ..knights_sim::DESIGN
    };
    let model = board_sim::at_its_baud("interleaved-one", &design, &mut |line| eprintln!("{line}")).unwrap();
    let mut device = connect(model);
    assert_eq!(device.identity().searches(device.identity().engines), 5);
    let spec = pruned("6", "a1", true);
    let shared = compare(&mut device, spec, Goal::CountAll, None);
    let alone = compare(&mut device, spec, Goal::CountAll, Some(0));
    let (shared_cycles, alone_cycles) = (shared.cycles.unwrap(), alone.cycles.unwrap());
    eprintln!("closed 6x6 from a1 on one engine: {shared_cycles} cycles shared, {alone_cycles} on one search");
    assert!(shared_cycles * 2 < alone_cycles, "{shared_cycles} cycles shared against {alone_cycles} alone");
}
