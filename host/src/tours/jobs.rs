//! Knight's-tour counts cut into jobs that any device runs as one search:
//! the tours from one start square (one class of `count --start all`,
//! weighted by the class's size), or the tours below a path from the start
//! (a single start's count cut for several devices). The queue that
//! shares them is [`crate::jobs`].

use std::fmt::Display;
use std::path::Path;
use std::str::FromStr;
use std::time::Instant;

use knights_model::symmetry::start_classes;
use knights_model::tours::parallel::PrefixJobs;
use knights_model::tours::{MoveOrder, SearchSpec};
use knights_model::{BoardSize, Flow, Goal, Square, Status};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::device::{TourDevice, TourSink};
use super::query::{self, check_query, Answer, Query, SharedFigures};
use crate::device::error::{DeviceError, RequestError};
use crate::jobs::{self, DeviceFailure, Job, JobResult, Kept, SharedCount, Tally};
use crate::journal::jobs_of;

/// What a knight's-tour job counts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "problem", rename_all = "lowercase")]
pub enum TourTask {
    /// Every tour from one start square.
    Tours {
        #[serde(with = "as_text")]
        board: BoardSize,
        #[serde(with = "as_text")]
        start: Square,
        closed: bool,
        #[serde(with = "as_text")]
        order: MoveOrder,
        prune: bool,
    },
    /// The tours below a path from the start square (a prefix job of a cut
    /// count, [`PrefixJobs`]): its nodes are the path's last square and
    /// those below. The CPU and the knight's-tour boards run these (a
    /// board's engine 0 replays the path, and its engines share the tree
    /// below it).
    TourPath {
        #[serde(with = "as_text")]
        board: BoardSize,
        #[serde(with = "path_text")]
        path: Vec<Square>,
        closed: bool,
        #[serde(with = "as_text")]
        order: MoveOrder,
        prune: bool,
    },
}

impl TourTask {
    /// The count of `spec`'s tours.
    pub fn tours(spec: &SearchSpec) -> Self {
        TourTask::Tours {
            board: spec.board,
            start: spec.start,
            closed: spec.closed,
            order: spec.order,
            prune: spec.prune,
        }
    }

    /// The count of `spec`'s tours below `path` (which starts on `spec`'s
    /// start square).
    pub fn tour_path(spec: &SearchSpec, path: Vec<Square>) -> Self {
        TourTask::TourPath { board: spec.board, path, closed: spec.closed, order: spec.order, prune: spec.prune }
    }

    /// The tour search (from the path's first square for a path's; `None`
    /// for an empty path).
    pub fn search_spec(&self) -> Option<SearchSpec> {
        match *self {
            TourTask::Tours { board, start, closed, order, prune } => {
                Some(SearchSpec { board, start, closed, order, prune })
            }
            TourTask::TourPath { board, ref path, closed, order, prune } => {
                Some(SearchSpec { board, start: *path.first()?, closed, order, prune })
            }
        }
    }
}

/// A count of `spec`'s tours in words (a plan's, a journal's key): from
/// every start square or `spec`'s.
pub fn describe(spec: &SearchSpec, every_start: bool) -> String {
    format!(
        "{} tours of {} from {}, {} order{}",
        if spec.closed { "closed" } else { "open" },
        spec.board,
        if every_start { "every start square".to_string() } else { spec.start.to_string() },
        spec.order,
        if spec.prune { ", pruned" } else { "" }
    )
}

/// The jobs of a count of every start square: one per class of start
/// squares under the board's symmetries, weighted by its size.
pub fn whole_board_jobs(spec: &SearchSpec) -> Vec<Job<TourTask>> {
    start_classes(spec.board)
        .into_iter()
        .zip(0..)
        .map(|(class, id)| Job {
            id,
            weight: class.weight,
            task: TourTask::tours(&SearchSpec { start: class.start, ..*spec }),
        })
        .collect()
}

/// The jobs of a count of one start square cut into paths of one length,
/// at least `min_jobs` of them where the tree has them, and the nodes above
/// the cut, which no job counts.
pub fn path_jobs(spec: &SearchSpec, min_jobs: usize) -> (Vec<Job<TourTask>>, u64) {
    let cut = PrefixJobs::split(spec, min_jobs);
    let jobs = cut
        .prefixes
        .into_iter()
        .zip(0..)
        .map(|(path, id)| Job { id, weight: 1, task: TourTask::tour_path(spec, path) })
        .collect();
    (jobs, cut.nodes_above)
}

