//! The compact engine's accelerator under Verilator (the default simulated
//! compact build: four engines, boards up to 32x32), reached over its UART
//! through the host's link code, against the CPU reference: tours, tour
//! counts and node counts exactly equal, on one engine (the reference's
//! order) and shared by all four.

mod common;
use common::{connect, pruned, reference, spec, Tours};

use std::collections::HashSet;
use std::sync::OnceLock;

use knights::device::error::{DeviceError, LinkError};
use knights::device::{CpuDevice, Report};
use knights::link::proto::MAX_SPLIT_LEVEL;
use knights::link::transport::SimTransport;
use knights::link::LinkedDevice;
use knights::tours::query::{check_query, Query};
use knights::tours::TourDevice;
use knights_model::tours::parallel::PrefixJobs;
use knights_model::tours::validate::check_tour;
use knights_model::tours::{MoveOrder, SearchSpec, Searcher};
use knights_model::{BoardSize, Goal};
use knights_sim::Model;

/// The default compact build's model, made (or found in the cache) once.
fn model() -> std::sync::Arc<Model> {
    static MODEL: OnceLock<std::sync::Arc<Model>> = OnceLock::new();
    MODEL
        .get_or_init(|| knights::fpga::board_sim::default_compact(false, &mut |line| eprintln!("{line}")).unwrap())
        .clone()
}

fn device() -> LinkedDevice<SimTransport> {
    connect(model())
}

/// Runs both and checks they agree exactly: a count on every engine (and on
/// one), a first-K search on one engine, in the reference's order.
fn compare(device: &mut LinkedDevice<SimTransport>, spec: SearchSpec, goal: Goal) -> Report {
    let (expected, expected_tours) = reference(spec, goal);
    let what = format!(
        "{} from {} closed={} {} prune={} {goal:?}",
        spec.board, spec.start, spec.closed, spec.order, spec.prune
    );
    let splits: &[Option<u8>] = if goal == Goal::CountAll { &[None, Some(0)] } else { &[Some(0)] };
    let mut report = None;
    for &split in splits {
        let mut tours = Tours::default();
        device.set_split(split);
        let got = device.search(&spec, goal, &mut tours).unwrap();
        assert_eq!(got.tour_outcome(), expected, "{what}, split {split:?}");
        if let Goal::First(_) = goal {
            assert_eq!(tours.0, expected_tours, "{what}");
        }
        report.get_or_insert(got);
    }
    device.set_split(None);
    report.unwrap()
}

#[test]
fn the_compact_build_reports_itself() {
    let device = device();
    let identity = device.identity();
    assert_eq!((identity.max_width, identity.max_height, identity.engines), (32, 32, 4));
    assert!(identity.warnsdorff && identity.prune && !identity.queens);
    assert_eq!(device.max_board(), BoardSize::square(32));
}

#[test]
fn every_start_on_5x5_counts_exactly() {
    let mut device = device();
    let board = BoardSize::square(5);
    let (mut open, mut unpruned) = (0, 0);
    for start in board.squares() {
        let spec = SearchSpec { board, start, closed: false, order: MoveOrder::Fixed, prune: true };
        open += compare(&mut device, spec, Goal::CountAll).found;
        if start.index(board) % 6 == 0 {
            unpruned += compare(&mut device, SearchSpec { prune: false, ..spec }, Goal::CountAll).found;
        }
    }
    assert_eq!(open, 1728);
    assert!(unpruned > 0);
}

#[test]
fn rectangles_count_exactly() {
    let mut device = device();
    for board in ["4x3", "3x4", "5x4", "4x5", "6x4", "7x3", "3x7", "8x3", "1x1", "2x2", "8x2", "32x1", "6x5"] {
        let size: BoardSize = board.parse().unwrap();
        for start in size.squares().step_by(5) {
            let spec = SearchSpec { board: size, start, closed: false, order: MoveOrder::Fixed, prune: true };
            compare(&mut device, spec, Goal::CountAll);
        }
    }
}

