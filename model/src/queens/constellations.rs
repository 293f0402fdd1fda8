//! Counting from constellations: the queens on the board's four edges placed
//! first, one search per class of placements under the board's symmetries.
//!
//! Every solution has exactly one queen on each edge: on the first rank, on
//! the last rank, on file a and on the last file (a corner queen stands on
//! two). Those queens make a *constellation*, written as four numbers (see
//! [`Constellation`]). A symmetry of the board maps the solutions of one
//! constellation one-to-one onto those of its image, so a count searches
//! one constellation of each class of images and counts each of its
//! solutions once for every distinct image (its weight); the class is named
//! by its least image (the canonical one). This is how the fastest counters work (Q27 on FPGAs,
//! NQueensFAF). Which image of a class is searched matters as much: with
//! the one [`Constellation::estimated_cost`] picks, a count searches 2.5
//! times fewer nodes than the mirror alone at N = 12 and 3 times fewer at
//! N = 15.
//!
//! The search between the edges goes rank by rank from rank 1 as the plain
//! reference does, files a→z. The edges' queens take their files and
//! diagonals from the start, so a queen placed on an inner rank is one that
//! attacks none of them. A rank that holds an edge queen has no choice and
//! is passed through; the *nodes* are the queens placed on the other ranks
//! without conflict.

use std::ops::Range;

use rayon::prelude::*;
use serde::Serialize;

use super::{QueensError, QueensOutcome, MAX_N};
use crate::board::{BoardSize, Square};
use crate::run::Status;
use crate::symmetry;

/// The edges' queens of a solution: one queen on each edge, the corners'
/// queens named twice. Ranks and files are 0-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Constellation {
    /// The file of the queen on the first rank.
    pub first_rank_file: u8,
    /// The file of the queen on the last rank.
    pub last_rank_file: u8,
    /// The rank of the queen on file a.
    pub first_file_rank: u8,
    /// The rank of the queen on the last file.
    pub last_file_rank: u8,
}

impl Constellation {
    /// The distinct queens it places, as (rank, file).
    pub fn queens(&self, n: u8) -> Vec<(u8, u8)> {
        let last = n - 1;
        let mut queens = vec![
            (0, self.first_rank_file),
            (last, self.last_rank_file),
            (self.first_file_rank, 0),
            (self.last_file_rank, last),
        ];
        queens.sort_unstable();
        queens.dedup();
        queens
    }

    /// The constellation of a set of queens with one on each edge.
    fn of(n: u8, queens: &[(u8, u8)]) -> Constellation {
        let last = n - 1;
        let on = |test: &dyn Fn(&(u8, u8)) -> bool| *queens.iter().find(|q| test(q)).expect("a queen on every edge");
        Constellation {
            first_rank_file: on(&|q| q.0 == 0).1,
            last_rank_file: on(&|q| q.0 == last).1,
            first_file_rank: on(&|q| q.1 == 0).0,
            last_file_rank: on(&|q| q.1 == last).0,
        }
    }

    /// Whether its four numbers describe queens that are consistent: a
    /// corner queen is the queen of both its edges, and no two attack.
    fn is_consistent(&self, n: u8) -> bool {
        let last = n - 1;
        // The queen on a corner is on both edges through it, and so named by both.
        let corners = [
            (self.first_rank_file == 0, self.first_file_rank == 0),
            (self.first_rank_file == last, self.last_file_rank == 0),
            (self.last_rank_file == 0, self.first_file_rank == last),
            (self.last_rank_file == last, self.last_file_rank == last),
        ];
        if corners.iter().any(|(by_rank, by_file)| by_rank != by_file) {
            return false;
        }
        let queens = self.queens(n);
        queens.iter().enumerate().all(|(i, a)| queens[i + 1..].iter().all(|b| !attack(*a, *b)))
    }

