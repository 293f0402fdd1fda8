//! Counts spread over many machines: a plan's jobs written to a manifest
//! (`knights plan`), a part of them run anywhere into a result file
//! (`knights run-jobs --part I/N`), and the result files merged into the
//! count (`knights merge`), which checks that every job is there exactly
//! once. A scheduler (Slurm, `scripts/slurm/`) runs the parts as an array.
//!
//! Both files are JSON. The manifest's `id` is a SHA-256 of its jobs, and a
//! result file names it, so results are never merged into another plan; a
//! result file's `checksum` covers the manifest id, its part and its
//! results, so a damaged or hand-edited file is refused.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::device::error::DeviceError;
use crate::jobs::{self, DeviceFailure, JobResult, Tally};
use crate::queens::jobs::{self as queens_jobs, QueensTask};
use crate::queens::query::QueensQuery;
use crate::queens::QueensDevice;
use crate::tours::jobs::{self as tour_jobs, TourTask};
use crate::tours::TourDevice;
use knights_model::tours::SearchSpec;
use knights_model::{Flow, Goal, Status};

/// What a job of a plan counts: either problem's task (written as the
/// problem's own, its `problem` field telling them apart).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Task {
    Tours(TourTask),
    Queens(QueensTask),
}

/// A job of a plan.
pub type Job = jobs::Job<Task>;

/// A device that runs either problem's jobs (the CPU, the simulated board
/// and a board over a port all do; each refuses the problem its build does
/// not solve).
pub trait AnyDevice: TourDevice + QueensDevice {}

impl<D: TourDevice + QueensDevice + ?Sized> AnyDevice for D {}

/// Runs one job of a plan on `device` as its problem runs it.
pub fn run_job(
    device: &mut dyn AnyDevice,
    job: &Job,
    progress: &mut dyn FnMut(u64, u64) -> Flow,
) -> Result<Option<JobResult>, DeviceError> {
    let (id, weight) = (job.id, job.weight);
    match &job.task {
        Task::Tours(task) => tour_jobs::run(device, &jobs::Job { id, weight, task: task.clone() }, progress),
        Task::Queens(task) => queens_jobs::run(device, &jobs::Job { id, weight, task: task.clone() }, progress),
    }
}

/// Jobs of one problem as a plan's.
fn plan_jobs<T>(jobs: Vec<jobs::Job<T>>, task: fn(T) -> Task) -> Vec<Job> {
    jobs.into_iter().map(|job| Job { id: job.id, weight: job.weight, task: task(job.task) }).collect()
}

const MANIFEST_FORMAT: &str = "knights-manifest-1";
const RESULTS_FORMAT: &str = "knights-results-1";

/// A count's jobs, to be run in parts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    pub format: String,
    /// What is counted, in words (for people reading the file).
    pub count: String,
    /// SHA-256 of the jobs (and the nodes above them), hex.
    pub id: String,
    /// Nodes above a cut's paths (counted by no job; 0 for whole searches).
    pub nodes_above: u64,
    pub jobs: Vec<Job>,
}

impl Manifest {
    /// A manifest of `jobs`, `count` saying what they count.
    pub fn new(count: String, jobs: Vec<Job>, nodes_above: u64) -> Self {
        let id = manifest_id(&jobs, nodes_above);
        Manifest { format: MANIFEST_FORMAT.into(), count, id, nodes_above, jobs }
    }

    /// The plan of a count of `spec`'s tours: one job per class of start
    /// squares (`every_start`), or a single start's count, whole or (with
    /// `min_jobs` over 1) cut into at least that many paths, which the CPU
    /// device runs.
    pub fn tours(spec: &SearchSpec, every_start: bool, min_jobs: usize) -> Self {
        let what = tour_jobs::describe(spec, every_start);
        if every_start {
            Manifest::new(what, plan_jobs(tour_jobs::whole_board_jobs(spec), Task::Tours), 0)
        } else if min_jobs > 1 {
            let (jobs, nodes_above) = tour_jobs::path_jobs(spec, min_jobs);
            Manifest::new(what, plan_jobs(jobs, Task::Tours), nodes_above)
        } else {
            Manifest::new(what, vec![Job { id: 0, weight: 1, task: Task::Tours(TourTask::tours(spec)) }], 0)
        }
    }

    /// The plan of an N-Queens count: a job per file of the first queen.
    pub fn queens(n: u8, mirror: bool) -> Result<Self, knights_model::queens::QueensError> {
        let query = QueensQuery { n, goal: Goal::CountAll, mirror, constellations: false, unique: false };
        let what = queens_jobs::describe(&query);
        Ok(Manifest::new(what, plan_jobs(queens_jobs::queens_jobs(n, mirror, false)?, Task::Queens), 0))
    }

