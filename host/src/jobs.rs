//! Counts cut into jobs that any device runs as one search, and a queue that
//! shares a count's jobs among several devices.
//!
//! A job is a count a device takes as one command: the tours from one start
//! square (one class of `count --start all`, weighted by the class's size),
//! or the N-Queens solutions whose first queen stands on given files
//! (QUEENS's first-rank range; under the mirror, weighted 2). Devices take
//! jobs from one queue as they finish theirs, and each job's result is kept
//! once. A device that fails (its port gone, no answer, a bad result) is
//! dropped and its job goes back to the queue for the others, so the totals
//! stay exact; a request a device refuses (a board past its build, say)
//! stops the count, since every device of that build would refuse it.
//!
//! A single start's count is one job: a board takes a search whole, and the
//! protocol has no way yet to hand it one subtree.

use std::collections::{BTreeMap, VecDeque};
use std::fmt::Display;
use std::str::FromStr;
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::board::{BoardSize, Square};
use crate::device::{Device, Sink};
use crate::error::DeviceError;
use crate::parallel::PrefixJobs;
use crate::queens::{count_plan, QueensError, QueensSpec};
use crate::queens_query;
use crate::query::{self, check_query, Query};
use crate::render::{device_seconds, engine_seconds, queens_engine_seconds};
use crate::search::{Flow, Goal, MoveOrder, SearchSpec, Status};
use crate::symmetry::start_classes;

/// What a job counts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "problem", rename_all = "lowercase")]
pub enum Task {
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
    /// The N-Queens solutions with the first rank's queen on files
    /// `from..to`.
    Queens { n: u8, from: u8, to: u8 },
}

impl Task {
    /// The count of `spec`'s tours.
    pub fn tours(spec: &SearchSpec) -> Self {
        Task::Tours { board: spec.board, start: spec.start, closed: spec.closed, order: spec.order, prune: spec.prune }
    }

    /// The count of `spec`'s tours below `path` (which starts on `spec`'s
    /// start square).
    pub fn tour_path(spec: &SearchSpec, path: Vec<Square>) -> Self {
        Task::TourPath { board: spec.board, path, closed: spec.closed, order: spec.order, prune: spec.prune }
    }

    /// The count of the solutions `spec` searches.
    pub fn queens(spec: &QueensSpec) -> Self {
        Task::Queens { n: spec.n, from: spec.first_files.start, to: spec.first_files.end }
    }

    /// The tour search, for a tours task (from the path's first square for
    /// a path's).
    pub fn search_spec(&self) -> Option<SearchSpec> {
        match *self {
            Task::Tours { board, start, closed, order, prune } => {
                Some(SearchSpec { board, start, closed, order, prune })
            }
            Task::TourPath { board, ref path, closed, order, prune } => {
                Some(SearchSpec { board, start: *path.first()?, closed, order, prune })
            }
            Task::Queens { .. } => None,
        }
    }
}

/// One job of a count: its task, and how many times its count counts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Job {
    pub id: u32,
    pub weight: u64,
    pub task: Task,
}

/// What one job counted, and where.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobResult {
    pub id: u32,
    /// Tours (or solutions) found, before the job's weight.
    pub count: u64,
    pub nodes: u64,
    /// Engine clock cycles and their time at the device's clock, from
    /// devices that count them.
    pub cycles: Option<u64>,
    pub engine_seconds: Option<f64>,
    /// The device's name, and its number among the devices that shared the
    /// count (0 when one device ran it).
    pub device: String,
    #[serde(default)]
    pub device_number: usize,
    pub elapsed_seconds: f64,
}

/// The time the devices' engines took when they share jobs: the busiest
/// device's engine seconds (devices run at once), from devices that count
/// cycles.
pub fn modeled_seconds<'a>(results: impl IntoIterator<Item = &'a JobResult>) -> Option<f64> {
    let mut busy: BTreeMap<usize, f64> = BTreeMap::new();
    for result in results {
        *busy.entry(result.device_number).or_default() += result.engine_seconds?;
    }
    busy.into_values().reduce(f64::max)
}

