//! The compact engine in rust-hdl's own simulator, compared with the CPU
//! reference search node for node: counts, first-K streams under
//! back-pressure, both move orders, pruning, closed tours, and searches
//! below a path.

use std::sync::{Arc, Mutex};

use knights_model::tours::moves::path_moves;
use knights_model::tours::TourList;
use knights_model::tours::{MoveOrder, SearchSpec, Searcher};
use knights_model::{Goal, Square};
use knights_protocol::codec::{MovePath, SolveRequest};
use knights_rtl::platform::job_queue::JobQueue;
use knights_rtl::platform::JobRole;
use knights_rtl::platform::{engine_bit, MAX_ENGINES};
use knights_rtl::tours::compact::CompactEngine;
use rust_hdl::prelude::*;

/// What the engine put out, as the accelerator would see it.
#[derive(Debug, Default, Clone, PartialEq)]
struct Run {
    tours: Vec<Vec<Square>>,
    tour_count: u64,
    nodes: u64,
    cycles: u64,
}

/// Runs one search below `path` (the start square first) on a compact
/// engine for boards up to 6×6, cancelling it after `K` tours streamed as
/// the platform does, with the stream stalled every `stall_every` clocks.
fn simulate(spec: SearchSpec, path: &[Square], goal: Goal, stall_every: u64) -> Run {
    const MAX: usize = 6;
    type Uut = CompactEngine<7, 6, 6, 7>;
    let mut uut = Uut::new(MAX, MAX, JobRole::Walker);
    let moves = MovePath::new(&path_moves(path).expect("knight's moves")).expect("16 moves at most");
    uut.connect_all();
    let result = Arc::new(Mutex::new(Run::default()));
    let out = result.clone();
    let mut sim = Simulation::new();
    sim.add_clock(5, |x: &mut Box<Uut>| x.clock.next = !x.clock.val());
    sim.add_testbench(move |mut sim: Sim<Uut>| {
        let mut x = sim.init()?;
        wait_clock_true!(sim, clock, x);
        let request = SolveRequest {
            width: spec.board.width as u8,
            height: spec.board.height as u8,
            file: spec.start.file as u8,
            rank: spec.start.rank as u8,
            closed: spec.closed,
            warnsdorff: spec.order == MoveOrder::Warnsdorff,
            prune: spec.prune,
            count: goal == Goal::CountAll,
            limit: 0,
            split: 0,
            engines: 0,
            path: moves,
        };
        let arguments = &request.payload()[..5];
        x.port.arguments.next = arguments.iter().rev().fold(0u64, |acc, &b| acc << 8 | u64::from(b)).into();
        x.port.path.next = moves.sliced().into();
        x.port.path_length.next = (moves.moves().len() as u64).into();
        wait_clock_cycle!(sim, clock, x);
        sim_assert_eq!(sim, x.port.refusal.val().to_u64(), 0, x);
        x.port.start.next = true;
        wait_clock_cycle!(sim, clock, x);
        x.port.start.next = false;
        let limit = match goal {
            Goal::First(k) => k,
            Goal::CountAll => u64::MAX,
        };
        let (mut tour, mut streamed) = (Vec::new(), 0u64);
        let (mut clock, mut tour_count, mut nodes, mut cycles, mut after_done) = (0u64, 0u64, 0u64, 0u64, 0);
        loop {
            x.port.item_ready.next = stall_every == 0 || clock % stall_every != 0;
            x.port.cancel.next = streamed >= limit;
            wait_clock_false!(sim, clock, x);
            if x.port.item_valid.val() && x.port.item_ready.val() {
                let index = x.port.item.val().index();
                tour.push(Square::new((index % MAX) as u16, (index / MAX) as u16));
                if x.port.item_last.val() {
                    streamed += 1;
                    out.lock().unwrap().tours.push(std::mem::take(&mut tour));
                }
            }
            nodes += x.port.nodes.val().to_u64();
            tour_count += x.port.solutions.val().to_u64();
            if x.port.busy.val() {
                cycles += 1;
            } else if cycles > 0 {
                after_done += 1;
            }
            if after_done == 2 {
                let mut run = out.lock().unwrap();
                run.tour_count = tour_count + run.tours.len() as u64;
                run.nodes = nodes;
                run.cycles = cycles;
                break;
            }
            wait_clock_true!(sim, clock, x);
            clock += 1;
        }
        sim.done(x)
    });
    sim.run(Box::new(uut), 500_000_000).unwrap();
    let run = result.lock().unwrap().clone();
    run
}

