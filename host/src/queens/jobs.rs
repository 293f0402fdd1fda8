//! N-Queens counts cut into jobs that any device runs as one search: the
//! solutions whose first queen stands on given files (QUEENS's first-rank
//! range; under the mirror, weighted 2), or from constellations, the classes
//! whose canonical image's first queen does. The queue that shares them is
//! [`crate::jobs`].

use std::path::Path;
use std::time::Instant;

use knights_model::queens::{constellations, count_plan, QueensError, QueensSpec, WeightedPart};
use knights_model::{Flow, Goal, Status};
use serde::{Deserialize, Serialize};

use super::device::QueensDevice;
use super::query::{self, check_query, PartCount, QueensAnswer, QueensQuery};
use crate::device::error::{DeviceError, RequestError};
use crate::jobs::{self, DeviceFailure, Job, JobResult, Kept, SharedCount, Tally};
use crate::journal::jobs_of;

/// What an N-Queens job counts: the solutions with the first rank's queen
/// on files `from..to`, and with `unique`, those of them that are the least
/// of their class (the device lists them all, the host judges each). With
/// `constellations`, the solutions (weighted) of the classes of
/// constellations whose canonical image has its first rank's queen there.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "problem", rename = "queens")]
pub struct QueensTask {
    pub n: u8,
    pub from: u8,
    pub to: u8,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unique: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub constellations: bool,
}

impl QueensTask {
    /// The count of the solutions `spec` searches.
    pub fn of(spec: &QueensSpec) -> Self {
        QueensTask {
            n: spec.n,
            from: spec.first_files.start,
            to: spec.first_files.end,
            unique: false,
            constellations: false,
        }
    }

    /// The search it counts.
    pub fn spec(&self) -> Result<QueensSpec, QueensError> {
        QueensSpec::new(self.n, self.from..self.to)
    }
}

/// An N-Queens count in words (a plan's, a journal's key).
pub fn describe(query: &QueensQuery) -> String {
    let n = query.n;
    if query.constellations {
        return format!("{n}-queens solutions from constellations");
    }
    format!(
        "{n}-queens solutions{}{}",
        if query.mirror { "" } else { ", whole tree" },
        if query.unique { ", and the unique ones" } else { "" }
    )
}

/// The jobs of an N-Queens count: one per file of the first rank's queen
/// (the left half under the mirror, weighted 2, and an odd board's middle
/// file, 1), so that several devices can share it.
/// A unique count's jobs list their solutions for the host to judge.
pub fn queens_jobs(n: u8, mirror: bool, unique: bool) -> Result<Vec<Job<QueensTask>>, QueensError> {
    let mut jobs = Vec::new();
    for part in count_plan(n, mirror)? {
        for file in part.spec.first_files.clone() {
            let spec = QueensSpec::new(n, file..file + 1)?;
            let task = QueensTask { unique, ..QueensTask::of(&spec) };
            jobs.push(Job { id: jobs.len() as u32, weight: part.weight, task });
        }
    }
    Ok(jobs)
}

/// The jobs of an N-Queens count from constellations: one per file of the
/// canonical images' first queen that has any class (the lower half of the
/// first rank), each weighted 1 (the device weights its solutions).
pub fn constellation_jobs(n: u8) -> Result<Vec<Job<QueensTask>>, QueensError> {
    let mut jobs = Vec::new();
    for file in 0..n {
        if !constellations::constellations_from(n, file..file + 1)?.is_empty() {
            let task = QueensTask { n, from: file, to: file + 1, unique: false, constellations: true };
            jobs.push(Job { id: jobs.len() as u32, weight: 1, task });
        }
    }
    Ok(jobs)
}

/// Runs one job on `device`, checking the request and every solution as
/// any count is checked. `progress` sees the job's own running totals
/// (nodes, solutions); `None` when it stopped the job.
pub fn run<D: QueensDevice + ?Sized>(
    device: &mut D,
    job: &Job<QueensTask>,
    progress: &mut dyn FnMut(u64, u64) -> Flow,
) -> Result<Option<JobResult>, DeviceError> {
    let started = Instant::now();
    let spec = job.task.spec().map_err(|e| RequestError::BadJob { id: job.id, reason: e.to_string() })?;
    let answer = if job.task.constellations {
        query::count_constellations_part(device, &spec, progress)?
    } else {
        query::count_part(device, &spec, job.task.unique, progress)?
    };
    if answer.status == Status::Aborted {
        return Ok(None);
    }
    Ok(Some(JobResult {
        id: job.id,
        count: answer.solution_count,
        unique: answer.unique_count,
        nodes: answer.nodes,
        cycles: answer.cycles,
        engine_seconds: answer.engine_seconds(),
        device: device.name().to_string(),
        device_number: 0,
        elapsed_seconds: started.elapsed().as_secs_f64(),
    }))
}

/// Shares `jobs` among `devices` (see [`jobs::share`]).
pub fn share(
    devices: Vec<Box<dyn QueensDevice + Send>>,
    jobs: &[Job<QueensTask>],
    progress: &(dyn Fn(&Tally) -> Flow + Sync),
) -> Result<SharedCount, DeviceError> {
    share_kept(devices, jobs, progress, None)
}

