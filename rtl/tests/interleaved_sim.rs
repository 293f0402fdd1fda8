//! The interleaved engine in rust-hdl's simulator, its four searches given
//! jobs (paths from the start), compared with the CPU reference search
//! below each job's root: the nodes and tours of every job summed.

use std::sync::{Arc, Mutex};

use knights_model::tours::moves::{knight_neighbours, path_moves};
use knights_model::tours::{MoveOrder, SearchSpec, Searcher, TourList};
use knights_model::{BoardSize, Goal, Square};
use knights_protocol::codec::MovePath;
use knights_rtl::tours::interleaved::Interleaved;
use rust_hdl::prelude::*;

/// What the engine counted over all its jobs, and the clocks it took.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
struct Run {
    tours: u64,
    nodes: u64,
    clocks: u64,
}

/// Every path of `moves` knight moves from the start (no square twice), as
/// squares from the start on.
fn paths(spec: SearchSpec, moves: usize) -> Vec<Vec<Square>> {
    let mut out = Vec::new();
    let mut path = vec![spec.start];
    fn extend(board: BoardSize, path: &mut Vec<Square>, moves: usize, out: &mut Vec<Vec<Square>>) {
        if path.len() == moves + 1 {
            out.push(path.clone());
            return;
        }
        for next in knight_neighbours(*path.last().unwrap(), board) {
            if !path.contains(&next) {
                path.push(next);
                extend(board, path, moves, out);
                path.pop();
            }
        }
    }
    extend(spec.board, &mut path, moves, &mut out);
    out
}

/// The reference's nodes and tours below each path's last square, that
/// square included, summed.
fn reference(spec: SearchSpec, jobs: &[Vec<Square>]) -> (u64, u64) {
    let searcher = Searcher::new(spec).unwrap();
    jobs.iter().fold((0, 0), |(tours, nodes), path| {
        let outcome = searcher.run_from(path, Goal::CountAll, &mut TourList::default()).unwrap();
        (tours + outcome.tours, nodes + outcome.nodes - (path.len() as u64 - 1))
    })
}

/// Runs `jobs` on an engine for boards up to `max`, and sums its counts.
fn simulate<const SQ: usize, const LB: usize, const AB: usize>(
    max: (usize, usize),
    spec: SearchSpec,
    jobs: &[Vec<Square>],
) -> Run {
    run::<SQ, LB, AB>(max, spec, jobs.iter().map(|path| (sliced(path), path.len() as u64 - 1)).collect(), None, false)
}

/// The path's moves as a job carries them (`MovePath::sliced`).
fn sliced(path: &[Square]) -> u64 {
    MovePath::new(&path_moves(path).expect("knight moves")).expect("16 moves at most").sliced()
}

/// A walk: the search's own root job splits at `split`, its jobs going to a
/// queue of `room` places (the engine searches a job itself when it is
/// full), from which the ring takes them.
#[derive(Clone, Copy)]
struct Walk {
    split: u64,
    room: usize,
}