    /// A guess at how costly its search is against its images' (lower is
    /// cheaper), from where the edges' queens stand: the two files' queens
    /// best about three fifths of the way up, the first rank's queen near
    /// the middle file and the last rank's near a corner. (The images'
    /// searches differ by about twice in nodes, in total. Measured on N = 12, 14 and
    /// 15 against searching every image: the image this picks takes 10%,
    /// 6% and 5% more nodes than the cheapest, and 1.6–1.7 times fewer than
    /// the canonical image.)
    pub fn estimated_cost(&self, n: u8) -> i64 {
        let n = i64::from(n);
        let from_three_fifths = |rank: u8| (100 * i64::from(rank) - 60 * n).abs();
        let from_middle = |file: u8| (200 * i64::from(file) - 100 * (n - 1)).abs();
        2 * (from_three_fifths(self.first_file_rank) + from_three_fifths(self.last_file_rank))
            + from_middle(self.first_rank_file)
            - from_middle(self.last_rank_file)
    }

    /// Its images under the board's eight symmetries (with repeats).
    pub fn images(&self, n: u8) -> Vec<Constellation> {
        let board = BoardSize { width: n.into(), height: n.into() };
        let queens = self.queens(n);
        let moved: Vec<Vec<Square>> =
            queens.iter().map(|&(rank, file)| symmetry::images(board, Square::new(file.into(), rank.into()))).collect();
        (0..moved[0].len())
            .map(|symmetry| {
                let image: Vec<(u8, u8)> =
                    moved.iter().map(|m| (m[symmetry].rank as u8, m[symmetry].file as u8)).collect();
                Constellation::of(n, &image)
            })
            .collect()
    }
}

fn attack(a: (u8, u8), b: (u8, u8)) -> bool {
    a.0 == b.0 || a.1 == b.1 || a.0.abs_diff(b.0) == a.1.abs_diff(b.1)
}

/// A class of constellations: the one of its images searched, and how many
/// solutions each solution of that one stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct WeightedConstellation {
    /// The image with the least [`Constellation::estimated_cost`].
    pub constellation: Constellation,
    /// The class's distinct images under the board's symmetries: 1, 2, 4 or 8.
    pub weight: u64,
}

/// The classes of constellations of an `n`-queens board, each with its
/// weight and the image to search, in the order of their canonical images'
/// four numbers (first rank's file, last rank's, file a's rank, the last
/// file's; the canonical image is the least). Their weighted solutions add
/// up to all of the board's.
pub fn constellations(n: u8) -> Result<Vec<WeightedConstellation>, QueensError> {
    constellations_from(n, 0..n)
}

/// The classes of [`constellations`] whose canonical image has its first
/// rank's queen on `first_rank_files`: a part of the count (the classes of
/// disjoint parts are disjoint), as a job shared by devices.
pub fn constellations_from(n: u8, first_rank_files: Range<u8>) -> Result<Vec<WeightedConstellation>, QueensError> {
    if n == 0 || n > MAX_N {
        return Err(QueensError::BadSize(n));
    }
    if first_rank_files.start >= first_rank_files.end || first_rank_files.end > n {
        return Err(QueensError::BadFirstFiles { n, from: first_rank_files.start, to: first_rank_files.end });
    }
    let mut out = Vec::new();
    for first_rank_file in first_rank_files {
        for last_rank_file in 0..n {
            for first_file_rank in 0..n {
                for last_file_rank in 0..n {
                    let constellation =
                        Constellation { first_rank_file, last_rank_file, first_file_rank, last_file_rank };
                    if !constellation.is_consistent(n) {
                        continue;
                    }
                    let mut images = constellation.images(n);
                    images.sort_unstable();
                    images.dedup();
                    if images[0] == constellation {
                        let searched = *images
                            .iter()
                            .min_by_key(|image| (image.estimated_cost(n), **image))
                            .expect("a constellation is among its images");
                        out.push(WeightedConstellation { constellation: searched, weight: images.len() as u64 });
                    }
                }
            }
        }
    }
    Ok(out)
}

