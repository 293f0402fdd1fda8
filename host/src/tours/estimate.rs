//! How big is a count too big to run here? Knuth's estimator of a backtrack
//! tree (Math. Comp. 29, 1975), with each probe ending in a whole job: a
//! random path from the start picks one child uniformly at each level down to
//! the job level, and the job below it is counted in full on the CPU. The
//! probe's weight is the product of the branching factors it met, so the
//! weighted job and the weighted levels above it are unbiased estimates of the
//! whole tree's tours, nodes and CPU time; the spread over the probes gives
//! their standard errors. The tree is the search's own (its move order and
//! pruning), as cut by [`knights_model::tours::parallel::PrefixJobs`]. Given a board (the
//! simulated one, say), each probe's job is counted there too, checked
//! against the CPU's count, and the board's engine seconds weighted the same
//! way model its time for the whole count.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::Serialize;

use knights_model::symmetry::{start_classes, StartClass};
use knights_model::tours::moves::knight_neighbours;
use knights_model::tours::{SearchSpec, Searcher};
use knights_model::{Flow, Square};

use super::device::TourDevice;
use super::jobs::{run as run_job, TourTask};
use crate::device::error::{DeviceError, RequestError};
use crate::device::CpuDevice;
use crate::jobs::Job;

/// A mean and its standard error.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Figure {
    pub mean: f64,
    pub std_error: f64,
}

impl Figure {
    fn of(values: &[f64]) -> Self {
        let n = values.len() as f64;
        let mean = values.iter().sum::<f64>() / n;
        let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
        Figure { mean, std_error: (variance / n).sqrt() }
    }
}

/// The estimated size of a count.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Estimate {
    pub probes: usize,
    /// The job level (path length from the start, in moves).
    pub depth: usize,
    /// Probes that reached the job level (the others met a dead end above).
    pub probes_reaching_jobs: usize,
    /// Jobs at the job level, tours, nodes, and one CPU core's seconds.
    pub jobs: Figure,
    pub tours: Figure,
    pub nodes: Figure,
    pub cpu_seconds: Figure,
    /// Nodes and seconds of the jobs the probes counted (the measured rate).
    pub sampled_nodes: u64,
    pub sampled_seconds: f64,
    /// On the board given, if any: its engines' seconds for the whole count
    /// (at the build's clock), and its cycles on the sampled jobs.
    pub board_seconds: Option<Figure>,
    pub board_sampled_cycles: Option<u64>,
}

impl Estimate {
    /// One CPU core's rate on the sampled jobs.
    pub fn cpu_nodes_per_second(&self) -> f64 {
        self.sampled_nodes as f64 / self.sampled_seconds.max(1e-9)
    }
}