/// Runs the jobs `(path, moves)` on the engine, the first the search's own
/// root job walking when there is a `walk`.
fn run<const SQ: usize, const LB: usize, const AB: usize>(
    max: (usize, usize),
    spec: SearchSpec,
    jobs: Vec<(u64, u64)>,
    walk: Option<Walk>,
    visited_in_block_ram: bool,
) -> Run {
    let board = BoardSize::new(spec.board.width, spec.board.height);
    let index = move |s: Square| usize::from(s.rank) * max.0 + usize::from(s.file);
    let board_mask: u64 = board.squares().map(|s| 1u64 << index(s)).sum();
    let mut uut = Interleaved::<SQ, LB, AB>::new(max.0, max.1).visited_in_block_ram(visited_in_block_ram);
    uut.connect_all();
    let result = Arc::new(Mutex::new(Run::default()));
    let out = result.clone();
    let mut sim = Simulation::new();
    sim.add_clock(5, |x: &mut Box<Interleaved<SQ, LB, AB>>| x.clock.next = !x.clock.val());
    sim.add_testbench(move |mut sim: Sim<Interleaved<SQ, LB, AB>>| {
        let mut x = sim.init()?;
        x.board.next = board_mask.into();
        x.area.next = (board.area() as u64).into();
        x.prune.next = spec.prune;
        x.closed.next = spec.closed;
        x.start_at.next = (index(spec.start) as u64).into();
        x.split.next = walk.map_or(0, |w| w.split).into();
        let mut queue: std::collections::VecDeque<(u64, u64)> = jobs.clone().into();
        let (mut rooted, mut idle_after, mut run) = (walk.is_some(), 0, Run::default());
        loop {
            x.job_valid.next = !queue.is_empty();
            x.job_rooted.next = rooted;
            if let Some(&(path, moves)) = queue.front() {
                x.job_path.next = path.into();
                x.job_length.next = moves.into();
            }
            // The walk's own job is not in the queue's places.
            x.space.next = walk.is_some_and(|w| queue.len() < w.room + usize::from(rooted));
            wait_clock_false!(sim, clock, x);
            let taken = x.job_valid.val() && x.job_ready.val();
            run.nodes += x.nodes.val().to_u64();
            run.tours += x.tours.val().to_u64();
            run.clocks += 1;
            if x.found.val() {
                queue.push_back((x.found_path.val().to_u64(), walk.unwrap().split));
            }
            if queue.is_empty() && !x.busy.val() && !x.walking.val() {
                idle_after += 1;
                if idle_after == 3 {
                    break;
                }
            }
            wait_clock_true!(sim, clock, x);
            if taken {
                queue.pop_front();
                rooted = false;
            }
        }
        *out.lock().unwrap() = run;
        sim.done(x)
    });
    sim.run(Box::new(uut), 1 << 40).unwrap();
    let run = *result.lock().unwrap();
    run
}

fn spec(board: &str, start: &str, closed: bool, prune: bool) -> SearchSpec {
    SearchSpec { board: board.parse().unwrap(), start: start.parse().unwrap(), closed, order: MoveOrder::Fixed, prune }
}

#[test]
fn the_whole_tree_from_a_corner_of_5x5() {
    let spec = spec("5", "a1", false, true);
    let jobs = paths(spec, 0);
    let run = simulate::<25, 5, 8>((5, 5), spec, &jobs);
    assert_eq!((run.tours, run.nodes), reference(spec, &jobs));
    // The published count of open 5x5 tours from a corner (OEIS A165134 sums
    // them over every start: 304 from a1).
    assert_eq!(run.tours, 304);
}

#[test]
fn jobs_below_level_three_sum_to_the_whole_tree_with_five_searches_at_once() {
    // 5x5 from c3: every path of three moves is a job (some of their roots
    // are dead ends); five searches run them side by side.
    let spec = spec("5", "c3", false, true);
    let jobs = paths(spec, 3);
    assert!(jobs.len() > 20);
    let run = simulate::<25, 5, 8>((5, 5), spec, &jobs);
    assert_eq!((run.tours, run.nodes), reference(spec, &jobs));
    // Nodes above the jobs' roots, counted once each, make the whole tree.
    let above: u64 = (0..3).map(|moves| paths(spec, moves).len() as u64).sum();
    let whole = Searcher::new(spec).unwrap().run_from(&[spec.start], Goal::CountAll, &mut TourList::default()).unwrap();
    assert_eq!((run.tours, run.nodes + above), (whole.tours, whole.nodes));
}

#[test]
fn visited_squares_kept_in_block_ram_count_alike_clock_for_clock() {
    // Five searches at once and a walk, so every slot's visited word is
    // written back and read again while the others' pass.
    let spec = spec("5", "c3", false, true);
    let jobs: Vec<(u64, u64)> = paths(spec, 3).iter().map(|path| (sliced(path), path.len() as u64 - 1)).collect();
    let in_registers = run::<25, 5, 8>((5, 5), spec, jobs.clone(), None, false);
    let in_ram = run::<25, 5, 8>((5, 5), spec, jobs.clone(), None, true);
    assert_eq!(in_ram, in_registers);
    assert_eq!((in_ram.tours, in_ram.nodes), reference(spec, &paths(spec, 3)));
    let walk = Some(Walk { split: 3, room: 2 });
    let walked = run::<25, 5, 8>((5, 5), spec, vec![(0, 0)], walk, true);
    assert_eq!(walked, run::<25, 5, 8>((5, 5), spec, vec![(0, 0)], walk, false));
    let whole = Searcher::new(spec).unwrap().run_from(&[spec.start], Goal::CountAll, &mut TourList::default()).unwrap();
    assert_eq!(walked.tours, whole.tours);
}