fn spec(board: &str, start: &str, closed: bool, order: MoveOrder, prune: bool) -> SearchSpec {
    SearchSpec { board: board.parse().unwrap(), start: start.parse().unwrap(), closed, order, prune }
}

/// Checks a count and a first-K stream against the reference.
fn check(spec: SearchSpec, path: &[Square], k: u64) {
    let searcher = Searcher::new(spec).unwrap();
    let what = format!(
        "{} from {} closed={} {} prune={} path {path:?}",
        spec.board, spec.start, spec.closed, spec.order, spec.prune
    );
    let count = searcher.run_from(path, Goal::CountAll, &mut TourList::default()).unwrap();
    let run = simulate(spec, path, Goal::CountAll, 0);
    assert_eq!((run.tour_count, run.nodes), (count.tours, count.nodes), "count: {what}");
    eprintln!("{what}: {} tours, {} nodes, {} cycles", run.tour_count, run.nodes, run.cycles);
    // A node takes the engine a visit, its children's tallies and an undo:
    // 3.7 to 5.0 clocks measured on counts large enough to average over.
    if run.nodes >= 1_000 {
        let per_node = run.cycles as f64 / run.nodes as f64;
        assert!((3.0..=6.0).contains(&per_node), "count: {what}: {per_node:.2} clocks a node");
    }
    let mut expected = TourList::default();
    let first = searcher.run_from(path, Goal::First(k), &mut expected).unwrap();
    let run = simulate(spec, path, Goal::First(k), 3);
    assert_eq!(run.tours, expected.0, "first {k}: {what}");
    assert_eq!(run.nodes, first.nodes, "first {k} nodes: {what}");
}

#[test]
fn counts_and_streams_match_the_reference() {
    for (board, start, closed, order, prune) in [
        ("4x3", "a1", false, MoveOrder::Fixed, false),
        ("5", "a1", false, MoveOrder::Fixed, true),
        ("5", "c3", false, MoveOrder::Warnsdorff, true),
        ("5x4", "b2", false, MoveOrder::Warnsdorff, false),
        ("6x5", "a1", true, MoveOrder::Fixed, true),
        ("5x4", "a1", true, MoveOrder::Warnsdorff, true),
        ("1", "a1", false, MoveOrder::Fixed, true),
        ("3", "b2", false, MoveOrder::Fixed, true),
    ] {
        let spec = spec(board, start, closed, order, prune);
        check(spec, &[spec.start], 3);
    }
}

#[test]
fn searches_below_a_path_match_the_reference() {
    let spec = spec("5", "a1", false, MoveOrder::Fixed, true);
    let searcher = Searcher::new(spec).unwrap();
    let (_, tours) = searcher.tours(Goal::First(1));
    for length in [2, 4, 9] {
        check(spec, &tours[0][..length], 2);
    }
}

#[test]
fn a_board_of_the_builds_size_counts_as_the_reference() {
    let spec = spec("6", "a1", true, MoveOrder::Fixed, true);
    let count = Searcher::new(spec).unwrap().run(Goal::First(1), &mut TourList::default());
    let run = simulate(spec, &[spec.start], Goal::First(1), 0);
    assert_eq!((run.tours.len() as u64, run.nodes), (count.tours, count.nodes));
}

/// Engines sharing a search as the platform wires them: the walker and
/// workers, the job queue between them.
#[derive(LogicBlock)]
struct Shared {
    clock: Signal<In, Clock>,
    engines: Vec<CompactEngine<7, 6, 6, 7>>,
    queue: JobQueue,
    requests: Vec<Signal<Local, Bits<MAX_ENGINES>>>,
    one_hot: Vec<Constant<Bits<MAX_ENGINES>>>,
}

impl Shared {
    fn new(engines: usize) -> Self {
        let mut shared = Shared {
            clock: Default::default(),
            engines: (0..engines)
                .map(|i| CompactEngine::new(6, 6, if i == 0 { JobRole::Walker } else { JobRole::Worker }))
                .collect(),
            queue: JobQueue::new(engines, engines > 1),
            requests: (0..engines).map(|_| Default::default()).collect(),
            one_hot: (0..engines).map(|i| Constant::new(engine_bit(i))).collect(),
        };
        // (The test bench drives the search's inputs.)
        for engine in &mut shared.engines {
            let port = &mut engine.port;
            port.start.connect();
            port.cancel.connect();
            port.arguments.connect();
            port.split_level.connect();
            port.path.connect();
            port.path_length.connect();
            port.item_ready.connect();
        }
        shared
    }
}