/// Estimates `spec`'s count from `probes` random probes to jobs `depth` moves
/// from the start (seeded, so a run can be repeated). `progress` sees the
/// probes done and may stop early (at least two probes are kept).
pub fn estimate(
    spec: &SearchSpec,
    depth: usize,
    probes: usize,
    seed: u64,
    mut board: Option<&mut dyn TourDevice>,
    progress: &mut dyn FnMut(usize) -> Flow,
) -> Result<Estimate, DeviceError> {
    if depth + 2 >= spec.board.area() {
        return Err(DeviceError::Request(RequestError::EstimateTooDeep { depth, board: spec.board }));
    }
    let searcher = Searcher::new(*spec).map_err(DeviceError::Reference)?;
    let mut cpu = CpuDevice { threads: 1 };
    let mut random = StdRng::seed_from_u64(seed);
    let (mut jobs, mut tours, mut nodes, mut seconds) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (mut reached, mut sampled_nodes, mut sampled_seconds) = (0, 0, 0.0);
    let (mut board_seconds, mut board_cycles) = (Vec::new(), 0);
    for done in 1..=probes.max(2) {
        let probe = Probe::walk(&searcher, spec, depth, &mut random);
        let (mut job_tours, mut job_nodes, mut job_seconds) = (0.0, 0.0, 0.0);
        if probe.path.len() == depth + 1 {
            reached += 1;
            let job = Job { id: 0, weight: 1, task: TourTask::tour_path(spec, probe.path) };
            let counted = run_job(&mut cpu, &job, &mut |_, _| Flow::Continue)?.expect("nothing stops the job");
            sampled_nodes += counted.nodes;
            sampled_seconds += counted.elapsed_seconds;
            job_tours = probe.weight * counted.count as f64;
            job_nodes = probe.weight * counted.nodes as f64;
            job_seconds = probe.weight * counted.elapsed_seconds;
            jobs.push(probe.weight);
            if let Some(board) = board.as_deref_mut() {
                let on_board = run_job(board, &job, &mut |_, _| Flow::Continue)?.expect("nothing stops the job");
                if (on_board.count, on_board.nodes) != (counted.count, counted.nodes) {
                    let reason = format!(
                        "{} counted {} tours in {} nodes below the probe's path, the CPU {} in {}",
                        board.name(),
                        on_board.count,
                        on_board.nodes,
                        counted.count,
                        counted.nodes
                    );
                    return Err(DeviceError::Request(RequestError::BadJob { id: done as u32, reason }));
                }
                board_cycles += on_board.cycles.unwrap_or(0);
                board_seconds.push(probe.weight * on_board.engine_seconds.unwrap_or(0.0));
            }
        } else {
            jobs.push(0.0);
            board_seconds.push(0.0);
        }
        tours.push(job_tours);
        nodes.push(probe.nodes_above + job_nodes);
        seconds.push(job_seconds);
        if progress(done) == Flow::Stop && done >= 2 {
            break;
        }
    }
    Ok(Estimate {
        probes: jobs.len(),
        depth,
        probes_reaching_jobs: reached,
        jobs: Figure::of(&jobs),
        tours: Figure::of(&tours),
        nodes: Figure::of(&nodes),
        cpu_seconds: Figure::of(&seconds),
        sampled_nodes,
        sampled_seconds,
        board_seconds: board.is_some().then(|| Figure::of(&board_seconds)),
        board_sampled_cycles: board.is_some().then_some(board_cycles),
    })
}

/// The estimate of a count from every start square: each class of start
/// squares estimated on its own, its tours weighted by its size (its nodes
/// and time are one search's, as `count --start all` searches a class once).
#[derive(Clone, Debug, PartialEq)]
pub struct WholeBoardEstimate {
    pub classes: Vec<(StartClass, Estimate)>,
    pub tours: Figure,
    pub nodes: Figure,
    pub cpu_seconds: Figure,
    pub board_seconds: Option<Figure>,
}

/// Estimates the count of `spec` from every start square, `probes` probes
/// a class (on `board` too, if given). `progress` sees the probes done over
/// all classes.
pub fn estimate_every_start(
    spec: &SearchSpec,
    depth: usize,
    probes: usize,
    seed: u64,
    mut board: Option<&mut dyn TourDevice>,
    progress: &mut dyn FnMut(usize) -> Flow,
) -> Result<WholeBoardEstimate, DeviceError> {
    let mut classes = Vec::new();
    for (i, class) in start_classes(spec.board).into_iter().enumerate() {
        let class_spec = SearchSpec { start: class.start, ..*spec };
        let before = i * probes.max(2);
        let class_seed = seed.wrapping_add(i as u64);
        let estimate = estimate(&class_spec, depth, probes, class_seed, reborrow(&mut board), &mut |done| {
            progress(before + done)
        })?;
        classes.push((class, estimate));
    }
    // Independent estimates: means add, errors in quadrature. Tours count
    // from every square of a class; the work is one search a class.
    let sum = |figure: &dyn Fn(&Estimate) -> Figure, weighted: bool| {
        let parts = classes.iter().map(|(class, e)| (if weighted { class.weight as f64 } else { 1.0 }, figure(e)));
        let (mean, variance) = parts.fold((0.0, 0.0), |(m, v), (w, f)| (m + w * f.mean, v + (w * f.std_error).powi(2)));
        Figure { mean, std_error: variance.sqrt() }
    };
    let (tours, nodes, cpu_seconds) =
        (sum(&|e| e.tours, true), sum(&|e| e.nodes, false), sum(&|e| e.cpu_seconds, false));
    let on_board = classes.iter().all(|(_, e)| e.board_seconds.is_some());
    let board_seconds = on_board.then(|| sum(&|e| e.board_seconds.expect("every class ran on the board"), false));
    Ok(WholeBoardEstimate { classes, tours, nodes, cpu_seconds, board_seconds })
}