/// The search between a constellation's edges.
#[derive(Clone, Debug)]
pub struct ConstellationSearch {
    n: u8,
    full: u64,
    /// Per rank: the file of its edge queen, if it has one.
    edge_file: Vec<Option<u8>>,
    /// Per rank: the files the edges' queens attack there (or stand on).
    taken_by_edges: Vec<u64>,
}

impl ConstellationSearch {
    pub fn new(n: u8, constellation: Constellation) -> Result<Self, QueensError> {
        if n == 0 || n > MAX_N {
            return Err(QueensError::BadSize(n));
        }
        let queens = constellation.queens(n);
        if !constellation.is_consistent(n) || queens.iter().any(|&(rank, file)| rank >= n || file >= n) {
            return Err(QueensError::BadConstellation { n, constellation });
        }
        let mut edge_file = vec![None; n.into()];
        let mut taken_by_edges = vec![0u64; n.into()];
        for &(queen_rank, file) in &queens {
            edge_file[usize::from(queen_rank)] = Some(file);
            for (rank, taken) in taken_by_edges.iter_mut().enumerate() {
                let apart = (rank as i32 - i32::from(queen_rank)).abs();
                for diagonal in [i32::from(file) - apart, i32::from(file) + apart] {
                    if (0..i32::from(n)).contains(&diagonal) {
                        *taken |= 1 << diagonal;
                    }
                }
                *taken |= 1 << file;
            }
        }
        Ok(ConstellationSearch { n, full: (1u64 << n) - 1, edge_file, taken_by_edges })
    }

    /// Counts its solutions (each once, not weighted) and nodes.
    pub fn count(&self) -> QueensOutcome {
        let mut outcome = QueensOutcome { solutions: 0, nodes: 0, status: Status::Exhausted };
        self.below(0, 0, 0, 0, &mut outcome);
        outcome
    }

    /// Searches from `rank` up, with the files and diagonals taken by the
    /// inner queens placed below it.
    fn below(&self, rank: u8, files: u64, rising: u64, falling: u64, outcome: &mut QueensOutcome) {
        if rank == self.n {
            outcome.solutions += 1;
            return;
        }
        let (up, full) = (usize::from(rank), self.full);
        if self.edge_file[up].is_some() {
            // (Its queen attacks none of the inner queens: they kept off its
            // file and both its diagonals on every rank.)
            self.below(rank + 1, files, (rising << 1) & full, falling >> 1, outcome);
            return;
        }
        let mut free = full & !(files | rising | falling | self.taken_by_edges[up]);
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            outcome.nodes += 1;
            self.below(rank + 1, files | bit, ((rising | bit) << 1) & full, (falling | bit) >> 1, outcome);
        }
    }
}

/// Counts every solution of an `n`-queens board from its constellations,
/// on `threads` threads: the solutions weighted, the nodes as searched.
pub fn count(n: u8, threads: usize) -> Result<QueensOutcome, QueensError> {
    count_from(n, 0..n, threads)
}

/// Counts the part of the count [`constellations_from`] gives.
pub fn count_from(n: u8, first_rank_files: Range<u8>, threads: usize) -> Result<QueensOutcome, QueensError> {
    Ok(count_classes(n, &constellations_from(n, first_rank_files)?, threads))
}

