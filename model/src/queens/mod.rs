//! N-Queens: the reference search the RTL solver matches node for node, its
//! prefix jobs, the board's mirror symmetry, and the solution checker; counting
//! from constellations (all eight symmetries) is in [`constellations`], unique
//! solutions (a class under the eight symmetries) in [`unique`].
//!
//! Queens go one per rank from rank 1 up; on each rank the free files are
//! tried a→z (bit 0 of a mask is file a). Files and both diagonals are
//! bitmasks: placing a queen sets its file, and shifts the diagonals' masks by
//! one towards the next rank. A *node* is a queen placed without conflict (a
//! consistent partial placement), so node counts do not depend on how a
//! solver is built and compare with any plain backtracking search.

pub mod constellations;
pub mod unique;

use std::ops::Range;

use rayon::prelude::*;
use serde::Serialize;

use crate::run::{Flow, Goal, Status};

/// The largest board the reference takes (its masks are 64 bits wide, and
/// the diagonals' masks need one bit past the board).
pub const MAX_N: u8 = 32;

/// Nodes between two progress callbacks of a long search.
pub const PROGRESS_INTERVAL: u64 = 1 << 22;

/// What is wrong with a search's arguments or a reported solution.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum QueensError {
    #[error("the board must have 1 to {MAX_N} files (N = {0})")]
    BadSize(u8),
    #[error("the first rank's files {from}..{to} are not within the board's {n} files")]
    BadFirstFiles { n: u8, from: u8, to: u8 },
    #[error("a prefix job's queens {prefix:?} attack one another or leave the board (N = {n})")]
    BadPrefix { n: u8, prefix: Vec<u8> },
    #[error("the edges' queens {constellation:?} are not one queen an edge, none attacking another (N = {n})")]
    BadConstellation { n: u8, constellation: constellations::Constellation },
    #[error("a solution has {found} queens, not {n}")]
    WrongLength { n: u8, found: usize },
    #[error("the queen on rank {rank} stands on file {file}, off the {n}-file board")]
    OffBoard { n: u8, rank: usize, file: u8 },
    #[error("the queens on ranks {first} and {second} attack each other")]
    Attack { first: usize, second: usize },
}

/// Checks a solution: `files[r]` is the file of the queen on rank `r + 1`,
/// there are `n` of them, and no two attack each other.
pub fn check_solution(n: u8, files: &[u8]) -> Result<(), QueensError> {
    if files.len() != usize::from(n) {
        return Err(QueensError::WrongLength { n, found: files.len() });
    }
    for (rank, &file) in files.iter().enumerate() {
        if file >= n {
            return Err(QueensError::OffBoard { n, rank: rank + 1, file });
        }
        for (earlier, &other) in files[..rank].iter().enumerate() {
            let ranks_apart = (rank - earlier) as i32;
            let files_apart = (i32::from(file) - i32::from(other)).abs();
            if files_apart == 0 || files_apart == ranks_apart {
                return Err(QueensError::Attack { first: earlier + 1, second: rank + 1 });
            }
        }
    }
    Ok(())
}

/// One search: the board, and the files the first rank's queen may take
/// (the whole rank, or one side of the mirror).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct QueensSpec {
    pub n: u8,
    pub first_files: Range<u8>,
}

impl QueensSpec {
    /// The whole tree of an `n`-queens board.
    pub fn whole(n: u8) -> Result<Self, QueensError> {
        Self::new(n, 0..n)
    }

    pub fn new(n: u8, first_files: Range<u8>) -> Result<Self, QueensError> {
        if n == 0 || n > MAX_N {
            return Err(QueensError::BadSize(n));
        }
        if first_files.start >= first_files.end || first_files.end > n {
            return Err(QueensError::BadFirstFiles { n, from: first_files.start, to: first_files.end });
        }
        Ok(QueensSpec { n, first_files })
    }
}

/// One part of a count under the mirror symmetry: its search, and how many
/// solutions each one it finds stands for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WeightedPart {
    pub spec: QueensSpec,
    pub weight: u64,
}

/// The searches a count runs. With the mirror (a→z reflected), the first
/// queen stays in the left half and each solution counts twice; on an odd
/// board the middle file is searched on its own and counts once (its
/// mirrored solutions are among its own). Without it, one search of the
/// whole tree.
pub fn count_plan(n: u8, mirror: bool) -> Result<Vec<WeightedPart>, QueensError> {
    if !mirror || n == 1 {
        return Ok(vec![WeightedPart { spec: QueensSpec::whole(n)?, weight: 1 }]);
    }
    let half = n / 2;
    let mut parts = vec![WeightedPart { spec: QueensSpec::new(n, 0..half)?, weight: 2 }];
    if n % 2 == 1 {
        parts.push(WeightedPart { spec: QueensSpec::new(n, half..half + 1)?, weight: 1 });
    }
    Ok(parts)
}