#[test]
fn closed_tours_on_a_rectangle_with_pruning() {
    for start in ["a1", "b3"] {
        let spec = spec("6x5", start, true, true);
        let jobs = paths(spec, 2);
        let run = simulate::<30, 5, 8>((6, 5), spec, &jobs);
        assert_eq!((run.tours, run.nodes), reference(spec, &jobs), "from {start}");
        assert_eq!(run.tours, 16, "from {start}");
    }
}

#[test]
fn unpruned_counts_from_every_start_of_a_smaller_board_on_a_larger_engine() {
    // 4x3 on a 6x5 engine: the squares off the board are never free.
    let board: BoardSize = "4x3".parse().unwrap();
    for start in board.squares() {
        let spec = SearchSpec { start, ..spec("4x3", "a1", false, false) };
        let jobs = paths(spec, 0);
        let run = simulate::<30, 5, 8>((6, 5), spec, &jobs);
        assert_eq!((run.tours, run.nodes), reference(spec, &jobs), "from {start}");
    }
    let spec = spec("5x4", "a1", false, false);
    let jobs = paths(spec, 2);
    let run = simulate::<30, 5, 8>((6, 5), spec, &jobs);
    assert_eq!((run.tours, run.nodes), reference(spec, &jobs));
}

#[test]
fn five_searches_share_the_ring_in_the_clocks_of_one() {
    // The same whole tree five times over: each search has a slot, and every
    // clock is some search's pass, so five take no more clocks than one.
    let spec = spec("5", "a1", false, true);
    let alone = simulate::<25, 5, 8>((5, 5), spec, &paths(spec, 0));
    let five = simulate::<25, 5, 8>((5, 5), spec, &vec![vec![spec.start]; 5]);
    assert_eq!((five.tours, five.nodes), (5 * alone.tours, 5 * alone.nodes));
    assert!(five.clocks <= alone.clocks + 5, "{five:?} against {alone:?}");
}

#[test]
fn a_walk_offers_the_jobs_of_its_level_and_searches_those_the_queue_has_no_room_for() {
    // The search's own job walks to level 3 and hands the live nodes there
    // to a queue the ring takes them from; a queue of one place is often
    // full, so the walk searches many of them itself. Either way the counts
    // are the whole tree's, the path's squares counted by the walk.
    let spec = spec("5", "c3", false, true);
    let whole = Searcher::new(spec).unwrap().run_from(&[spec.start], Goal::CountAll, &mut TourList::default()).unwrap();
    // (A walk that searched a job itself and then offered the next once
    // wrote its deep levels' moves over its path: room for 5 lost 4 tours.)
    for room in [1, 5, 64] {
        let run = run::<25, 5, 8>((5, 5), spec, vec![(0, 0)], Some(Walk { split: 3, room }), false);
        assert_eq!((run.tours, run.nodes), (whole.tours, whole.nodes), "a queue of {room}");
    }
    // Below a path of two moves, closed tours on a rectangle.
    let spec = self::spec("6x5", "a1", true, true);
    let path: Vec<Square> = ["a1", "b3", "a5"].iter().map(|s| s.parse().unwrap()).collect();
    let below = Searcher::new(spec).unwrap().run_from(&path, Goal::CountAll, &mut TourList::default()).unwrap();
    let run = run::<30, 5, 8>((6, 5), spec, vec![(sliced(&path), 2)], Some(Walk { split: 5, room: 8 }), false);
    assert_eq!((run.tours, run.nodes), (below.tours, below.nodes));
}