/// Counts the solutions of `classes` (those [`constellations`] gives for
/// `n`) on `threads` threads.
pub fn count_classes(n: u8, classes: &[WeightedConstellation], threads: usize) -> QueensOutcome {
    let pool = super::thread_pool(threads);
    let (solutions, nodes) = pool.install(|| {
        classes
            .par_iter()
            .map(|weighted| {
                let search = ConstellationSearch::new(n, weighted.constellation)
                    .expect("canonical constellations are consistent");
                let outcome = search.count();
                (outcome.solutions * weighted.weight, outcome.nodes)
            })
            .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
    });
    QueensOutcome { solutions, nodes, status: Status::Exhausted }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queens::{check_solution, count_plan, QueensSearch};
    use crate::run::Goal;

    /// OEIS A000170, N = 1…14.
    const A000170: [u64; 14] = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2_680, 14_200, 73_712, 365_596];

    #[test]
    fn weighted_counts_are_the_published_ones() {
        for (n, &expected) in (1..).zip(A000170.iter()) {
            assert_eq!(count(n, 2).unwrap().solutions, expected, "N = {n}");
        }
    }

    #[test]
    fn parts_by_the_first_ranks_file_add_up_to_the_published_counts() {
        for (n, &expected) in (4..).zip(&A000170[3..12]) {
            let whole = count(n, 1).unwrap();
            let parts: Vec<QueensOutcome> = (0..n).map(|file| count_from(n, file..file + 1, 1).unwrap()).collect();
            assert_eq!(parts.iter().map(|p| p.solutions).sum::<u64>(), expected, "N = {n}");
            assert_eq!(parts.iter().map(|p| p.nodes).sum::<u64>(), whole.nodes, "N = {n}");
            // Canonical images keep their first rank's queen on the lower half.
            assert!(parts[usize::from(n) / 2 + 1..].iter().all(|p| p.nodes == 0), "N = {n}");
        }
        assert!(matches!(count_from(8, 3..3, 1), Err(QueensError::BadFirstFiles { .. })));
        assert!(matches!(count_from(8, 0..9, 1), Err(QueensError::BadFirstFiles { .. })));
    }

    #[test]
    fn each_solution_belongs_to_one_canonical_constellation_and_its_images() {
        // Every solution of N = 8 names a constellation whose canonical image
        // is listed, and each listed one's weight is its images' count.
        let n = 8;
        let listed = constellations(n).unwrap();
        let (_, solutions) =
            QueensSearch::new(crate::queens::QueensSpec::whole(n).unwrap()).solutions(Goal::First(u64::MAX));
        let mut per_class = std::collections::BTreeMap::new();
        for files in &solutions {
            check_solution(n, files).unwrap();
            let queens: Vec<(u8, u8)> = files.iter().enumerate().map(|(rank, &file)| (rank as u8, file)).collect();
            let edges: Vec<(u8, u8)> =
                queens.into_iter().filter(|&(r, f)| r == 0 || r == n - 1 || f == 0 || f == n - 1).collect();
            let own = Constellation::of(n, &edges);
            let canonical = *own.images(n).iter().min().unwrap();
            *per_class.entry(canonical).or_insert(0u64) += 1;
        }
        assert_eq!(solutions.len(), 92);
        for weighted in &listed {
            let canonical = *weighted.constellation.images(n).iter().min().unwrap();
            let found = per_class.get(&canonical).copied().unwrap_or(0);
            let searched = ConstellationSearch::new(n, weighted.constellation).unwrap().count().solutions;
            assert_eq!(found, searched * weighted.weight, "{weighted:?}");
        }
        let classes: Vec<Constellation> =
            listed.iter().map(|w| *w.constellation.images(n).iter().min().unwrap()).collect();
        assert!(per_class.keys().all(|class| classes.contains(class)));
    }

    #[test]
    fn fewer_nodes_than_the_mirror_from_twelve_queens() {
        let n = 12;
        let mirror: u64 = count_plan(n, true)
            .unwrap()
            .into_iter()
            .map(|part| QueensSearch::new(part.spec).nodes_by_rank().iter().sum::<u64>())
            .sum();
        let outcome = count(n, 2).unwrap();
        // 168,910 against 428,094: 2.53 times fewer.
        assert_eq!(outcome.nodes, 168_910);
        assert_eq!(mirror, 428_094);
        assert_eq!(constellations(n).unwrap().len(), 730);
    }

    #[test]
    fn inconsistent_edges_are_refused() {
        // A queen on a1 stands on file a, so file a's queen must be on rank 1.
        let corner = Constellation { first_rank_file: 0, last_rank_file: 3, first_file_rank: 4, last_file_rank: 2 };
        assert!(ConstellationSearch::new(8, corner).is_err());
        assert_eq!(constellations(0), Err(QueensError::BadSize(0)));
    }
}