/// A pool of `threads` threads (at least one) for a count on every core.
fn thread_pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new().num_threads(threads.max(1)).build().expect("a thread pool")
}

/// Counts at the end of a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueensOutcome {
    pub solutions: u64,
    pub nodes: u64,
    pub status: Status,
}

/// Receives what a search finds while it runs.
pub trait QueensObserver {
    /// A solution (first-K mode only): the queens' files from rank 1 up.
    fn solution(&mut self, files: &[u8]) -> Flow;
    /// Running totals, about every [`PROGRESS_INTERVAL`] nodes.
    fn progress(&mut self, _nodes: u64, _solutions: u64) -> Flow {
        Flow::Continue
    }
}

/// An observer that only counts.
pub struct Quiet;

impl QueensObserver for Quiet {
    fn solution(&mut self, _files: &[u8]) -> Flow {
        Flow::Continue
    }
}

/// The masks of one rank: files and diagonals taken by the queens below it.
#[derive(Clone, Copy, Debug, Default)]
struct Attacks {
    files: u64,
    rising: u64,
    falling: u64,
}

impl Attacks {
    /// The masks of the next rank once a queen stands on `bit`.
    fn after(self, bit: u64, full: u64) -> Attacks {
        Attacks {
            files: self.files | bit,
            rising: ((self.rising | bit) << 1) & full,
            falling: (self.falling | bit) >> 1,
        }
    }

    fn free(self, full: u64) -> u64 {
        full & !(self.files | self.rising | self.falling)
    }
}

/// The reference search of one [`QueensSpec`].
#[derive(Clone, Debug)]
pub struct QueensSearch {
    spec: QueensSpec,
    full: u64,
    first_mask: u64,
}

impl QueensSearch {
    pub fn new(spec: QueensSpec) -> Self {
        let full = (1u64 << spec.n) - 1;
        let first_mask = full & !((1u64 << spec.first_files.start) - 1) & ((1u64 << spec.first_files.end) - 1);
        QueensSearch { spec, full, first_mask }
    }

    pub fn spec(&self) -> &QueensSpec {
        &self.spec
    }

    /// Free files on `rank` under `attacks`.
    fn free(&self, rank: usize, attacks: Attacks) -> u64 {
        let free = attacks.free(self.full);
        if rank == 0 {
            free & self.first_mask
        } else {
            free
        }
    }

    /// Places a prefix job's queens: the masks of the rank after it.
    fn place_prefix(&self, prefix: &[u8]) -> Result<Attacks, QueensError> {
        let bad = || QueensError::BadPrefix { n: self.spec.n, prefix: prefix.to_vec() };
        if prefix.len() > usize::from(self.spec.n) {
            return Err(bad());
        }
        let mut attacks = Attacks::default();
        for (rank, &file) in prefix.iter().enumerate() {
            if file >= self.spec.n || self.free(rank, attacks) & (1 << file) == 0 {
                return Err(bad());
            }
            attacks = attacks.after(1 << file, self.full);
        }
        Ok(attacks)
    }

    /// The whole tree's nodes on each rank, from rank 1, counted on every
    /// core. (The solvers count the last two ranks' nodes without stepping
    /// on them in count mode, so a count's clocks go with the nodes of the
    /// ranks before.)
    pub fn nodes_by_rank(&self) -> Vec<u64> {
        fn below(search: &QueensSearch, rank: usize, attacks: Attacks, counts: &mut [u64]) {
            let mut free = search.free(rank, attacks);
            while free != 0 {
                let bit = free & free.wrapping_neg();
                free &= free - 1;
                counts[rank] += 1;
                if rank + 1 < counts.len() {
                    below(search, rank + 1, attacks.after(bit, search.full), counts);
                }
            }
        }
        let n = usize::from(self.spec.n);
        let first = self.free(0, Attacks::default());
        let queens: Vec<u64> = (0..n).map(|file| 1u64 << file).filter(|bit| first & bit != 0).collect();
        queens
            .par_iter()
            .map(|&bit| {
                let mut counts = vec![0; n];
                counts[0] = 1;
                if n > 1 {
                    below(self, 1, Attacks::default().after(bit, self.full), &mut counts);
                }
                counts
            })
            .reduce(|| vec![0; n], |a, b| a.iter().zip(&b).map(|(x, y)| x + y).collect())
    }