impl Logic for Shared {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, queue);
        self.queue.clear.next = false;
        self.queue.found.next = self.engines[0].port.jobs.found.val();
        self.queue.found_path.next = self.engines[0].port.jobs.found_path.val();
        self.queue.found_number.next = self.engines[0].port.jobs.found_number.val();
        self.queue.walking.next = self.engines[0].port.jobs.walking.val();
        self.requests[0].next = 0.into();
        if self.engines[0].port.jobs.request.val() {
            self.requests[0].next = 1.into();
        }
        for i in 1..self.engines.len() {
            self.requests[i].next = self.requests[i - 1].val();
            if self.engines[i].port.jobs.request.val() {
                self.requests[i].next = self.requests[i - 1].val() | self.one_hot[i].val();
            }
        }
        self.queue.requests.next = self.requests[self.engines.len() - 1].val();
        for i in 0..self.engines.len() {
            self.engines[i].clock.next = self.clock.val();
            self.engines[i].port.jobs.space.next = self.queue.space.val();
            self.engines[i].port.jobs.grant.next = (self.queue.grants.val() & self.one_hot[i].val()).any();
            self.engines[i].port.jobs.path.next = self.queue.path.val();
            self.engines[i].port.jobs.number.next = self.queue.number.val();
            self.engines[i].port.jobs.over.next = self.queue.over.val();
        }
    }
}

/// A count shared by `engines` engines split at `level`: tours and nodes,
/// each engine's nodes.
fn count_shared(spec: SearchSpec, engines: usize, level: u64) -> (u64, u64, Vec<u64>) {
    let mut uut = Shared::new(engines);
    uut.connect_all();
    let result = Arc::new(Mutex::new((0, 0, vec![0; engines])));
    let out = result.clone();
    let mut sim = Simulation::new();
    sim.add_clock(5, |x: &mut Box<Shared>| x.clock.next = !x.clock.val());
    sim.add_testbench(move |mut sim: Sim<Shared>| {
        let mut x = sim.init()?;
        wait_clock_true!(sim, clock, x);
        let request = SolveRequest {
            width: spec.board.width as u8,
            height: spec.board.height as u8,
            file: spec.start.file as u8,
            rank: spec.start.rank as u8,
            closed: spec.closed,
            warnsdorff: spec.order == MoveOrder::Warnsdorff,
            prune: spec.prune,
            count: true,
            limit: 0,
            split: 0,
            engines: 0,
            path: MovePath::new(&[]).unwrap(),
        };
        let arguments = request.payload()[..5].iter().rev().fold(0u64, |acc, &b| acc << 8 | u64::from(b));
        // Twice: a search that starts while the last one's engines are done
        // must share as the first did.
        let (mut tours, mut nodes, mut each) = (0, 0, vec![0u64; engines]);
        for _ in 0..2 {
            for i in 0..engines {
                x.engines[i].port.arguments.next = arguments.into();
                x.engines[i].port.split_level.next = level.into();
                x.engines[i].port.start.next = true;
            }
            wait_clock_cycle!(sim, clock, x);
            for i in 0..engines {
                x.engines[i].port.start.next = false;
            }
            (tours, nodes, each) = (0, 0, vec![0u64; engines]);
            let mut quiet = 0;
            while quiet < 3 {
                wait_clock_cycle!(sim, clock, x);
                for (engine, counted) in x.engines.iter().zip(each.iter_mut()) {
                    let n = engine.port.nodes.val().to_u64();
                    nodes += n;
                    *counted += n;
                    tours += engine.port.solutions.val().to_u64();
                }
                quiet = if (0..engines).any(|i| x.engines[i].port.busy.val()) { 0 } else { quiet + 1 };
            }
            // Shared: the walker did not search it alone.
            sim_assert!(sim, each.iter().filter(|&&n| n > 0).count() >= 2, x);
        }
        *out.lock().unwrap() = (tours, nodes, each);
        sim.done(x)
    });
    sim.run(Box::new(uut), 100_000_000).unwrap();
    let counted = result.lock().unwrap().clone();
    counted
}

#[test]
fn engines_share_a_count_through_the_queue() {
    for (board, start, closed, level) in [("5", "a1", false, 1), ("5", "c3", false, 5), ("6x5", "a1", true, 7)] {
        let spec = spec(board, start, closed, MoveOrder::Fixed, true);
        let count = Searcher::new(spec).unwrap().run(Goal::CountAll, &mut TourList::default());
        for engines in [2, 3] {
            let (tours, nodes, each) = count_shared(spec, engines, level);
            assert_eq!(
                (tours, nodes),
                (count.tours, count.nodes),
                "{board} on {engines} engines split at {level}: {each:?}"
            );
        }
    }
}
