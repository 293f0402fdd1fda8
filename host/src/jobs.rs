//! The queue that shares a count's jobs among several devices, whatever the
//! problem.
//!
//! A job is a count a device takes as one command (each problem says what:
//! `crate::tours::jobs`, `crate::queens::jobs`), weighted by how many times
//! its count counts. Devices take jobs from one queue as they finish
//! theirs, and each job's result is kept once. A device that fails (its
//! port gone, no answer, a bad result) is dropped and its job goes back to
//! the queue for the others, so the totals stay exact; a request a device
//! refuses (a board past its build, say) stops the count, since every
//! device of that build would refuse it. A count may keep its results as
//! they come ([`Kept`], a journal), and start from those an earlier run
//! kept.

use std::collections::{BTreeMap, VecDeque};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use knights_model::{Flow, Status};
use serde::{Deserialize, Serialize};

use crate::device::error::{DeviceError, JournalError};
use crate::device::Device;

/// One job of a count: its task, and how many times its count counts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Job<T> {
    pub id: u32,
    pub weight: u64,
    pub task: T,
}

/// What one job counted, and where.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobResult {
    pub id: u32,
    /// Tours (or solutions) found, before the job's weight.
    pub count: u64,
    /// Of a unique count's job: the solutions that are the least of their
    /// class under the board's symmetries.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unique: Option<u64>,
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
    /// Of those, the jobs and nodes an earlier run counted (a resumed
    /// count's).
    pub resumed_jobs: usize,
    pub resumed_nodes: u64,
}

/// Where a count keeps each job's result as it finishes, and the results an
/// earlier run of the same count kept (`crate::journal`).
pub trait Kept: Sync {
    /// Results an earlier run kept, by job id: those jobs are not run again.
    fn resumed(&self) -> &BTreeMap<u32, JobResult>;
    /// Keeps a job's result, durably, before the count goes on.
    fn keep(&self, result: &JobResult) -> Result<(), JournalError>;
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
    /// Jobs, and their nodes, an earlier run counted (from a journal).
    pub resumed_jobs: usize,
    pub resumed_nodes: u64,
}

impl SharedCount {
    /// Tours (solutions) counted: each job's count times its weight.
    pub fn count<T>(&self, jobs: &[Job<T>]) -> u64 {
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
    /// Jobs and nodes an earlier run kept.
    resumed: (usize, u64),
}

impl Queue {
    fn tally(&self, jobs: usize, started: Instant) -> Tally {
        Tally {
            jobs_done: self.results.len(),
            jobs,
            nodes: self.done.0 + self.under_way.iter().map(|u| u.0).sum::<u64>(),
            count: self.done.1 + self.under_way.iter().map(|u| u.1).sum::<u64>(),
            elapsed: started.elapsed(),
            resumed_jobs: self.resumed.0,
            resumed_nodes: self.resumed.1,
        }
    }

    /// Whether a device should stop taking jobs.
    fn over(&self) -> bool {
        self.stopped || self.refused.is_some()
    }
}

/// What the devices' threads share: the jobs, how to run one, the queue,
/// and its signal.
struct Shared<'a, D: ?Sized, T> {
    jobs: &'a [Job<T>],
    run: &'a Runner<D, T>,
    queue: Mutex<Queue>,
    changed: Condvar,
    progress: &'a (dyn Fn(&Tally) -> Flow + Sync),
    kept: Option<&'a dyn Kept>,
    // Held from a tally's taking to its telling, so that `progress` sees
    // the totals in the order they were taken (the last one the whole
    // count's), whichever device's thread runs first.
    telling: Mutex<()>,
    started: Instant,
}

impl<D: Device + ?Sized, T> Shared<'_, D, T> {
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
    fn work(&self, number: usize, device: &mut D) {
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
            let result =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (self.run)(device, job, &mut report)))
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
                    // Kept before it counts: a result the journal lost would
                    // be counted again on resuming, never twice.
                    let kept = self.kept.map_or(Ok(()), |kept| kept.keep(&result));
                    queue.done = (queue.done.0 + result.nodes, queue.done.1 + job.weight * result.count);
                    let first = queue.results.insert(job.id, result).is_none();
                    assert!(first, "a job is handed out again only after its device failed");
                    match kept {
                        Ok(()) => true,
                        Err(error) => {
                            queue.refused.get_or_insert(error.into());
                            false
                        }
                    }
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

/// How a count runs one of its jobs on a device: checking the request and
/// the answer as any count is checked, passing the job's own running totals
/// (nodes, count before the weight) to the callback, and giving `None` when
/// the callback stopped it.
pub type Runner<D, T> =
    dyn Fn(&mut D, &Job<T>, &mut dyn FnMut(u64, u64) -> Flow) -> Result<Option<JobResult>, DeviceError> + Sync;