    pub fn read(path: &Path) -> Result<Self, ManifestError> {
        let manifest: Manifest = read_json(path)?;
        if manifest.format != MANIFEST_FORMAT {
            return Err(ManifestError::Format { path: path.into(), found: manifest.format, expected: MANIFEST_FORMAT });
        }
        if manifest.id != manifest_id(&manifest.jobs, manifest.nodes_above) {
            return Err(ManifestError::Damaged { path: path.into() });
        }
        let ids: std::collections::BTreeSet<u32> = manifest.jobs.iter().map(|job| job.id).collect();
        if ids.len() != manifest.jobs.len() {
            return Err(ManifestError::Damaged { path: path.into() });
        }
        Ok(manifest)
    }

    /// The jobs of part `part` (every `parts.count`-th job from the
    /// part's number on, so that each part gets big and small jobs alike).
    pub fn part(&self, part: Part) -> Vec<Job> {
        self.jobs.iter().skip(part.index).step_by(part.count).cloned().collect()
    }
}

/// One share of a manifest's jobs: `index` of `count` (0-based, as Slurm
/// numbers array tasks), written `I/N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Part {
    pub index: usize,
    pub count: usize,
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Part {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let bad =
            || format!("{text:?} is not a part I/N with I from 0 to N - 1 (e.g. 0/4, as Slurm numbers array tasks)");
        let (index, count) = text.split_once('/').ok_or_else(bad)?;
        let (index, count) = (index.trim().parse().map_err(|_| bad())?, count.trim().parse().map_err(|_| bad())?);
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Part { index, count })
    }
}

/// What one part's run counted.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResultFile {
    pub format: String,
    /// The manifest's id.
    pub manifest: String,
    pub part: Part,
    /// Aborted when stopped part way (such a file is refused by merge).
    pub status: Status,
    pub results: Vec<JobResult>,
    pub failed_devices: Vec<DeviceFailure>,
    /// SHA-256 of everything above, hex.
    pub checksum: String,
}

impl ResultFile {
    fn new(
        manifest: &Manifest,
        part: Part,
        status: Status,
        results: Vec<JobResult>,
        failed: Vec<DeviceFailure>,
    ) -> Self {
        let mut file = ResultFile {
            format: RESULTS_FORMAT.into(),
            manifest: manifest.id.clone(),
            part,
            status,
            results,
            failed_devices: failed,
            checksum: String::new(),
        };
        file.checksum = file.contents_checksum();
        file
    }

    pub fn read(path: &Path) -> Result<Self, ManifestError> {
        let file: ResultFile = read_json(path)?;
        if file.format != RESULTS_FORMAT {
            return Err(ManifestError::Format { path: path.into(), found: file.format, expected: RESULTS_FORMAT });
        }
        if file.checksum != file.contents_checksum() || file.part.count == 0 || file.part.index >= file.part.count {
            return Err(ManifestError::Damaged { path: path.into() });
        }
        Ok(file)
    }

    /// SHA-256 of the file's contents, its checksum aside.
    fn contents_checksum(&self) -> String {
        let contents = (&self.format, &self.manifest, self.part, self.status, &self.results, &self.failed_devices);
        hex(&Sha256::digest(serde_json::to_string(&contents).expect("results serialise").as_bytes()))
    }
}

/// Runs part `part` of `manifest` on `devices` (sharing its jobs).
pub fn run_part(
    manifest: &Manifest,
    part: Part,
    devices: Vec<Box<dyn AnyDevice + Send>>,
    progress: &(dyn Fn(&Tally) -> Flow + Sync),
) -> Result<ResultFile, DeviceError> {
    let jobs = manifest.part(part);
    let shared =
        jobs::share(devices, &jobs, &|device, job, job_progress| run_job(device, job, job_progress), progress)?;
    let results = shared.results.into_values().collect();
    Ok(ResultFile::new(manifest, part, shared.status, results, shared.failures))
}

/// A merged count.
#[derive(Clone, Debug, PartialEq)]
pub struct Merged {
    pub count: String,
    pub jobs: usize,
    pub parts: usize,
    /// Tours (solutions), each job's count times its weight.
    pub total: u64,
    /// Nodes of every job and above them.
    pub nodes: u64,
    /// Seconds the jobs ran, summed over the devices, and per device kind.
    pub device_seconds: BTreeMap<String, f64>,
    /// Devices dropped in the runs (their jobs went to others).
    pub failed_devices: usize,
}