/// The board for one more call (its trait object's lifetime shortened to
/// the call's, which `as_deref_mut` cannot do).
fn reborrow<'a>(board: &'a mut Option<&mut dyn TourDevice>) -> Option<&'a mut dyn TourDevice> {
    match board {
        Some(board) => Some(&mut **board),
        None => None,
    }
}

/// One random path down the search tree.
struct Probe {
    path: Vec<Square>,
    /// The product of the branching factors met (the number of nodes at the
    /// path's level, as this probe sees it).
    weight: f64,
    /// The levels above the job level, weighted.
    nodes_above: f64,
}

impl Probe {
    /// Descends from the start to `depth` moves, or to a dead end. A node's
    /// children are those the search enters: the unvisited knight moves,
    /// none below a node that pruning stops (as `PrefixJobs` cuts the tree).
    fn walk(searcher: &Searcher, spec: &SearchSpec, depth: usize, random: &mut StdRng) -> Probe {
        let mut probe = Probe { path: vec![spec.start], weight: 1.0, nodes_above: 0.0 };
        while probe.path.len() <= depth {
            probe.nodes_above += probe.weight;
            if probe.path.len() + 1 >= spec.board.area() || searcher.prunes(&probe.path) {
                break;
            }
            let last = *probe.path.last().expect("paths are not empty");
            let children: Vec<Square> =
                knight_neighbours(last, spec.board).filter(|s| !probe.path.contains(s)).collect();
            if children.is_empty() {
                break;
            }
            probe.weight *= children.len() as f64;
            probe.path.push(children[random.gen_range(0..children.len())]);
        }
        probe
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use knights_model::board::BoardSize;
    use knights_model::tours::{MoveOrder, TourList};
    use knights_model::Goal;

    #[test]
    fn the_estimate_is_near_the_count_it_estimates() {
        // 6x5 open tours from a1, pruned: the exact figures, then estimates
        // from 400 probes to jobs 6 moves deep.
        let spec = SearchSpec {
            board: BoardSize::new(6, 5),
            start: Square::new(0, 0),
            closed: false,
            order: MoveOrder::Fixed,
            prune: true,
        };
        let exact = Searcher::new(spec).unwrap().run(Goal::CountAll, &mut TourList::default());
        let estimate = estimate(&spec, 6, 400, 7, None, &mut |_| Flow::Continue).unwrap();
        for (what, figure, truth) in
            [("tours", estimate.tours, exact.tours as f64), ("nodes", estimate.nodes, exact.nodes as f64)]
        {
            // Within four standard errors (and the error itself under 25%).
            assert!((figure.mean - truth).abs() < 4.0 * figure.std_error, "{what}: {figure:?} against {truth}");
            assert!(figure.std_error < 0.25 * truth, "{what}: {figure:?}");
        }
        // Probes reaching no job still count: the levels above.
        assert!(estimate.probes_reaching_jobs <= estimate.probes);
        // The same seed, the same estimate.
        let again = super::estimate(&spec, 6, 400, 7, None, &mut |_| Flow::Continue).unwrap();
        assert_eq!((again.tours, again.nodes), (estimate.tours, estimate.nodes));
    }

    #[test]
    fn every_start_square_weights_its_classes() {
        // 5x5: 1,728 open tours from every square.
        let spec = SearchSpec {
            board: BoardSize::square(5),
            start: Square::new(0, 0),
            closed: false,
            order: MoveOrder::Fixed,
            prune: true,
        };
        let whole = estimate_every_start(&spec, 4, 300, 1, None, &mut |_| Flow::Continue).unwrap();
        assert_eq!(whole.classes.len(), 6);
        assert!((whole.tours.mean - 1728.0).abs() < 4.0 * whole.tours.std_error, "{:?}", whole.tours);
        // 22,690 nodes: one search a class, not weighted.
        assert!((whole.nodes.mean - 22_690.0).abs() < 4.0 * whole.nodes.std_error, "{:?}", whole.nodes);
        let too_deep = estimate(&spec, 23, 10, 1, None, &mut |_| Flow::Continue).unwrap_err();
        assert!(too_deep.to_string().contains("leave no search below them"), "{too_deep}");
    }
}