/// Shares `jobs` among `devices`, each on its own thread: a device takes the
/// next job when it finishes one, and `run` runs it. `progress` sees the
/// totals (from any device's thread) and may stop the count. Fails with the
/// refusal when a device refuses a job, and with
/// [`DeviceError::DevicesLost`] when every device failed before the jobs
/// were done.
pub fn share<D: Device + Send + ?Sized, T: Sync>(
    devices: Vec<Box<D>>,
    jobs: &[Job<T>],
    run: &Runner<D, T>,
    progress: &(dyn Fn(&Tally) -> Flow + Sync),
) -> Result<SharedCount, DeviceError> {
    share_kept(devices, jobs, run, progress, None)
}

/// [`share`], keeping each result in `kept` as it comes, and running only
/// the jobs whose results `kept` does not have from an earlier run.
pub fn share_kept<D: Device + Send + ?Sized, T: Sync>(
    devices: Vec<Box<D>>,
    jobs: &[Job<T>],
    run: &Runner<D, T>,
    progress: &(dyn Fn(&Tally) -> Flow + Sync),
    kept: Option<&dyn Kept>,
) -> Result<SharedCount, DeviceError> {
    let device_count = devices.len();
    let mut queue = Queue {
        waiting: VecDeque::new(),
        running: 0,
        results: BTreeMap::new(),
        failures: Vec::new(),
        refused: None,
        stopped: false,
        under_way: vec![(0, 0); device_count],
        done: (0, 0),
        resumed: (0, 0),
    };
    for (index, job) in jobs.iter().enumerate() {
        match kept.and_then(|kept| kept.resumed().get(&job.id)) {
            Some(result) => {
                queue.done = (queue.done.0 + result.nodes, queue.done.1 + job.weight * result.count);
                queue.resumed = (queue.resumed.0 + 1, queue.resumed.1 + result.nodes);
                queue.results.insert(job.id, result.clone());
            }
            None => queue.waiting.push_back(index),
        }
    }
    let shared = Shared {
        jobs,
        run,
        queue: Mutex::new(queue),
        changed: Condvar::new(),
        telling: Mutex::new(()),
        progress,
        kept,
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
        resumed_jobs: queue.resumed.0,
        resumed_nodes: queue.resumed.1,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A device that counts 10 results in 100 nodes a job, and fails its
    /// `fail_at`-th job as a board whose port vanished does, or panics on
    /// it.
    struct Flaky {
        jobs: usize,
        fail_at: usize,
        panics: bool,
    }

    impl Device for Flaky {
        fn name(&self) -> &'static str {
            "flaky"
        }
    }

    /// Runs a job on a flaky device (its task is the weight of nothing).
    fn run(
        device: &mut Flaky,
        job: &Job<()>,
        _: &mut dyn FnMut(u64, u64) -> Flow,
    ) -> Result<Option<JobResult>, DeviceError> {
        device.jobs += 1;
        std::thread::sleep(Duration::from_millis(5));
        if device.jobs == device.fail_at {
            assert!(!device.panics, "a bug in a device");
            let timeout = Duration::from_secs(5);
            return Err(crate::device::error::LinkError::NoAnswer { device: "flaky".into(), timeout }.into());
        }
        let result = JobResult {
            id: job.id,
            count: 10,
            unique: None,
            nodes: 100,
            cycles: None,
            engine_seconds: None,
            device: "flaky".into(),
            device_number: 0,
            elapsed_seconds: 0.0,
        };
        Ok(Some(result))
    }

    // (`share` takes boxes: its devices are trait objects elsewhere.)
    #[allow(clippy::vec_box)]
    fn flaky(fail_at: &[usize]) -> Vec<Box<Flaky>> {
        fail_at.iter().map(|&fail_at| Box::new(Flaky { jobs: 0, fail_at, panics: false })).collect()
    }

    /// Six jobs weighted as the 6x6 board's classes of start squares.
    fn jobs() -> Vec<Job<()>> {
        [4, 4, 4, 8, 8, 8].into_iter().zip(0..).map(|(weight, id)| Job { id, weight, task: () }).collect()
    }

    #[test]
    fn a_failed_device_s_job_goes_to_the_others_and_each_job_counts_once() {
        let jobs = jobs();
        // The second device fails on its first job.
        let shared = share(flaky(&[0, 1, 0]), &jobs, &run, &|_| Flow::Continue).unwrap();
        assert_eq!(shared.results.len(), 6);
        assert_eq!(shared.count(&jobs), 10 * 36);
        assert_eq!(shared.nodes(), 600);
        assert_eq!(shared.failures.len(), 1);
        assert_eq!(shared.failures[0].device, 1);
        // Every device failing leaves jobs: an error, naming them.
        let lost = share(flaky(&[1, 2]), &jobs, &run, &|_| Flow::Continue).unwrap_err();
        assert!(matches!(lost, DeviceError::DevicesLost { left, .. } if left >= 4), "{lost}");
    }

    /// Devices finishing together: `progress` still sees the totals in
    /// the order they were taken, the last one the whole count's. (A
    /// telling that sleeps gives a later tally the chance to overtake it.)
    #[test]
    fn progress_sees_the_totals_in_order() {
        let jobs = jobs();
        let seen = Mutex::new(Vec::new());
        let progress = |tally: &Tally| {
            std::thread::sleep(Duration::from_millis((3 * tally.jobs_done as u64) % 7));
            seen.lock().unwrap().push(tally.jobs_done);
            Flow::Continue
        };
        let shared = share(flaky(&[0, 0, 0, 0]), &jobs, &run, &progress).unwrap();
        assert_eq!(shared.results.len(), 6);
        let seen = seen.into_inner().unwrap();
        assert!(seen.windows(2).all(|w| w[0] <= w[1]), "{seen:?}");
        assert_eq!(seen.last(), Some(&6));
    }

    #[test]
    fn a_panicking_device_is_a_failed_one_and_a_stop_after_the_last_job_stops_nothing() {
        let jobs = jobs();
        let devices = vec![Box::new(Flaky { jobs: 0, fail_at: 1, panics: true }), flaky(&[0]).remove(0)];
        let last_stops = |tally: &Tally| if tally.jobs_done == tally.jobs { Flow::Stop } else { Flow::Continue };
        let shared = share(devices, &jobs, &run, &last_stops).unwrap();
        assert_eq!((shared.results.len(), shared.status), (6, Status::Exhausted));
        assert!(shared.failures[0].error.contains("a bug in a device"), "{:?}", shared.failures);
    }

    /// Results kept in memory, as a journal keeps them in its file.
    #[derive(Default)]
    struct Memory {
        resumed: BTreeMap<u32, JobResult>,
        kept: Mutex<Vec<JobResult>>,
        full: bool,
    }

    impl Kept for Memory {
        fn resumed(&self) -> &BTreeMap<u32, JobResult> {
            &self.resumed
        }

        fn keep(&self, result: &JobResult) -> Result<(), JournalError> {
            if self.full {
                let source = std::io::Error::other("no space left on device");
                return Err(JournalError::Io { path: "full.jsonl".into(), source });
            }
            self.kept.lock().unwrap().push(result.clone());
            Ok(())
        }
    }

    /// A count stopped part way and run again from what it kept counts each
    /// job once and reaches the one-run total; a result it cannot keep stops
    /// it with the journal's error.
    #[test]
    fn a_resumed_count_runs_only_the_jobs_not_kept() {
        let jobs = jobs();
        let stop_at_two = |tally: &Tally| if tally.jobs_done >= 2 { Flow::Stop } else { Flow::Continue };
        let first = Memory::default();
        let stopped = share_kept(flaky(&[0]), &jobs, &run, &stop_at_two, Some(&first)).unwrap();
        assert_eq!(stopped.status, Status::Aborted);
        let kept = first.kept.into_inner().unwrap();
        assert_eq!(kept.len(), stopped.results.len());
        let again = Memory { resumed: kept.iter().map(|r| (r.id, r.clone())).collect(), ..Memory::default() };
        let devices = vec![Box::new(Flaky { jobs: 0, fail_at: 0, panics: false })];
        let tallies = Mutex::new(Vec::new());
        let watch = |tally: &Tally| {
            tallies.lock().unwrap().push(*tally);
            Flow::Continue
        };
        let resumed = share_kept(devices, &jobs, &run, &watch, Some(&again)).unwrap();
        assert_eq!((resumed.status, resumed.count(&jobs), resumed.nodes()), (Status::Exhausted, 360, 600));
        let ran: Vec<u32> = again.kept.into_inner().unwrap().iter().map(|r| r.id).collect();
        let mut every: Vec<u32> = kept.iter().map(|r| r.id).chain(ran.iter().copied()).collect();
        every.sort();
        assert_eq!(every, [0, 1, 2, 3, 4, 5], "each job once: kept {kept:?}, then {ran:?}");
        let last = *tallies.into_inner().unwrap().last().unwrap();
        assert_eq!((last.resumed_jobs, last.resumed_nodes, last.jobs_done), (kept.len(), 100 * kept.len() as u64, 6));
        let full = Memory { full: true, ..Memory::default() };
        let error = share_kept(flaky(&[0]), &jobs, &run, &|_| Flow::Continue, Some(&full)).unwrap_err();
        assert!(error.to_string().contains("no space left on device"), "{error}");
    }

    #[test]
    fn a_refused_job_stops_the_count_and_a_stopped_count_keeps_its_jobs() {
        let refuse = |_: &mut Flaky, _: &Job<()>, _: &mut dyn FnMut(u64, u64) -> Flow| {
            Err(crate::device::error::RequestError::NoResults.into())
        };
        let refused = share(flaky(&[0, 0]), &jobs(), &refuse, &|_| Flow::Continue).unwrap_err();
        assert!(refused.is_bad_request(), "{refused}");
        let jobs = jobs();
        let stop_at_two = |tally: &Tally| if tally.jobs_done >= 2 { Flow::Stop } else { Flow::Continue };
        let stopped = share(flaky(&[0, 0]), &jobs, &run, &stop_at_two).unwrap();
        assert_eq!(stopped.status, Status::Aborted);
        assert!((2..6).contains(&stopped.results.len()), "{}", stopped.results.len());
    }
}