/// Merges result files into `manifest`'s count, checking that every job is
/// there exactly once.
pub fn merge(manifest: &Manifest, files: &[(PathBuf, ResultFile)]) -> Result<Merged, ManifestError> {
    let mut problems = Vec::new();
    let mut seen: BTreeMap<u32, Vec<&Path>> = BTreeMap::new();
    let mut parts = Vec::new();
    for (path, file) in files {
        if file.manifest != manifest.id {
            problems.push(format!(
                "{} is a result of another plan (manifest {})",
                path.display(),
                short(&file.manifest)
            ));
            continue;
        }
        if file.status == Status::Aborted {
            problems.push(format!(
                "{} (part {}) was stopped before its jobs were done: run the part again",
                path.display(),
                file.part
            ));
        }
        parts.push(file.part);
        for result in &file.results {
            seen.entry(result.id).or_default().push(path);
        }
    }
    if parts.windows(2).any(|pair| pair[0].count != pair[1].count) {
        let counts: Vec<String> = parts.iter().map(Part::to_string).collect();
        problems
            .push(format!("the files are parts of different splits ({}): give one split's parts", counts.join(", ")));
    }
    let known: BTreeMap<u32, &Job> = manifest.jobs.iter().map(|job| (job.id, job)).collect();
    let missing: Vec<u32> = known.keys().filter(|id| !seen.contains_key(id)).copied().collect();
    if !missing.is_empty() && parts.is_empty() {
        problems.push(format!("no result files: run the plan's parts (all {} jobs are missing)", missing.len()));
    } else if !missing.is_empty() {
        let count = parts[0].count;
        let parts_missing: std::collections::BTreeSet<String> =
            missing.iter().map(|&id| Part { index: id_index(manifest, id) % count, count }.to_string()).collect();
        problems.push(format!(
            "{} job{} missing (ids {}): run part{} {} again",
            missing.len(),
            if missing.len() == 1 { " is" } else { "s are" },
            list(&missing),
            if parts_missing.len() == 1 { "" } else { "s" },
            parts_missing.into_iter().collect::<Vec<_>>().join(", ")
        ));
    }
    for (id, paths) in &seen {
        if !known.contains_key(id) {
            problems.push(format!("job {id} in {} is not in the plan", paths[0].display()));
        } else if paths.len() > 1 {
            let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
            problems.push(format!(
                "job {id} is there {} times ({}): give each part's result once",
                paths.len(),
                names.join(", ")
            ));
        }
    }
    if !problems.is_empty() {
        return Err(ManifestError::Incomplete { problems });
    }
    let mut merged = Merged {
        count: manifest.count.clone(),
        jobs: manifest.jobs.len(),
        parts: files.len(),
        total: 0,
        nodes: manifest.nodes_above,
        device_seconds: BTreeMap::new(),
        failed_devices: files.iter().map(|(_, f)| f.failed_devices.len()).sum(),
    };
    for result in files.iter().flat_map(|(_, file)| &file.results) {
        merged.total += known[&result.id].weight * result.count;
        merged.nodes += result.nodes;
        *merged.device_seconds.entry(result.device.clone()).or_default() += result.elapsed_seconds;
    }
    Ok(merged)
}

/// A job's place in the manifest (its part is that modulo the part count).
fn id_index(manifest: &Manifest, id: u32) -> usize {
    manifest.jobs.iter().position(|job| job.id == id).expect("a job of the manifest")
}

fn list(ids: &[u32]) -> String {
    let shown: Vec<String> = ids.iter().take(10).map(u32::to_string).collect();
    format!("{}{}", shown.join(", "), if ids.len() > 10 { ", ..." } else { "" })
}

fn short(id: &str) -> &str {
    &id[..id.len().min(12)]
}