/// The jobs of a count of every start square: one per class of start
/// squares under the board's symmetries, weighted by its size.
pub fn whole_board_jobs(spec: &SearchSpec) -> Vec<Job> {
    start_classes(spec.board)
        .into_iter()
        .zip(0..)
        .map(|(class, id)| Job {
            id,
            weight: class.weight,
            task: Task::tours(&SearchSpec { start: class.start, ..*spec }),
        })
        .collect()
}

/// The jobs of an N-Queens count: one per file of the first rank's queen
/// (the left half under the mirror, weighted 2, and an odd board's middle
/// file, 1), so that several devices can share it.
pub fn queens_jobs(n: u8, mirror: bool) -> Result<Vec<Job>, QueensError> {
    let mut jobs = Vec::new();
    for part in count_plan(n, mirror)? {
        for file in part.spec.first_files.clone() {
            let spec = QueensSpec::new(n, file..file + 1)?;
            jobs.push(Job { id: jobs.len() as u32, weight: part.weight, task: Task::queens(&spec) });
        }
    }
    Ok(jobs)
}

/// Runs one job on `device`, checking the request and the answer as any
/// count is checked. `progress` sees the job's own running totals (nodes,
/// count before the weight); `None` when it stopped the job.
pub fn run_job(
    device: &mut dyn Device,
    job: &Job,
    progress: &mut dyn FnMut(u64, u64) -> Flow,
) -> Result<Option<JobResult>, DeviceError> {
    let started = Instant::now();
    let (count, nodes, cycles, seconds, status) = match &job.task {
        Task::Tours { .. } => {
            let spec = job.task.search_spec().expect("a tours task");
            let answer = query::run(device, Query { spec, goal: Goal::CountAll }, progress)?;
            (answer.tour_count, answer.nodes, answer.cycles, engine_seconds(&answer), answer.status)
        }
        Task::TourPath { path, .. } => {
            let spec =
                job.task.search_spec().ok_or(DeviceError::BadJob { id: job.id, reason: "an empty path".into() })?;
            check_query(device, &Query { spec, goal: Goal::CountAll })?;
            let report = device.count_from(&spec, path, &mut Counting { progress })?;
            let outcome = report.outcome;
            let seconds = device_seconds(report.cycles, report.link);
            (outcome.tours, outcome.nodes, report.cycles, seconds, outcome.status)
        }
        &Task::Queens { n, from, to } => {
            let spec =
                QueensSpec::new(n, from..to).map_err(|e| DeviceError::BadJob { id: job.id, reason: e.to_string() })?;
            let answer = queens_query::count_part(device, &spec, progress)?;
            let seconds = queens_engine_seconds(&answer);
            (answer.solution_count, answer.nodes, answer.cycles, seconds, answer.status)
        }
    };
    if status == Status::Aborted {
        return Ok(None);
    }
    Ok(Some(JobResult {
        id: job.id,
        count,
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

impl Sink for Counting<'_> {
    fn tour(&mut self, _tour: &[Square]) -> Result<(), DeviceError> {
        Ok(())
    }

    fn progress(&mut self, nodes: u64, tours: u64) -> Flow {
        (self.progress)(nodes, tours)
    }
}

/// The jobs of a count of one start square cut into paths of one length,
/// at least `min_jobs` of them where the tree has them, and the nodes above
/// the cut, which no job counts.
pub fn path_jobs(spec: &SearchSpec, min_jobs: usize) -> (Vec<Job>, u64) {
    let cut = PrefixJobs::split(spec, min_jobs);
    let jobs = cut
        .prefixes
        .into_iter()
        .zip(0..)
        .map(|(path, id)| Job { id, weight: 1, task: Task::tour_path(spec, path) })
        .collect();
    (jobs, cut.nodes_above)
}

/// Where a shared count stands.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    pub jobs_done: usize,
    pub jobs: usize,
    /// Nodes searched, and tours (solutions) counted with the jobs' weights,
    /// by the jobs done and under way.
    pub nodes: u64,
    pub count: u64,
    pub elapsed: Duration,
}

/// A device dropped from a shared count, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeviceFailure {
    /// The device (its number in the list given, and its name).
    pub device: usize,
    pub name: String,
    /// The job it was running, handed to the others.
    pub job: u32,
    pub error: String,
}

/// A count shared by several devices.
#[derive(Clone, Debug)]
pub struct SharedCount {
    /// One result per job done, by job id.
    pub results: BTreeMap<u32, JobResult>,
    /// Exhausted, or Aborted when progress stopped it (the jobs done are
    /// kept).
    pub status: Status,
    pub failures: Vec<DeviceFailure>,
    pub devices: usize,
    pub elapsed: Duration,
}

impl SharedCount {
    /// Tours (solutions) counted: each job's count times its weight.
    pub fn count(&self, jobs: &[Job]) -> u64 {
        jobs.iter().filter_map(|job| self.results.get(&job.id).map(|r| job.weight * r.count)).sum()
    }

    /// Nodes searched, each job once.
    pub fn nodes(&self) -> u64 {
        self.results.values().map(|r| r.nodes).sum()
    }
}

/// The queue the devices' threads share.
struct Queue {
    /// Jobs not yet taken (indices into the job list), and jobs taken.
    waiting: VecDeque<usize>,
    running: usize,
    results: BTreeMap<u32, JobResult>,
    failures: Vec<DeviceFailure>,
    /// A refusal that stops every device.
    refused: Option<DeviceError>,
    stopped: bool,
    /// Each device's running totals of the job it runs (its count weighted).
    under_way: Vec<(u64, u64)>,
    /// Nodes and weighted count of the jobs done.
    done: (u64, u64),
}

impl Queue {
    fn tally(&self, jobs: usize, started: Instant) -> Tally {
        Tally {
            jobs_done: self.results.len(),
            jobs,
            nodes: self.done.0 + self.under_way.iter().map(|u| u.0).sum::<u64>(),
            count: self.done.1 + self.under_way.iter().map(|u| u.1).sum::<u64>(),
            elapsed: started.elapsed(),
        }
    }

    /// Whether a device should stop taking jobs.
    fn over(&self) -> bool {
        self.stopped || self.refused.is_some()
    }
}

/// What the devices' threads share: the jobs, the queue, and its signal.
struct Shared<'a> {
    jobs: &'a [Job],
    queue: Mutex<Queue>,
    changed: Condvar,
    progress: &'a (dyn Fn(&Tally) -> Flow + Sync),
    // Held from a tally's taking to its telling, so that `progress` sees
    // the totals in the order they were taken (the last one the whole
    // count's), whichever device's thread runs first.
    telling: Mutex<()>,
    started: Instant,
}