    /// Searches the whole tree.
    pub fn run(&self, goal: Goal, observer: &mut dyn QueensObserver) -> QueensOutcome {
        self.run_job(&[], goal, observer).expect("the empty prefix is a job of every board")
    }

    /// Searches the whole tree and keeps what it finds (first-K mode: the
    /// solutions in order), as [`crate::Searcher::tours`] does for tours.
    pub fn solutions(&self, goal: Goal) -> (QueensOutcome, Vec<Vec<u8>>) {
        struct Keep(Vec<Vec<u8>>);
        impl QueensObserver for Keep {
            fn solution(&mut self, files: &[u8]) -> Flow {
                self.0.push(files.to_vec());
                Flow::Continue
            }
        }
        let mut keep = Keep(Vec::new());
        let outcome = self.run(goal, &mut keep);
        (outcome, keep.0)
    }

    /// Searches the subtree of a prefix job: the node of its last queen (if
    /// any) and every node below it. Jobs of one level and the nodes above
    /// them (see [`QueensJobs`]) add up to the whole tree's counts.
    pub fn run_job(
        &self,
        prefix: &[u8],
        goal: Goal,
        observer: &mut dyn QueensObserver,
    ) -> Result<QueensOutcome, QueensError> {
        let n = usize::from(self.spec.n);
        let mut attacks = [Attacks::default(); MAX_N as usize + 1];
        let mut untried = [0u64; MAX_N as usize + 1];
        let mut files: Vec<u8> = prefix.to_vec();
        files.resize(n, 0);
        let base = prefix.len();
        attacks[base] = self.place_prefix(prefix)?;
        let limit = match goal {
            Goal::First(k) => Some(k),
            Goal::CountAll => None,
        };
        let mut outcome = QueensOutcome { solutions: 0, nodes: u64::from(base > 0), status: Status::Exhausted };
        // A full prefix is a solution by itself.
        if base == n {
            outcome.solutions = 1;
            if limit.is_some() && observer.solution(&files) == Flow::Stop {
                outcome.status = Status::Aborted;
            } else if limit == Some(1) {
                outcome.status = Status::Found;
            }
            return Ok(outcome);
        }
        untried[base] = self.free(base, attacks[base]);
        let mut rank = base;
        let mut next_progress = PROGRESS_INTERVAL;
        loop {
            let choices = untried[rank];
            if choices == 0 {
                if rank == base {
                    return Ok(outcome);
                }
                rank -= 1;
                continue;
            }
            let bit = choices & choices.wrapping_neg();
            untried[rank] = choices ^ bit;
            outcome.nodes += 1;
            files[rank] = bit.trailing_zeros() as u8;
            if rank + 1 == n {
                outcome.solutions += 1;
                if let Some(k) = limit {
                    if observer.solution(&files) == Flow::Stop {
                        outcome.status = Status::Aborted;
                        return Ok(outcome);
                    }
                    if outcome.solutions == k {
                        outcome.status = Status::Found;
                        return Ok(outcome);
                    }
                }
            } else {
                attacks[rank + 1] = attacks[rank].after(bit, self.full);
                rank += 1;
                untried[rank] = self.free(rank, attacks[rank]);
            }
            if outcome.nodes >= next_progress {
                next_progress += PROGRESS_INTERVAL;
                if observer.progress(outcome.nodes, outcome.solutions) == Flow::Stop {
                    outcome.status = Status::Aborted;
                    return Ok(outcome);
                }
            }
        }
    }

    /// The tree cut at `level`: every node with `level` queens, in search
    /// order, and the nodes above them. A level at or past N is not a cut:
    /// one job, the empty prefix, holds the whole tree.
    pub fn jobs(&self, level: u8) -> QueensJobs {
        if level == 0 || level >= self.spec.n {
            return QueensJobs { level: 0, prefixes: vec![Vec::new()], nodes_above: 0 };
        }
        let mut jobs = QueensJobs { level, prefixes: Vec::new(), nodes_above: 0 };
        self.collect(&mut Vec::new(), Attacks::default(), &mut jobs);
        jobs
    }