#[test]
fn closed_tours_count_exactly() {
    let mut device = device();
    assert_eq!(compare(&mut device, pruned("6x5", "a1", true), Goal::CountAll).found, 16);
    assert_eq!(compare(&mut device, pruned("3x8", "a1", true), Goal::CountAll).found, 0);
    let warnsdorff = SearchSpec { order: MoveOrder::Warnsdorff, ..pruned("6x5", "b1", true) };
    compare(&mut device, warnsdorff, Goal::CountAll);
    // 9,862 closed tours of 6x6 (OEIS A001230), each found in both
    // directions from a1.
    let report = compare(&mut device, pruned("6", "a1", true), Goal::CountAll);
    assert_eq!(report.found, 19_724);
}

#[test]
fn first_k_streams_the_reference_tours_in_order() {
    let mut device = device();
    compare(&mut device, pruned("5", "a1", false), Goal::First(1));
    compare(&mut device, pruned("5", "c3", false), Goal::First(20));
    compare(&mut device, spec("6x4", "b1", false), Goal::First(300));
    compare(&mut device, pruned("5x6", "c3", true), Goal::First(5));
    compare(&mut device, pruned("8", "a1", true), Goal::First(2));
    let warnsdorff = SearchSpec { order: MoveOrder::Warnsdorff, ..pruned("6x5", "a1", false) };
    compare(&mut device, warnsdorff, Goal::First(40));
}

#[test]
fn first_k_on_all_engines_sends_k_valid_tours_and_stops() {
    let mut device = device();
    for (spec, k) in [(pruned("5", "a1", false), 1), (pruned("5", "c3", false), 20), (pruned("5x6", "c3", true), 5)] {
        let (expected, _) = reference(spec, Goal::First(k));
        let mut tours = Tours::default();
        let report = device.search(&spec, Goal::First(k), &mut tours).unwrap();
        assert_eq!((report.found, report.status), (expected.tours, expected.status));
        assert!(report.engines.unwrap().split_level > 0);
        for tour in &tours.0 {
            check_tour(spec.board, spec.start, spec.closed, tour).unwrap();
        }
        assert_eq!(tours.0.iter().collect::<HashSet<_>>().len(), tours.0.len(), "a tour came twice");
    }
    // Idle and exact afterwards: no engine was left running.
    compare(&mut device, pruned("5", "b2", false), Goal::CountAll);
}

#[test]
fn warnsdorff_first_tours_on_16x16_and_32x32() {
    // Boards past 256 squares send two bytes a square.
    let mut device = device();
    for (board, starts) in
        [("16", ["a1", "c3", "h8", "p16"]), ("17x16", ["a1", "q16", "e7", "b2"]), ("32", ["a1", "b7", "p16", "af32"])]
    {
        for start in starts {
            let spec = SearchSpec { order: MoveOrder::Warnsdorff, ..pruned(board, start, false) };
            let report = compare(&mut device, spec, Goal::First(1));
            assert_eq!(report.found, 1, "{board} from {start}");
        }
    }
    let closed = SearchSpec { order: MoveOrder::Warnsdorff, ..pruned("12", "a1", true) };
    compare(&mut device, closed, Goal::First(1));
}

#[test]
fn every_split_level_counts_exactly() {
    let mut device = device();
    for (board, closed) in [("5", false), ("6x5", true)] {
        let spec = pruned(board, "a1", closed);
        let (expected, _) = reference(spec, Goal::CountAll);
        for level in (1..=MAX_SPLIT_LEVEL).chain([spec.board.area() as u8 - 1]) {
            device.set_split(Some(level));
            let report = device.search(&spec, Goal::CountAll, &mut Tours::default()).unwrap();
            assert_eq!(report.tour_outcome(), expected, "{board} closed={closed} split at level {level}");
        }
    }
    device.set_split(None);
}