impl Shared<'_> {
    /// The queue, also after a device's thread panicked (its job is then
    /// handed back like a failed device's).
    fn lock(&self) -> std::sync::MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Tells `progress` the totals as `queue` has them, in their turn.
    fn tell(&self, queue: std::sync::MutexGuard<'_, Queue>) -> (Tally, Flow) {
        let tally = queue.tally(self.jobs.len(), self.started);
        let _turn = self.telling.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        drop(queue);
        let flow = (self.progress)(&tally);
        (tally, flow)
    }

    /// The next job for a device: waits while the queue is empty but jobs
    /// under way may come back (their device failing); `None` when none is
    /// left.
    fn take(&self) -> Option<usize> {
        let mut queue = self.lock();
        loop {
            if queue.over() {
                return None;
            }
            if let Some(index) = queue.waiting.pop_front() {
                queue.running += 1;
                return Some(index);
            }
            if queue.running == 0 {
                return None;
            }
            queue = self.changed.wait(queue).unwrap_or_else(std::sync::PoisonError::into_inner);
        }
    }

    /// A device's thread: takes jobs until none is left, the count stops,
    /// or the device fails.
    fn work(&self, number: usize, device: &mut dyn Device) {
        while let Some(index) = self.take() {
            let job = &self.jobs[index];
            let mut report = |nodes: u64, count: u64| {
                let mut queue = self.lock();
                queue.under_way[number] = (nodes, job.weight * count);
                let (_, flow) = self.tell(queue);
                let mut queue = self.lock();
                queue.stopped |= flow == Flow::Stop;
                if queue.over() {
                    Flow::Stop
                } else {
                    Flow::Continue
                }
            };
            // A device that panics is a failed device: its job goes back.
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run_job(device, job, &mut report)))
                .unwrap_or_else(|panic| {
                    let reason = panic
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .or_else(|| panic.downcast_ref::<String>().cloned());
                    Err(DeviceError::Panicked { device: device.name(), reason: reason.unwrap_or_default() })
                });
            let mut queue = self.lock();
            queue.running -= 1;
            queue.under_way[number] = (0, 0);
            let keep_going = match result {
                Ok(Some(mut result)) => {
                    result.device_number = number;
                    queue.done = (queue.done.0 + result.nodes, queue.done.1 + job.weight * result.count);
                    let first = queue.results.insert(job.id, result).is_none();
                    assert!(first, "a job is handed out again only after its device failed");
                    true
                }
                Ok(None) => {
                    queue.stopped = true;
                    queue.waiting.push_front(index);
                    false
                }
                Err(error) if error.is_the_device() => {
                    let failure = DeviceFailure {
                        device: number,
                        name: device.name().to_string(),
                        job: job.id,
                        error: error.to_string(),
                    };
                    queue.failures.push(failure);
                    queue.waiting.push_front(index);
                    false
                }
                Err(error) => {
                    queue.refused.get_or_insert(error);
                    false
                }
            };
            let (tally, flow) = self.tell(queue);
            self.changed.notify_all();
            // The last job's totals: a stop asked now has nothing to stop.
            if flow == Flow::Stop && tally.jobs_done < tally.jobs {
                self.lock().stopped = true;
                self.changed.notify_all();
            }
            if !keep_going {
                break;
            }
        }
    }
}