    fn collect(&self, prefix: &mut Vec<u8>, attacks: Attacks, jobs: &mut QueensJobs) {
        let rank = prefix.len();
        let mut choices = self.free(rank, attacks);
        while choices != 0 {
            let bit = choices & choices.wrapping_neg();
            choices ^= bit;
            prefix.push(bit.trailing_zeros() as u8);
            if prefix.len() == usize::from(jobs.level) {
                jobs.prefixes.push(prefix.clone());
            } else {
                jobs.nodes_above += 1;
                self.collect(prefix, attacks.after(bit, self.full), jobs);
            }
            prefix.pop();
        }
    }

    /// The shallowest cut with at least `min_jobs` jobs, but not one whose
    /// nodes above are more than 1.5 times its jobs: there the tree has
    /// nearly stopped branching, and a deeper cut only adds replaying.
    pub fn split(&self, min_jobs: usize) -> QueensJobs {
        let mut cut = self.jobs(1);
        for level in 2..self.spec.n {
            if cut.prefixes.len() >= min_jobs {
                break;
            }
            let deeper = self.jobs(level);
            if 2 * deeper.nodes_above > 3 * deeper.prefixes.len() as u64 {
                break;
            }
            cut = deeper;
        }
        cut
    }

    /// Counts every solution on `threads` threads: the tree cut into prefix
    /// jobs that a rayon pool's threads take in turn. `progress` sees the
    /// totals of the jobs finished so far, from the calling thread.
    pub fn count_parallel(&self, threads: usize, progress: &mut (dyn FnMut(u64, u64) -> Flow + Send)) -> QueensOutcome {
        let cut = self.split(64 * threads.max(1));
        let pool = thread_pool(threads);
        // Totals of the finished jobs, whether to stop, and the callback.
        struct Shared<'a> {
            nodes: u64,
            solutions: u64,
            stopped: bool,
            progress: &'a mut (dyn FnMut(u64, u64) -> Flow + Send),
        }
        let shared = std::sync::Mutex::new(Shared { nodes: cut.nodes_above, solutions: 0, stopped: false, progress });
        pool.install(|| {
            cut.prefixes.par_iter().for_each(|prefix| {
                if shared.lock().expect("no thread panics holding it").stopped {
                    return;
                }
                let job = self.run_job(prefix, Goal::CountAll, &mut Quiet).expect("the cut's jobs are valid");
                let mut totals = shared.lock().expect("no thread panics holding it");
                totals.nodes += job.nodes;
                totals.solutions += job.solutions;
                let (nodes, solutions) = (totals.nodes, totals.solutions);
                if (totals.progress)(nodes, solutions) == Flow::Stop {
                    totals.stopped = true;
                }
            })
        });
        let Shared { nodes, solutions, stopped, .. } = shared.into_inner().expect("no thread panics holding it");
        QueensOutcome { solutions, nodes, status: if stopped { Status::Aborted } else { Status::Exhausted } }
    }
}