/// [`share`], keeping each job's result (see [`jobs::share_kept`]).
pub fn share_kept(
    devices: Vec<Box<dyn QueensDevice + Send>>,
    jobs: &[Job<QueensTask>],
    progress: &(dyn Fn(&Tally) -> Flow + Sync),
    kept: Option<&dyn Kept>,
) -> Result<SharedCount, DeviceError> {
    jobs::share_kept(devices, jobs, &|device, job, job_progress| run(device, job, job_progress), progress, kept)
}

/// A count shared by several devices, and the devices it dropped.
#[derive(Clone, Debug)]
pub struct SharedQueens {
    pub answer: QueensAnswer,
    pub failures: Vec<DeviceFailure>,
}

/// Counts `query`'s solutions (its goal must be a count) with `devices`
/// sharing its jobs, a file of the first rank's queen each
/// ([`queens_jobs`]). With a `journal`, each job's result is kept there,
/// and a count stopped before goes on from it.
pub fn count_shared(
    devices: Vec<Box<dyn QueensDevice + Send>>,
    query: QueensQuery,
    progress: &(dyn Fn(&Tally) -> Flow + Sync),
    journal: Option<&Path>,
) -> Result<SharedQueens, DeviceError> {
    assert_eq!(query.goal, Goal::CountAll, "only counts are shared");
    let first = devices.first().expect("at least one device");
    check_query(first.as_ref(), &query)?;
    let device = first.name();
    let plan = || {
        let jobs = if query.constellations {
            constellation_jobs(query.n)
        } else {
            queens_jobs(query.n, query.mirror, query.unique)
        };
        (jobs.expect("N was checked above"), 0)
    };
    let (jobs, _, journal) = jobs_of(journal, &describe(&query), plan)?;
    let shared = share_kept(devices, &jobs, progress, journal.as_ref().map(|j| j as &dyn Kept))?;
    let mut parts = Vec::new();
    for job in &jobs {
        let Some(result) = shared.results.get(&job.id) else {
            continue;
        };
        let QueensTask { n, from, to, constellations, .. } = job.task;
        // (A part from constellations is not a part of the board's tree.)
        if constellations {
            continue;
        }
        let spec = QueensSpec::new(n, from..to).expect("planned parts are valid");
        parts.push(PartCount {
            part: WeightedPart { spec, weight: job.weight },
            solutions: result.count,
            nodes: result.nodes,
        });
    }
    let answer = QueensAnswer {
        query,
        device,
        solutions: Vec::new(),
        solution_count: shared.count(&jobs),
        // The least of a class has its first queen on the mirror's side,
        // which the jobs list once each: their unique counts add up.
        unique_count: query.unique.then(|| shared.results.values().filter_map(|r| r.unique).sum()),
        nodes: shared.nodes(),
        status: shared.status,
        parts,
        cycles: shared.results.values().map(|r| r.cycles).sum(),
        engines: None,
        link: None,
        elapsed: shared.elapsed,
        resumed_parts: shared.resumed_jobs,
        resumed_nodes: shared.resumed_nodes,
    };
    Ok(SharedQueens { answer, failures: shared.failures })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::CpuDevice;

    #[test]
    fn the_jobs_are_the_first_queens_files_and_read_back_as_written() {
        let queens = queens_jobs(9, true, false).unwrap();
        // Files a to d twice, e (the middle) once.
        assert_eq!(
            (queens[4].weight, &queens[4].task),
            (1, &QueensTask { n: 9, from: 4, to: 5, unique: false, constellations: false })
        );
        assert_eq!(queens.iter().map(|j| j.weight).collect::<Vec<_>>(), [2, 2, 2, 2, 1]);
        assert_eq!(queens_jobs(6, false, false).unwrap().len(), 6);
        let text = serde_json::to_string(&queens[0]).unwrap();
        assert!(text.contains(r#""problem":"queens","n":9"#), "{text}");
        assert_eq!(serde_json::from_str::<Job<QueensTask>>(&text).unwrap(), queens[0]);
    }

    #[test]
    fn several_devices_share_a_count_from_constellations_node_for_node() {
        let jobs = constellation_jobs(12).unwrap();
        let files: Vec<u8> = jobs.iter().map(|j| j.task.from).collect();
        assert_eq!(files, [0, 1, 2, 3, 4, 5], "the canonical images' first queens stand on the lower half");
        let cpus = (0..3).map(|_| Box::new(CpuDevice { threads: 1 }) as Box<dyn QueensDevice + Send>).collect();
        let shared = share(cpus, &jobs, &|_| Flow::Continue).unwrap();
        let whole = constellations::count(12, 1).unwrap();
        // OEIS A000170: 14,200 solutions of 12 queens.
        assert_eq!((shared.count(&jobs), shared.nodes()), (14_200, whole.nodes));
    }

    #[test]
    fn several_devices_share_a_count_and_reach_the_published_total() {
        let cpus = (0..3).map(|_| Box::new(CpuDevice { threads: 1 }) as Box<dyn QueensDevice + Send>).collect();
        let queens = queens_jobs(10, true, false).unwrap();
        let shared = share(cpus, &queens, &|_| Flow::Continue).unwrap();
        // OEIS A000170: 724 solutions of 10 queens.
        assert_eq!(shared.count(&queens), 724);
    }
}