/// Shares `jobs` among `devices`, each on its own thread: a device takes the
/// next job when it finishes one. `progress` sees the totals (from any
/// device's thread) and may stop the count. Fails with the refusal when a
/// device refuses a job, and with [`DeviceError::DevicesLost`] when every
/// device failed before the jobs were done.
pub fn share(
    devices: Vec<Box<dyn Device + Send>>,
    jobs: &[Job],
    progress: &(dyn Fn(&Tally) -> Flow + Sync),
) -> Result<SharedCount, DeviceError> {
    let device_count = devices.len();
    let shared = Shared {
        jobs,
        queue: Mutex::new(Queue {
            waiting: (0..jobs.len()).collect(),
            running: 0,
            results: BTreeMap::new(),
            failures: Vec::new(),
            refused: None,
            stopped: false,
            under_way: vec![(0, 0); device_count],
            done: (0, 0),
        }),
        changed: Condvar::new(),
        telling: Mutex::new(()),
        progress,
        started: Instant::now(),
    };
    std::thread::scope(|scope| {
        for (number, mut device) in devices.into_iter().enumerate() {
            let shared = &shared;
            scope.spawn(move || shared.work(number, device.as_mut()));
        }
    });
    let elapsed = shared.started.elapsed();
    let queue = shared.queue.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(refusal) = queue.refused {
        return Err(refusal);
    }
    let complete = queue.results.len() == jobs.len();
    if !queue.stopped && !complete {
        return Err(DeviceError::DevicesLost {
            left: jobs.len() - queue.results.len(),
            failures: queue
                .failures
                .iter()
                .map(|f| format!("device {} ({}): {}", f.device + 1, f.name, f.error))
                .collect(),
        });
    }
    Ok(SharedCount {
        results: queue.results,
        status: if complete { Status::Exhausted } else { Status::Aborted },
        failures: queue.failures,
        devices: device_count,
        elapsed,
    })
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
    use crate::device::{CpuDevice, Report, Sink};
    use crate::search::Outcome;

    fn six_by_six() -> SearchSpec {
        SearchSpec {
            board: BoardSize::square(6),
            start: Square::new(0, 0),
            closed: false,
            order: MoveOrder::Fixed,
            prune: true,
        }
    }

    fn cpus(count: usize) -> Vec<Box<dyn Device + Send>> {
        (0..count).map(|_| Box::new(CpuDevice { threads: 1 }) as Box<dyn Device + Send>).collect()
    }

    #[test]
    fn jobs_are_the_classes_and_the_queens_files_and_read_back_as_written() {
        let jobs = whole_board_jobs(&SearchSpec { board: BoardSize::square(5), ..six_by_six() });
        // 5x5: six classes of start squares, 25 squares in all.
        assert_eq!(jobs.len(), 6);
        assert_eq!(jobs.iter().map(|j| j.weight).sum::<u64>(), 25);
        let queens = queens_jobs(9, true).unwrap();
        // Files a to d twice, e (the middle) once.
        assert_eq!((queens[4].weight, &queens[4].task), (1, &Task::Queens { n: 9, from: 4, to: 5 }));
        assert_eq!(queens.iter().map(|j| j.weight).collect::<Vec<_>>(), [2, 2, 2, 2, 1]);
        assert_eq!(queens_jobs(6, false).unwrap().len(), 6);
        let text = serde_json::to_string(&jobs[0]).unwrap();
        assert!(text.contains(r#""board":"5x5","start":"a1""#), "{text}");
        assert_eq!(serde_json::from_str::<Job>(&text).unwrap(), jobs[0]);
    }

    #[test]
    fn several_devices_share_a_count_and_reach_the_published_totals() {
        let jobs = whole_board_jobs(&six_by_six());
        let shared = share(cpus(2), &jobs, &|_| Flow::Continue).unwrap();
        assert_eq!((shared.count(&jobs), shared.status, shared.results.len()), (6_637_920, Status::Exhausted, 6));
        let queens = queens_jobs(10, true).unwrap();
        let shared = share(cpus(3), &queens, &|_| Flow::Continue).unwrap();
        assert_eq!(shared.count(&queens), 724);
    }

    #[test]
    fn path_jobs_sum_to_the_whole_search_and_a_device_without_them_refuses() {
        let spec = SearchSpec { board: BoardSize::square(5), ..six_by_six() };
        let (jobs, nodes_above) = path_jobs(&spec, 20);
        assert!(jobs.len() >= 20, "{}", jobs.len());
        let text = serde_json::to_string(&jobs[0].task).unwrap();
        assert!(text.contains(r#""path":"a1 b3"#), "{text}");
        assert_eq!(serde_json::from_str::<Task>(&text).unwrap(), jobs[0].task);
        let shared = share(cpus(2), &jobs, &|_| Flow::Continue).unwrap();
        let whole = crate::Searcher::new(spec).unwrap().run(Goal::CountAll, &mut crate::search::TourList::default());
        assert_eq!((shared.count(&jobs), shared.nodes() + nodes_above), (whole.tours, whole.nodes));
        let refused = share(flaky(&[0]), &jobs, &|_| Flow::Continue).unwrap_err();
        assert!(matches!(refused, DeviceError::NoPrefixJobs { .. }), "{refused}");
    }

    /// A device that counts 10 tours in 100 nodes a job, and fails its
    /// `fail_at`-th job as a board whose port vanished does.
    struct Flaky {
        jobs: usize,
        fail_at: usize,
    }

    impl Device for Flaky {
        fn name(&self) -> &'static str {
            "flaky"
        }

        fn max_board(&self) -> BoardSize {
            BoardSize::square(8)
        }

        fn search(&mut self, _: &SearchSpec, _: Goal, _: &mut dyn Sink) -> Result<Report, DeviceError> {
            self.jobs += 1;
            std::thread::sleep(Duration::from_millis(5));
            if self.jobs == self.fail_at {
                return Err(DeviceError::NoAnswer { device: "flaky".into(), timeout: Duration::from_secs(5) });
            }
            let outcome = Outcome { tours: 10, nodes: 100, status: Status::Exhausted };
            Ok(Report { outcome, cycles: None, engines: None, link: None })
        }
    }

    fn flaky(fail_at: &[usize]) -> Vec<Box<dyn Device + Send>> {
        fail_at.iter().map(|&fail_at| Box::new(Flaky { jobs: 0, fail_at }) as Box<dyn Device + Send>).collect()
    }

    #[test]
    fn a_failed_device_s_job_goes_to_the_others_and_each_job_counts_once() {
        let jobs = whole_board_jobs(&six_by_six());
        // The second device fails on its first job.
        let shared = share(flaky(&[0, 1, 0]), &jobs, &|_| Flow::Continue).unwrap();
        assert_eq!(shared.results.len(), 6);
        assert_eq!(shared.count(&jobs), 10 * 36);
        assert_eq!(shared.nodes(), 600);
        assert_eq!(shared.failures.len(), 1);
        assert_eq!(shared.failures[0].device, 1);
        // Every device failing leaves jobs: an error, naming them.
        let lost = share(flaky(&[1, 2]), &jobs, &|_| Flow::Continue).unwrap_err();
        assert!(matches!(lost, DeviceError::DevicesLost { left, .. } if left >= 4), "{lost}");
    }

    /// Devices finishing together: `progress` still sees the totals in
    /// the order they were taken, the last one the whole count's. (A
    /// telling that sleeps gives a later tally the chance to overtake it.)
    #[test]
    fn progress_sees_the_totals_in_order() {
        let jobs = whole_board_jobs(&six_by_six());
        let seen = Mutex::new(Vec::new());
        let progress = |tally: &Tally| {
            std::thread::sleep(Duration::from_millis((3 * tally.jobs_done as u64) % 7));
            seen.lock().unwrap().push(tally.jobs_done);
            Flow::Continue
        };
        let shared = share(flaky(&[0, 0, 0, 0]), &jobs, &progress).unwrap();
        assert_eq!(shared.results.len(), 6);
        let seen = seen.into_inner().unwrap();
        assert!(seen.windows(2).all(|w| w[0] <= w[1]), "{seen:?}");
        assert_eq!(seen.last(), Some(&6));
    }

    /// A device that panics on its first search.
    struct Panicky;

    impl Device for Panicky {
        fn name(&self) -> &'static str {
            "panicky"
        }

        fn max_board(&self) -> BoardSize {
            BoardSize::square(8)
        }

        fn search(&mut self, _: &SearchSpec, _: Goal, _: &mut dyn Sink) -> Result<Report, DeviceError> {
            panic!("a bug in a device")
        }
    }

    #[test]
    fn a_panicking_device_is_a_failed_one_and_a_stop_after_the_last_job_stops_nothing() {
        let jobs = whole_board_jobs(&six_by_six());
        let devices: Vec<Box<dyn Device + Send>> = vec![Box::new(Panicky), flaky(&[0]).remove(0)];
        let shared =
            share(devices, &jobs, &|tally| if tally.jobs_done == tally.jobs { Flow::Stop } else { Flow::Continue })
                .unwrap();
        assert_eq!((shared.results.len(), shared.status), (6, Status::Exhausted));
        assert!(shared.failures[0].error.contains("a bug in a device"), "{:?}", shared.failures);
    }

    #[test]
    fn a_refused_job_stops_the_count_and_a_stopped_count_keeps_its_jobs() {
        // A board past the CPU's 64x64: the refusal is the error.
        let mut spec = six_by_six();
        spec.board = BoardSize::square(65);
        let refused = share(cpus(2), &whole_board_jobs(&spec), &|_| Flow::Continue).unwrap_err();
        assert!(matches!(refused, DeviceError::BoardTooLarge { .. }), "{refused}");
        let jobs = whole_board_jobs(&six_by_six());
        let stopped =
            share(flaky(&[0, 0]), &jobs, &|tally| if tally.jobs_done >= 2 { Flow::Stop } else { Flow::Continue })
                .unwrap();
        assert_eq!(stopped.status, Status::Aborted);
        assert!((2..6).contains(&stopped.results.len()), "{}", stopped.results.len());
    }
}