/// Runs one job on `device`, checking the request and the answer as any
/// count is checked. `progress` sees the job's own running totals (nodes,
/// tours); `None` when it stopped the job.
pub fn run<D: TourDevice + ?Sized>(
    device: &mut D,
    job: &Job<TourTask>,
    progress: &mut dyn FnMut(u64, u64) -> Flow,
) -> Result<Option<JobResult>, DeviceError> {
    let started = Instant::now();
    let bad_job = |reason: &str| RequestError::BadJob { id: job.id, reason: reason.into() };
    let spec = job.task.search_spec().ok_or_else(|| bad_job("an empty path"))?;
    let query = Query { spec, goal: Goal::CountAll };
    let (count, nodes, cycles, seconds, status) = match &job.task {
        TourTask::Tours { .. } => {
            let answer = query::run(device, query, progress)?;
            (answer.tour_count, answer.nodes, answer.cycles, answer.engine_seconds(), answer.status)
        }
        TourTask::TourPath { path, .. } => {
            check_query(device, &query)?;
            let report = device.count_from(&spec, path, &mut Counting { progress })?;
            (report.found, report.nodes, report.cycles, report.engine_seconds(), report.status)
        }
    };
    if status == Status::Aborted {
        return Ok(None);
    }
    Ok(Some(JobResult {
        id: job.id,
        count,
        unique: None,
        nodes,
        cycles,
        engine_seconds: seconds,
        device: device.name().to_string(),
        device_number: 0,
        elapsed_seconds: started.elapsed().as_secs_f64(),
    }))
}

/// Takes a prefix job's running totals (a count sends no tours; the CPU
/// checked those it counted).
struct Counting<'a> {
    progress: &'a mut dyn FnMut(u64, u64) -> Flow,
}

impl TourSink for Counting<'_> {
    fn tour(&mut self, _tour: &[Square]) -> Result<(), DeviceError> {
        Ok(())
    }

    fn progress(&mut self, nodes: u64, tours: u64) -> Flow {
        (self.progress)(nodes, tours)
    }
}

/// Shares `jobs` among `devices` (see [`jobs::share`]).
pub fn share(
    devices: Vec<Box<dyn TourDevice + Send>>,
    jobs: &[Job<TourTask>],
    progress: &(dyn Fn(&Tally) -> Flow + Sync),
) -> Result<SharedCount, DeviceError> {
    share_kept(devices, jobs, progress, None)
}

/// [`share`], keeping each job's result (see [`jobs::share_kept`]).
pub fn share_kept(
    devices: Vec<Box<dyn TourDevice + Send>>,
    jobs: &[Job<TourTask>],
    progress: &(dyn Fn(&Tally) -> Flow + Sync),
    kept: Option<&dyn Kept>,
) -> Result<SharedCount, DeviceError> {
    jobs::share_kept(devices, jobs, &|device, job, job_progress| run(device, job, job_progress), progress, kept)
}

/// Paths per device when several devices share one start's count: enough
/// that the devices finish close together and a device dropped mid-count
/// leaves one small job to redo.
pub const PATH_JOBS_PER_DEVICE: usize = 16;

/// Counts one start's tours on several devices: the tree is cut into paths
/// from the start ([`path_jobs`]) that the devices take in turn (a
/// board's engines share the tree below each), a device that fails is
/// dropped and its path counted by the others. The answer's nodes include
/// those above the cut; it names the first device, and the failures the
/// devices dropped. With a `journal`, the paths and their results are kept
/// there, and a count stopped before goes on from it.
pub fn count_shared(
    mut devices: Vec<Box<dyn TourDevice + Send>>,
    spec: SearchSpec,
    progress: &(dyn Fn(&Tally) -> Flow + Sync),
    journal: Option<&Path>,
) -> Result<(Answer, Vec<DeviceFailure>), DeviceError> {
    let query = Query { spec, goal: Goal::CountAll };
    let first = devices.first_mut().expect("at least one device");
    check_query(first.as_ref(), &query)?;
    if spec.closed && spec.board.closed_tour_obstruction().is_some() {
        return Ok((query::run(first.as_mut(), query, &mut |_, _| Flow::Continue)?, Vec::new()));
    }
    let device = first.name();
    let min_jobs = devices.len() * PATH_JOBS_PER_DEVICE;
    let (jobs, nodes_above, journal) = jobs_of(journal, &describe(&spec, false), || path_jobs(&spec, min_jobs))?;
    let device_count = devices.len();
    let shared = share_kept(devices, &jobs, progress, journal.as_ref().map(|j| j as &dyn Kept))?;
    let results = || shared.results.values();
    let answer = Answer {
        query,
        device,
        tours: Vec::new(),
        tour_count: shared.count(&jobs),
        nodes: nodes_above + shared.nodes(),
        status: shared.status,
        cycles: results().map(|r| r.cycles).sum(),
        engines: None,
        link: None,
        elapsed: shared.elapsed,
        impossible: None,
        shared: Some(SharedFigures {
            devices: device_count,
            jobs: jobs.len(),
            engine_seconds: results().map(|r| r.engine_seconds).sum(),
            modeled_seconds: jobs::modeled_seconds(results()),
            resumed_jobs: shared.resumed_jobs,
            resumed_nodes: shared.resumed_nodes,
        }),
    };
    Ok((answer, shared.failures))
}