/// A search tree cut at one level into prefix jobs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueensJobs {
    /// Queens in every prefix (0: not cut).
    pub level: u8,
    /// Each job's queens' files from rank 1 up, in search order.
    pub prefixes: Vec<Vec<u8>>,
    /// Nodes with fewer queens, counted here and in no job.
    pub nodes_above: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// OEIS A000170, N = 1…14.
    const SOLUTIONS: [u64; 14] = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2_680, 14_200, 73_712, 365_596];

    fn count(spec: QueensSpec) -> QueensOutcome {
        QueensSearch::new(spec).run(Goal::CountAll, &mut Quiet)
    }

    /// Every consistent partial placement, by brute force over all files of
    /// each rank: the node count the search must reach.
    fn brute_nodes(n: u8, placed: &mut Vec<u8>) -> u64 {
        if placed.len() == usize::from(n) {
            return 0;
        }
        let mut nodes = 0;
        for file in 0..n {
            placed.push(file);
            let rank = placed.len() - 1;
            let fits = placed[..rank].iter().enumerate().all(|(earlier, &other)| {
                let apart = (i32::from(file) - i32::from(other)).abs();
                apart != 0 && apart != (rank - earlier) as i32
            });
            if fits {
                nodes += 1 + brute_nodes(n, placed);
            }
            placed.pop();
        }
        nodes
    }

    #[test]
    fn counts_match_a000170() {
        for n in 1..=14u8 {
            let whole = count(QueensSpec::whole(n).unwrap());
            assert_eq!(whole.solutions, SOLUTIONS[usize::from(n) - 1], "N = {n}");
            let mirrored: u64 =
                count_plan(n, true).unwrap().into_iter().map(|part| part.weight * count(part.spec).solutions).sum();
            assert_eq!(mirrored, whole.solutions, "N = {n} with the mirror");
        }
    }

    #[test]
    fn nodes_are_the_consistent_placements() {
        for n in 1..=8u8 {
            assert_eq!(count(QueensSpec::whole(n).unwrap()).nodes, brute_nodes(n, &mut Vec::new()), "N = {n}");
        }
    }

    /// Each rank's nodes add up to the tree's; the last rank's are the
    /// solutions.
    #[test]
    fn nodes_by_rank_add_up_to_the_tree() {
        for n in 1..=9u8 {
            let search = QueensSearch::new(QueensSpec::new(n, 0..n.div_ceil(2)).unwrap());
            let outcome = search.run(Goal::CountAll, &mut Quiet);
            let by_rank = search.nodes_by_rank();
            assert_eq!(by_rank.len(), usize::from(n));
            assert_eq!(by_rank.iter().sum::<u64>(), outcome.nodes, "N = {n}");
            assert_eq!(by_rank[usize::from(n) - 1], outcome.solutions, "N = {n}");
        }
    }

    #[test]
    fn first_k_come_in_lexicographic_order_and_are_valid() {
        let search = QueensSearch::new(QueensSpec::whole(8).unwrap());
        let (_, all) = search.solutions(Goal::First(u64::MAX));
        assert_eq!(all.len(), 92);
        assert_eq!(all[0], vec![0, 4, 7, 5, 2, 6, 1, 3]);
        assert!(all.windows(2).all(|pair| pair[0] < pair[1]));
        all.iter().for_each(|files| check_solution(8, files).unwrap());
        let (outcome, first) = search.solutions(Goal::First(5));
        assert_eq!((outcome.solutions, outcome.status), (5, Status::Found));
        assert_eq!(first, all[..5]);
    }

    #[test]
    fn jobs_of_every_level_add_up_to_the_tree() {
        for n in [1u8, 4, 6, 9] {
            for first in [0..n, 0..n / 2 + n % 2] {
                let search = QueensSearch::new(QueensSpec::new(n, first).unwrap());
                let whole = search.run(Goal::CountAll, &mut Quiet);
                for level in 0..=n {
                    let cut = search.jobs(level);
                    let (mut nodes, mut solutions) = (cut.nodes_above, 0);
                    for prefix in &cut.prefixes {
                        let job = search.run_job(prefix, Goal::CountAll, &mut Quiet).unwrap();
                        nodes += job.nodes;
                        solutions += job.solutions;
                    }
                    assert_eq!((nodes, solutions), (whole.nodes, whole.solutions), "N = {n}, level {level}");
                }
            }
        }
    }

    #[test]
    fn parallel_counts_equal_the_single_search() {
        let search = QueensSearch::new(QueensSpec::whole(10).unwrap());
        let single = search.run(Goal::CountAll, &mut Quiet);
        assert_eq!(search.count_parallel(2, &mut |_, _| Flow::Continue), single);
    }

    #[test]
    fn the_checker_refuses_bad_solutions() {
        check_solution(4, &[1, 3, 0, 2]).unwrap();
        assert_eq!(check_solution(4, &[1, 3, 0]), Err(QueensError::WrongLength { n: 4, found: 3 }));
        assert_eq!(check_solution(4, &[1, 3, 0, 4]), Err(QueensError::OffBoard { n: 4, rank: 4, file: 4 }));
        assert_eq!(check_solution(4, &[1, 3, 1, 2]), Err(QueensError::Attack { first: 1, second: 3 }));
        assert_eq!(check_solution(4, &[0, 3, 1, 2]), Err(QueensError::Attack { first: 3, second: 4 }));
    }

    #[test]
    fn bad_arguments_are_refused() {
        assert_eq!(QueensSpec::whole(0), Err(QueensError::BadSize(0)));
        assert_eq!(QueensSpec::whole(33), Err(QueensError::BadSize(33)));
        assert!(QueensSpec::new(8, 4..4).is_err());
        assert!(QueensSpec::new(8, 0..9).is_err());
        let search = QueensSearch::new(QueensSpec::whole(6).unwrap());
        assert!(search.run_job(&[0, 1], Goal::CountAll, &mut Quiet).is_err());
        assert!(search.run_job(&[6], Goal::CountAll, &mut Quiet).is_err());
    }
}