/// What is wrong with a manifest or result file, or with a set of them.
#[derive(Debug, thiserror::Error)]
pub enum ManifestError {
    #[error("cannot read {path}")]
    Read { path: PathBuf, source: std::io::Error },
    #[error("{path} is not a knights manifest or result file: {source}")]
    Parse { path: PathBuf, source: serde_json::Error },
    #[error("{path} is a {found} file, not {expected}")]
    Format { path: PathBuf, found: String, expected: &'static str },
    #[error("{path} does not match its checksum: it was damaged or edited; run its part again")]
    Damaged { path: PathBuf },
    #[error("the results do not make the whole count:\n  {}", problems.join("\n  "))]
    Incomplete { problems: Vec<String> },
}

fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, ManifestError> {
    let text = std::fs::read_to_string(path).map_err(|source| ManifestError::Read { path: path.into(), source })?;
    serde_json::from_str(&text).map_err(|source| ManifestError::Parse { path: path.into(), source })
}

fn manifest_id(jobs: &[Job], nodes_above: u64) -> String {
    let text = serde_json::to_string(&(jobs, nodes_above)).expect("jobs serialise");
    hex(&Sha256::digest(text.as_bytes()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::CpuDevice;
    use knights_model::board::{BoardSize, Square};
    use knights_model::tours::MoveOrder;

    fn five_by_five() -> SearchSpec {
        SearchSpec {
            board: BoardSize::square(5),
            start: Square::new(0, 0),
            closed: false,
            order: MoveOrder::Fixed,
            prune: true,
        }
    }

    fn cpu() -> Vec<Box<dyn AnyDevice + Send>> {
        vec![Box::new(CpuDevice { threads: 1 })]
    }

    /// Runs every part of `manifest` into files in `dir`.
    fn run_all(manifest: &Manifest, parts: usize, dir: &Path) -> Vec<(PathBuf, ResultFile)> {
        (0..parts)
            .map(|index| {
                let part = Part { index, count: parts };
                let file = run_part(manifest, part, cpu(), &|_| Flow::Continue).unwrap();
                let path = dir.join(format!("part-{index}.json"));
                std::fs::write(&path, serde_json::to_string(&file).unwrap()).unwrap();
                (path.clone(), ResultFile::read(&path).unwrap())
            })
            .collect()
    }

    #[test]
    fn parts_merge_into_the_whole_count() {
        let dir = tempdir("merge");
        let every = Manifest::tours(&five_by_five(), true, 1);
        assert_eq!(merge(&every, &run_all(&every, 4, &dir)).unwrap().total, 1728);
        // One start cut into paths: the nodes above the cut are added back.
        let cut = Manifest::tours(&five_by_five(), false, 30);
        assert!(cut.jobs.len() >= 30);
        let merged = merge(&cut, &run_all(&cut, 3, &dir)).unwrap();
        assert_eq!((merged.total, merged.nodes), (304, 8855));
        let queens = Manifest::queens(10, true).unwrap();
        assert_eq!(merge(&queens, &run_all(&queens, 2, &dir)).unwrap().total, 724);
    }

    #[test]
    fn a_dropped_doubled_or_edited_result_is_refused() {
        let dir = tempdir("refuse");
        let manifest = Manifest::tours(&five_by_five(), true, 1);
        let files = run_all(&manifest, 3, &dir);
        // A part missing: its jobs are named, and the part to run again.
        let problem = merge(&manifest, &files[..2]).unwrap_err().to_string();
        assert!(problem.contains("2 jobs are missing (ids 2, 5): run part 2/3 again"), "{problem}");
        let problem = merge(&manifest, &[]).unwrap_err().to_string();
        assert!(problem.contains("no result files: run the plan's parts (all 6 jobs are missing)"), "{problem}");
        // A part given twice.
        let doubled = [files.clone(), vec![files[1].clone()]].concat();
        let problem = merge(&manifest, &doubled).unwrap_err().to_string();
        assert!(problem.contains("job 1 is there 2 times"), "{problem}");
        // A count changed by hand.
        let path = &files[0].0;
        let text = std::fs::read_to_string(path).unwrap().replacen("\"count\":304", "\"count\":305", 1);
        std::fs::write(path, text).unwrap();
        assert!(matches!(ResultFile::read(path), Err(ManifestError::Damaged { .. })));
        // Another plan's results.
        let other =
            Manifest::tours(&SearchSpec { closed: true, board: BoardSize::square(6), ..five_by_five() }, true, 1);
        let problem = merge(&other, &files[1..]).unwrap_err().to_string();
        assert!(problem.contains("a result of another plan"), "{problem}");
    }

    #[test]
    fn parts_are_read_as_slurm_numbers_them() {
        assert_eq!("2/4".parse::<Part>(), Ok(Part { index: 2, count: 4 }));
        for bad in ["4/4", "1/0", "a/4", "3"] {
            assert!(bad.parse::<Part>().unwrap_err().contains("not a part I/N"), "{bad}");
        }
        let manifest = Manifest::tours(&five_by_five(), true, 1);
        let ids = |index| manifest.part(Part { index, count: 4 }).iter().map(|j| j.id).collect::<Vec<_>>();
        assert_eq!((ids(0), ids(1), ids(3)), (vec![0, 4], vec![1, 5], vec![3]));
    }

    fn tempdir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("knights-manifest-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }
}