/// Counts below paths from the start (prefix jobs) equal the CPU's below
/// the same paths, shared and on one engine, and sum to the whole tree.
#[test]
fn counts_below_a_path_match_the_cpu_and_sum_to_the_whole_tree() {
    let mut device = device();
    let mut cpu = CpuDevice { threads: 1 };
    for (spec, min_jobs) in [
        (pruned("5", "a1", false), 2),
        (SearchSpec { order: MoveOrder::Warnsdorff, ..pruned("5", "c3", false) }, 12),
        (pruned("6x5", "b1", true), 40),
    ] {
        let whole = reference(spec, Goal::CountAll).0;
        let cut = PrefixJobs::split(&spec, min_jobs);
        let (mut tours, mut nodes) = (0, cut.nodes_above);
        for path in &cut.prefixes {
            let expected = cpu.count_from(&spec, path, &mut Tours::default()).unwrap().tour_outcome();
            for split in [None, Some(path.len() as u8 + 1), Some(0)] {
                device.set_split(split);
                let report = device.count_from(&spec, path, &mut Tours::default()).unwrap();
                assert_eq!(report.tour_outcome(), expected, "{} below {path:?}, split {split:?}", spec.board);
            }
            tours += expected.tours;
            nodes += expected.nodes;
        }
        assert_eq!((tours, nodes), (whole.tours, whole.nodes), "{}: {} jobs", spec.board, cut.prefixes.len());
    }
    // Sixteen moves, the most a device takes.
    let spec = pruned("6", "a1", false);
    let (_, first) = Searcher::new(spec).unwrap().tours(Goal::First(1));
    let path = &first[0][..17];
    let expected = cpu.count_from(&spec, path, &mut Tours::default()).unwrap().tour_outcome();
    device.set_split(Some(0));
    assert_eq!(device.count_from(&spec, path, &mut Tours::default()).unwrap().tour_outcome(), expected);
    device.set_split(None);
}

/// Cycles per node: a few clocks a node on each engine (the compact
/// engine's design figure is 8 at most), and four engines share a count.
#[test]
fn a_node_takes_a_few_clocks_and_engines_share_a_count() {
    let mut device = device();
    let spec = pruned("6x5", "a1", true);
    device.set_split(Some(0));
    let alone = device.search(&spec, Goal::CountAll, &mut Tours::default()).unwrap();
    device.set_split(Some(9));
    let shared = device.search(&spec, Goal::CountAll, &mut Tours::default()).unwrap();
    assert_eq!(alone.tour_outcome(), shared.tour_outcome());
    let per_node = alone.cycles.unwrap() as f64 / alone.nodes as f64;
    assert!((2.0..8.0).contains(&per_node), "{per_node} cycles per node");
    let engines = shared.engines.unwrap();
    assert_eq!(engines.engines, 4);
    assert!(engines.split_level > 0);
    assert!(
        shared.cycles.unwrap() * 2 < alone.cycles.unwrap(),
        "four engines: {} cycles, one: {}",
        shared.cycles.unwrap(),
        alone.cycles.unwrap()
    );
}

#[test]
fn a_board_past_the_build_is_refused_with_its_limit_and_the_builds_that_take_it() {
    let device = device();
    let query = Query { spec: pruned("33x8", "a1", false), goal: Goal::First(1) };
    let error = check_query(&device, &query).unwrap_err();
    let text = error.to_string();
    assert!(text.contains("33x8") && text.contains("1 to 32 files"), "{text}");
    assert!(text.contains("the CPU device does"), "no build takes it: {text}");
    // The device refuses it too, if asked anyway.
    let mut device = device;
    let refused = device.search(&query.spec, query.goal, &mut Tours::default()).unwrap_err();
    assert!(matches!(refused, DeviceError::Link(LinkError::Refused { .. })), "{refused}");
}
