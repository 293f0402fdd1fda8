//! A long count's journal: its jobs, and each job's result appended as it
//! finishes, so that a count stopped by Ctrl-C, a crash, a reboot or a
//! vanished board goes on from where it was (the same command again, with
//! the same `--journal` file) and its total is exact, every job counted once.
//!
//! The file is JSON lines. The first line is the header: what is counted (in
//! words, the key a resumed count must match), the jobs as they were
//! planned (a resumed count takes them from here, not from a new plan, so
//! that jobs cut for three boards stay the same jobs when two are left),
//! the nodes above them, and a SHA-256 of all of it. Every later line is a
//! job's result ([`JobResult`]), written whole and synced before the count
//! goes on. A crash can leave only the last line torn: it is dropped (that
//! job runs again); any other damage is refused, naming the line.
//!
//! A journal is locked while a count writes it, so two counts never append
//! to one file.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

pub use crate::device::error::JournalError;
use crate::jobs::{Job, JobResult, Kept};

const FORMAT: &str = "knights-journal-1";

/// The first line of a journal.
#[derive(Serialize, Deserialize)]
struct Header<T> {
    format: String,
    count: String,
    id: String,
    nodes_above: u64,
    jobs: Vec<Job<T>>,
}

/// SHA-256 of what a journal counts and its jobs, hex.
fn digest<T: Serialize>(count: &str, nodes_above: u64, jobs: &[Job<T>]) -> String {
    let jobs = serde_json::to_string(jobs).expect("jobs serialise");
    let hash = Sha256::digest(format!("{count}\n{nodes_above}\n{jobs}"));
    hash.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// A count's journal, open and locked for appending.
pub struct Journal {
    path: PathBuf,
    file: Mutex<File>,
    resumed: BTreeMap<u32, JobResult>,
}

/// A count's jobs as its journal has them, and the journal.
pub struct Journaled<T> {
    pub journal: Journal,
    pub jobs: Vec<Job<T>>,
    /// Nodes above the jobs (a cut count's), which no job counts.
    pub nodes_above: u64,
}

impl Journal {
    /// Opens the journal of the count described by `count` at `path`: an
    /// earlier run's (its jobs, and the results it kept), or a new one with
    /// the jobs `plan` gives (and the nodes above them).
    pub fn open<T: Serialize + DeserializeOwned>(
        path: &Path,
        count: &str,
        plan: impl FnOnce() -> (Vec<Job<T>>, u64),
    ) -> Result<Journaled<T>, JournalError> {
        let io_error = |source| JournalError::Io { path: path.to_path_buf(), source };
        let mut file = OpenOptions::new().read(true).append(true).create(true).open(path).map_err(io_error)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => return Err(JournalError::InUse { path: path.to_path_buf() }),
            Err(TryLockError::Error(error)) => return Err(io_error(error)),
        }
        let mut text = String::new();
        file.read_to_string(&mut text).map_err(io_error)?;
        if text.is_empty() {
            let (jobs, nodes_above) = plan();
            let header = Header {
                format: FORMAT.into(),
                count: count.into(),
                id: digest(count, nodes_above, &jobs),
                nodes_above,
                jobs,
            };
            let line = serde_json::to_string(&header).expect("a header serialises") + "\n";
            file.write_all(line.as_bytes()).and_then(|()| file.sync_data()).map_err(io_error)?;
            let journal = Journal { path: path.to_path_buf(), file: Mutex::new(file), resumed: BTreeMap::new() };
            return Ok(Journaled { journal, jobs: header.jobs, nodes_above });
        }
        let (header, resumed, whole) = read(path, count, &text)?;
        if whole < text.len() {
            // A torn last line: cut it off, so the next result starts a line.
            file.set_len(whole as u64).and_then(|()| file.seek(SeekFrom::End(0)).map(drop)).map_err(io_error)?;
        }
        let journal = Journal { path: path.to_path_buf(), file: Mutex::new(file), resumed };
        Ok(Journaled { journal, jobs: header.jobs, nodes_above: header.nodes_above })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// A count's jobs, the nodes above them, and its journal if it keeps one.
pub type Planned<T> = (Vec<Job<T>>, u64, Option<Journal>);

/// A count's jobs and the nodes above them: with a journal at `path`, the
/// journal's (an earlier run's, or `plan`'s written into a new one) and the
/// journal; without, `plan`'s.
pub fn jobs_of<T: Serialize + DeserializeOwned>(
    path: Option<&Path>,
    count: &str,
    plan: impl FnOnce() -> (Vec<Job<T>>, u64),
) -> Result<Planned<T>, JournalError> {
    match path {
        Some(path) => {
            let opened = Journal::open(path, count, plan)?;
            Ok((opened.jobs, opened.nodes_above, Some(opened.journal)))
        }
        None => {
            let (jobs, nodes_above) = plan();
            Ok((jobs, nodes_above, None))
        }
    }
}

/// What a journal's text holds: its header, its results by job, and the
/// length of its whole lines.
type Contents<T> = (Header<T>, BTreeMap<u32, JobResult>, usize);

/// A journal's header, its results, and the length of its whole lines.
fn read<T: Serialize + DeserializeOwned>(path: &Path, count: &str, text: &str) -> Result<Contents<T>, JournalError> {
    let damaged = |line: usize, reason: String| JournalError::Damaged { path: path.to_path_buf(), line, reason };
    let whole = text.rfind('\n').map_or(0, |at| at + 1);
    let mut lines = text[..whole].lines().enumerate().map(|(index, line)| (index + 1, line));
    let Some((_, first)) = lines.next() else {
        return Err(damaged(1, "its header is torn".into()));
    };
    let header: Header<T> =
        serde_json::from_str(first).map_err(|error| damaged(1, format!("not a knights journal's header: {error}")))?;
    if header.format != FORMAT {
        return Err(damaged(1, format!("format {:?}, not {FORMAT:?}", header.format)));
    }
    if header.id != digest(&header.count, header.nodes_above, &header.jobs) {
        return Err(damaged(1, "its jobs do not match its id".into()));
    }
    if header.count != count {
        return Err(JournalError::OtherCount { path: path.to_path_buf(), found: header.count, wanted: count.into() });
    }
    let mut results = BTreeMap::new();
    for (line, text) in lines {
        let result: JobResult =
            serde_json::from_str(text).map_err(|error| damaged(line, format!("not a job's result: {error}")))?;
        if !header.jobs.iter().any(|job| job.id == result.id) {
            return Err(damaged(line, format!("job {} is not one of its jobs", result.id)));
        }
        if results.insert(result.id, result).is_some() {
            return Err(damaged(line, "a job's result written twice".into()));
        }
    }
    Ok((header, results, whole))
}

impl Kept for Journal {
    fn resumed(&self) -> &BTreeMap<u32, JobResult> {
        &self.resumed
    }

    fn keep(&self, result: &JobResult) -> Result<(), JournalError> {
        let line = serde_json::to_string(result).expect("a result serialises") + "\n";
        let mut file = self.file.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        file.write_all(line.as_bytes())
            .and_then(|()| file.sync_data())
            .map_err(|source| JournalError::Io { path: self.path.clone(), source })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jobs() -> (Vec<Job<String>>, u64) {
        ((0..4).map(|id| Job { id, weight: 2, task: format!("part {id}") }).collect(), 7)
    }

    fn result(id: u32) -> JobResult {
        JobResult {
            id,
            count: 10 + u64::from(id),
            unique: None,
            nodes: 100,
            cycles: None,
            engine_seconds: None,
            device: "cpu".into(),
            device_number: 0,
            elapsed_seconds: 0.5,
        }
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("knights-journal-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("count.jsonl");
        let _ = std::fs::remove_file(&path);
        path
    }

    #[test]
    fn a_reopened_journal_has_the_planned_jobs_and_the_results_kept() {
        let path = scratch("reopen");
        let first = Journal::open(&path, "test count", jobs).unwrap();
        assert!(first.journal.resumed().is_empty());
        first.journal.keep(&result(2)).unwrap();
        first.journal.keep(&result(0)).unwrap();
        drop(first);
        // A resumed count takes the jobs from the journal, not a new plan.
        let again =
            Journal::open(&path, "test count", || -> (Vec<Job<String>>, u64) { panic!("not planned again") }).unwrap();
        assert_eq!((again.jobs, again.nodes_above), jobs());
        assert_eq!(again.journal.resumed().keys().copied().collect::<Vec<_>>(), [0, 2]);
        assert_eq!(again.journal.resumed()[&2], result(2));
    }

    #[test]
    fn a_torn_last_line_is_dropped_and_cut_off() {
        let path = scratch("torn");
        let opened = Journal::open(&path, "test count", jobs).unwrap();
        opened.journal.keep(&result(1)).unwrap();
        drop(opened);
        let whole = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, format!("{whole}{{\"id\":3,\"cou")).unwrap();
        let opened = Journal::open(&path, "test count", jobs).unwrap();
        assert_eq!(opened.journal.resumed().keys().copied().collect::<Vec<_>>(), [1]);
        opened.journal.keep(&result(3)).unwrap();
        drop(opened);
        let opened = Journal::open(&path, "test count", jobs).unwrap();
        assert_eq!(opened.journal.resumed().keys().copied().collect::<Vec<_>>(), [1, 3]);
    }

    #[test]
    fn another_count_a_damaged_line_and_a_second_writer_are_refused() {
        let path = scratch("refused");
        let opened = Journal::open(&path, "test count", jobs).unwrap();
        // Locked while open.
        let busy = Journal::open(&path, "test count", jobs).err().unwrap();
        assert!(matches!(busy, JournalError::InUse { .. }), "{busy}");
        opened.journal.keep(&result(1)).unwrap();
        drop(opened);
        let other = Journal::open(&path, "another count", jobs).err().unwrap();
        assert!(other.to_string().contains("another count's (test count)"), "{other}");
        let whole = std::fs::read_to_string(&path).unwrap();
        // A result of no job, a result twice, a line that is not one, an
        // edited job: each names its line.
        let lines: Vec<&str> = whole.lines().collect();
        for (text, line, reason) in [
            (format!("{whole}{}\n", serde_json::to_string(&result(9)).unwrap()), 3, "not one of its jobs"),
            (format!("{whole}{}\n", lines[1]), 3, "written twice"),
            (format!("{}\nnot json\n{}\n", lines[0], lines[1]), 2, "not a job's result"),
            (whole.replacen("part 2", "part 5", 1), 1, "do not match its id"),
        ] {
            std::fs::write(&path, text).unwrap();
            let damaged = Journal::open(&path, "test count", jobs).err().unwrap();
            let message = damaged.to_string();
            assert!(message.contains(&format!("at line {line} (")) && message.contains(reason), "{message}");
        }
    }
}
