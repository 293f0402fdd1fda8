//! A long count's journal, as a user meets it: the host stopped by Ctrl-C,
//! killed, or crashed mid-write, and the same command run again, on three
//! simulated boards; the total and nodes are the one-run count's and every
//! job is counted once.
#![cfg(feature = "sim")]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

fn knights(args: &str) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_knights"));
    command.args(args.split_whitespace());
    command
}

fn json(output: &Output) -> Value {
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("stdout is one JSON object")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("knights-journal-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

/// The journal's whole lines: the header, then a result a line.
fn lines(journal: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(journal).unwrap_or_default();
    let whole = text.rfind('\n').map_or("", |end| &text[..end]);
    whole.lines().map(|line| serde_json::from_str(line).unwrap()).collect()
}

/// Waits until the journal holds `results` results (or the count ended).
fn wait_for_results(count: &mut Child, journal: &Path, results: usize) {
    let started = Instant::now();
    while lines(journal).len() < 1 + results {
        assert!(count.try_wait().unwrap().is_none(), "the count ended before {results} jobs were kept");
        assert!(started.elapsed() < Duration::from_secs(300), "no job finished in 5 minutes");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Leaves the journal as a crash after `results` results does: those, and
/// the next one torn mid-write.
fn crash_after(journal: &Path, results: usize) {
    let text = std::fs::read_to_string(journal).unwrap();
    let kept: Vec<&str> = text.lines().take(1 + results).collect();
    let torn = &text.lines().nth(1 + results).unwrap()[..20];
    std::fs::write(journal, format!("{}\n{torn}", kept.join("\n"))).unwrap();
}

/// Every job of the journal has one result, and there are no others.
fn each_job_once(journal: &Path) {
    let lines = lines(journal);
    let mut jobs: Vec<u64> = lines[0]["jobs"].as_array().unwrap().iter().map(|j| j["id"].as_u64().unwrap()).collect();
    let mut results: Vec<u64> = lines[1..].iter().map(|r| r["id"].as_u64().unwrap()).collect();
    jobs.sort();
    results.sort();
    assert_eq!(results, jobs, "a result for each job, once");
}

#[test]
fn a_tour_count_stopped_by_ctrl_c_then_killed_goes_on_to_the_one_run_total() {
    let journal = scratch("tours.jsonl");
    // One engine a board, so that the count lasts long enough to stop.
    let count = format!(
        "count --size 6 --start all --device sim --boards 3 --split-level 0 --progress none --format json --journal {}",
        journal.display()
    );
    let piped = |mut command: Command| command.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();

    // Ctrl-C once a job is kept: the boards get their ABORT, the count
    // prints what it has, says where the rest is, and fails.
    let mut first = piped(knights(&count));
    wait_for_results(&mut first, &journal, 1);
    let pid = first.id().to_string();
    assert!(Command::new("kill").args(["-INT", &pid]).status().unwrap().success());
    let stopped = first.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&stopped.stderr);
    assert_eq!(stopped.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains(&format!("kept in {}", journal.display())), "{stderr}");
    let partial: Value = serde_json::from_slice(&stopped.stdout).unwrap();
    assert_eq!(partial["status"], "aborted");
    let kept = lines(&journal).len() - 1;
    assert!((1..6).contains(&kept), "{kept} of 6 jobs kept");

    // Killed outright after one more job, and a result torn mid-write, as
    // a crash leaves it.
    let mut second = piped(knights(&count));
    wait_for_results(&mut second, &journal, kept + 1);
    second.kill().unwrap();
    second.wait().unwrap();
    let kept = lines(&journal).len() - 1;
    assert!(kept < 6, "the kill came after the last job");
    let mut text = std::fs::read_to_string(&journal).unwrap();
    text.push_str(r#"{"id":5,"count":1"#);
    std::fs::write(&journal, text).unwrap();

    // The same command goes on to the whole count.
    let resumed = json(&knights(&count).output().unwrap());
    let cpu = json(&knights("count --size 6 --start all --device cpu --format json --progress none").output().unwrap());
    // OEIS A165134: 6,637,920 open tours of the 6×6 board.
    assert_eq!(resumed["tour_count"].as_u64(), Some(6_637_920));
    assert_eq!(resumed["nodes"], cpu["nodes"], "node for node with a count run once");
    assert_eq!(resumed["status"], "exhausted");
    assert_eq!(resumed["resumed_jobs"].as_u64(), Some(kept as u64), "the classes kept were not counted again");
    each_job_once(&journal);
}

#[test]
fn a_queens_count_resumes_from_a_crashed_journal_and_refuses_another_counts() {
    let journal = scratch("queens.jsonl");
    let count = format!(
        "queens -n 12 --count --no-symmetry --device sim --boards 3 --progress none --format json --journal {}",
        journal.display()
    );
    let whole = json(&knights(&count).output().unwrap());
    // OEIS A000170: 14,200 solutions of 12 queens.
    assert_eq!(whole["solution_count"].as_u64(), Some(14_200));
    each_job_once(&journal);

    // What a crash after three jobs leaves: three results and a torn one.
    crash_after(&journal, 3);
    let resumed = json(&knights(&count).output().unwrap());
    assert_eq!(
        (resumed["solution_count"].as_u64(), &resumed["nodes"], &resumed["status"]),
        (Some(14_200), &whole["nodes"], &whole["status"])
    );
    assert_eq!(resumed["resumed_parts"].as_u64(), Some(3));
    each_job_once(&journal);

    // Another count on the same journal is refused, naming both.
    let other = knights(&count.replace("-n 12", "-n 11")).output().unwrap();
    let stderr = String::from_utf8_lossy(&other.stderr);
    assert!(!other.status.success() && stderr.contains("12-queens") && stderr.contains("11-queens"), "{stderr}");
    // So is a count from constellations.
    let other = knights(&count.replace("--no-symmetry", "--constellations")).output().unwrap();
    let stderr = String::from_utf8_lossy(&other.stderr);
    assert!(!other.status.success() && stderr.contains("from constellations"), "{stderr}");
}

#[test]
fn a_count_from_constellations_shared_by_three_boards_resumes_from_its_journal() {
    let journal = scratch("constellations.jsonl");
    let count = format!(
        "queens -n 12 --count --constellations --device sim --boards 3 --progress none --format json --journal {}",
        journal.display()
    );
    let whole = json(&knights(&count).output().unwrap());
    // OEIS A000170: 14,200 solutions of 12 queens.
    assert_eq!(whole["solution_count"].as_u64(), Some(14_200));
    each_job_once(&journal);
    assert_eq!(lines(&journal).len() - 1, 6, "a job per file of the canonical images' first queen");
    // Node for node with the reference counting from constellations at once.
    let cpu = json(
        &knights("queens -n 12 --count --constellations --device cpu --progress none --format json").output().unwrap(),
    );
    assert_eq!(whole["nodes"], cpu["nodes"]);

    // A crash after two jobs: the rest are counted again, the two are not.
    crash_after(&journal, 2);
    let resumed = json(&knights(&count).output().unwrap());
    assert_eq!((resumed["solution_count"].as_u64(), &resumed["nodes"]), (Some(14_200), &whole["nodes"]));
    assert_eq!(resumed["resumed_parts"].as_u64(), Some(2));
    each_job_once(&journal);
}

#[test]
fn a_unique_count_shared_by_three_boards_resumes_from_its_journal() {
    let journal = scratch("unique.jsonl");
    let count = format!(
        "queens -n 12 --count --unique --device sim --boards 3 --progress none --format json --journal {}",
        journal.display()
    );
    let whole = json(&knights(&count).output().unwrap());
    // OEIS A000170 and A002562: 14,200 solutions of 12 queens, 1,787 unique.
    assert_eq!((whole["solution_count"].as_u64(), whole["unique_count"].as_u64()), (Some(14_200), Some(1_787)));
    each_job_once(&journal);
    let jobs = lines(&journal).len() - 1;
    assert_eq!(jobs, 6, "a job per file of the mirror's side");

    // A crash after two jobs: the rest are counted again, the two are not.
    crash_after(&journal, 2);
    let resumed = json(&knights(&count).output().unwrap());
    assert_eq!(
        (resumed["solution_count"].as_u64(), resumed["unique_count"].as_u64(), &resumed["nodes"]),
        (Some(14_200), Some(1_787), &whole["nodes"])
    );
    assert_eq!(resumed["resumed_parts"].as_u64(), Some(2));
    each_job_once(&journal);

    // A count without --unique is another count: refused on this journal.
    let plain = knights(&count.replace(" --unique", "")).output().unwrap();
    let stderr = String::from_utf8_lossy(&plain.stderr);
    assert!(!plain.status.success() && stderr.contains("unique"), "{stderr}");
}
