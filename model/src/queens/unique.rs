//! Unique solutions: the classes of solutions under the board's eight
//! symmetries (OEIS A002562), each counted once, by its least member.
//!
//! A solution is a permutation (rank r holds the queen on file `files[r]`),
//! so its images are the permutation and its inverse (the board turned about
//! its diagonal), each as it is, with its files mirrored, its ranks mirrored,
//! or both. Solutions compare rank by rank from rank 1. The least of a class
//! has its first queen in the left half (or on the middle file), since its
//! mirror is in the class too, so listing the mirror's side of the board
//! finds every class's least member.

use rayon::prelude::*;

use super::{count_plan, QueensError, QueensObserver, QueensSearch, QueensSpec};
use crate::run::{Flow, Goal, Status};

/// The solution's eight images under the board's symmetries (with repeats
/// when the solution is symmetric). `files` must be a permutation of
/// `0..files.len()`, as every solution is.
pub fn images(files: &[u8]) -> [Vec<u8>; 8] {
    let n = files.len();
    let last = n.saturating_sub(1) as u8;
    let mut inverse = vec![0u8; n];
    for (rank, &file) in files.iter().enumerate() {
        inverse[usize::from(file)] = rank as u8;
    }
    let mirrored_files = |p: &[u8]| p.iter().map(|&f| last - f).collect::<Vec<u8>>();
    let mirrored_ranks = |p: &[u8]| p.iter().rev().copied().collect::<Vec<u8>>();
    [
        files.to_vec(),
        mirrored_files(files),
        mirrored_ranks(files),
        mirrored_files(&mirrored_ranks(files)),
        inverse.clone(),
        mirrored_files(&inverse),
        mirrored_ranks(&inverse),
        mirrored_files(&mirrored_ranks(&inverse)),
    ]
}

/// Whether `files` is the least of its images, the one member of its class
/// a unique count counts.
pub fn is_least_image(files: &[u8]) -> bool {
    images(files).iter().all(|image| files <= image.as_slice())
}

/// A count of unique solutions, with the whole board's count beside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UniqueOutcome {
    /// Classes of solutions under the eight symmetries.
    pub unique: u64,
    /// Solutions on the whole board.
    pub solutions: u64,
    /// Nodes of the searches that listed them (the mirror's side).
    pub nodes: u64,
}

/// Counts `n` queens' unique solutions on `threads` threads: lists the
/// solutions of the mirror's side a first file at a time and counts those
/// that are the least of their class.
pub fn count(n: u8, threads: usize) -> Result<UniqueOutcome, QueensError> {
    struct LeastImages {
        least: u64,
    }
    impl QueensObserver for LeastImages {
        fn solution(&mut self, files: &[u8]) -> Flow {
            self.least += u64::from(is_least_image(files));
            Flow::Continue
        }
    }
    let parts = count_plan(n, true)?;
    let first_files: Vec<(u8, u64)> =
        parts.iter().flat_map(|part| part.spec.first_files.clone().map(move |file| (file, part.weight))).collect();
    let pool = super::thread_pool(threads);
    let per_file: Vec<Result<UniqueOutcome, QueensError>> = pool.install(|| {
        first_files
            .par_iter()
            .map(|&(file, weight)| {
                let search = QueensSearch::new(QueensSpec::new(n, file..file + 1)?);
                let mut observer = LeastImages { least: 0 };
                let outcome = search.run(Goal::First(u64::MAX), &mut observer);
                debug_assert_eq!(outcome.status, Status::Exhausted);
                Ok(UniqueOutcome {
                    unique: observer.least,
                    solutions: weight * outcome.solutions,
                    nodes: outcome.nodes,
                })
            })
            .collect()
    });
    per_file.into_iter().try_fold(UniqueOutcome { unique: 0, solutions: 0, nodes: 0 }, |sum, part| {
        let part = part?;
        Ok(UniqueOutcome {
            unique: sum.unique + part.unique,
            solutions: sum.solutions + part.solutions,
            nodes: sum.nodes + part.nodes,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queens::Quiet;

    /// OEIS A002562, N = 1…14.
    const UNIQUE: [u64; 14] = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752];

    #[test]
    fn images_are_the_eight_symmetries() {
        // The 5-queens solution a c e b d (files 0 2 4 1 3).
        let files = [0, 2, 4, 1, 3];
        let images = images(&files);
        assert_eq!(images[0], files);
        assert_eq!(images[1], [4, 2, 0, 3, 1], "files mirrored");
        assert_eq!(images[2], [3, 1, 4, 2, 0], "ranks mirrored");
        assert_eq!(images[4], [0, 3, 1, 4, 2], "about the diagonal");
        for image in &images {
            crate::queens::check_solution(5, image).expect("an image of a solution is a solution");
        }
    }

    #[test]
    fn a_class_counts_by_its_least_member() {
        // N = 4's two solutions are each other's mirror (and each its own
        // quarter turn): one class.
        assert!(is_least_image(&[1, 3, 0, 2]));
        assert!(!is_least_image(&[2, 0, 3, 1]));
    }

    #[test]
    fn unique_counts_are_a002562() {
        for n in 1..=14u8 {
            let outcome = count(n, 2).unwrap();
            assert_eq!(outcome.unique, UNIQUE[usize::from(n) - 1], "N = {n}");
            let whole = QueensSearch::new(QueensSpec::whole(n).unwrap()).run(Goal::CountAll, &mut Quiet);
            assert_eq!(outcome.solutions, whole.solutions, "N = {n}: the whole board's solutions");
        }
    }

    #[test]
    fn a_bad_size_is_an_error() {
        assert_eq!(count(0, 1), Err(QueensError::BadSize(0)));
    }
}