/// (De)serialises a value as its text form (`6x6`, `a1`, `warnsdorff`).
mod as_text {
    use super::*;

    pub fn serialize<T: Display, S: Serializer>(value: &T, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(value)
    }

    pub fn deserialize<'de, T, D>(deserializer: D) -> Result<T, D::Error>
    where
        T: FromStr,
        T::Err: Display,
        D: Deserializer<'de>,
    {
        String::deserialize(deserializer)?.parse().map_err(serde::de::Error::custom)
    }
}

/// (De)serialises a path as its squares' names: `a1 b3 c5`.
mod path_text {
    use super::*;

    pub fn serialize<S: Serializer>(path: &[Square], serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&path.iter().map(Square::to_string).collect::<Vec<_>>().join(" "))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<Square>, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.split_whitespace().map(|name| name.parse().map_err(serde::de::Error::custom)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::CpuDevice;
    use knights_model::tours::{Searcher, TourList};

    fn six_by_six() -> SearchSpec {
        SearchSpec {
            board: BoardSize::square(6),
            start: Square::new(0, 0),
            closed: false,
            order: MoveOrder::Fixed,
            prune: true,
        }
    }

    fn cpus(count: usize) -> Vec<Box<dyn TourDevice + Send>> {
        (0..count).map(|_| Box::new(CpuDevice { threads: 1 }) as Box<dyn TourDevice + Send>).collect()
    }

    #[test]
    fn jobs_are_the_classes_and_read_back_as_written() {
        let jobs = whole_board_jobs(&SearchSpec { board: BoardSize::square(5), ..six_by_six() });
        // 5x5: six classes of start squares, 25 squares in all.
        assert_eq!(jobs.len(), 6);
        assert_eq!(jobs.iter().map(|j| j.weight).sum::<u64>(), 25);
        let text = serde_json::to_string(&jobs[0]).unwrap();
        assert!(text.contains(r#""problem":"tours","board":"5x5","start":"a1""#), "{text}");
        assert_eq!(serde_json::from_str::<Job<TourTask>>(&text).unwrap(), jobs[0]);
    }

    #[test]
    fn several_devices_share_a_count_and_reach_the_published_totals() {
        let jobs = whole_board_jobs(&six_by_six());
        let shared = share(cpus(2), &jobs, &|_| Flow::Continue).unwrap();
        assert_eq!((shared.count(&jobs), shared.status, shared.results.len()), (6_637_920, Status::Exhausted, 6));
    }

    #[test]
    fn path_jobs_sum_to_the_whole_search_and_a_device_without_them_refuses() {
        let spec = SearchSpec { board: BoardSize::square(5), ..six_by_six() };
        let (jobs, nodes_above) = path_jobs(&spec, 20);
        assert!(jobs.len() >= 20, "{}", jobs.len());
        let text = serde_json::to_string(&jobs[0].task).unwrap();
        assert!(text.contains(r#""path":"a1 b3"#), "{text}");
        assert_eq!(serde_json::from_str::<TourTask>(&text).unwrap(), jobs[0].task);
        let shared = share(cpus(2), &jobs, &|_| Flow::Continue).unwrap();
        let whole = Searcher::new(spec).unwrap().run(Goal::CountAll, &mut TourList::default());
        assert_eq!((shared.count(&jobs), shared.nodes() + nodes_above), (whole.tours, whole.nodes));
        let refused = share(vec![Box::new(Whole)], &jobs, &|_| Flow::Continue).unwrap_err();
        assert!(matches!(refused, DeviceError::Request(RequestError::NoPrefixJobs { .. })), "{refused}");
    }

    /// A device that takes whole searches only (10 tours in 100 nodes).
    struct Whole;

    impl crate::device::Device for Whole {
        fn name(&self) -> &'static str {
            "whole"
        }
    }

    impl TourDevice for Whole {
        fn max_board(&self) -> BoardSize {
            BoardSize::square(8)
        }

        fn search(
            &mut self,
            _: &SearchSpec,
            _: Goal,
            _: &mut dyn TourSink,
        ) -> Result<crate::device::Report, DeviceError> {
            Ok(crate::device::Report::counts(10, 100, Status::Exhausted))
        }
    }

    #[test]
    fn a_refused_job_stops_the_count() {
        // A board past the CPU's 64x64: the refusal is the error.
        let mut spec = six_by_six();
        spec.board = BoardSize::square(65);
        let refused = share(cpus(2), &whole_board_jobs(&spec), &|_| Flow::Continue).unwrap_err();
        assert!(matches!(refused, DeviceError::Request(RequestError::BoardTooLarge { .. })), "{refused}");
    }
}
