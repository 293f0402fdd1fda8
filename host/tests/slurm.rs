//! The Slurm scripts (scripts/slurm/) on a real single-node Slurm: Debian's
//! slurmctld, slurmd and munge, started in a directory of their own with the
//! repository's configuration and stopped by their pids afterwards. A count
//! is submitted as a job array of parts on simulated boards, one board (the
//! GRES "fpga") a task, with a merge job after them.
//!
//! Without Slurm (or root, which the single-node daemons run as) the test
//! says so and passes, unless KNIGHTS_REQUIRE_SLURM is set, as CI sets it.

#![cfg(all(unix, feature = "sim"))]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::Value;

fn scripts() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/slurm")
}

/// Whether the daemons can run here; a reason when not.
fn slurm_missing() -> Option<String> {
    let found = |tool: &str| {
        Command::new("sh").args(["-c", &format!("command -v {tool}")]).output().is_ok_and(|o| o.status.success())
    };
    if let Some(tool) = ["munged", "slurmctld", "slurmd", "sbatch"].into_iter().find(|t| !found(t)) {
        return Some(format!("{tool} is not installed (apt-get install slurm-wlm munge)"));
    }
    let uid = Command::new("id").arg("-u").output().map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    (uid.ok().as_deref() != Some("0")).then(|| "the single-node Slurm runs as root".to_string())
}

/// The single-node Slurm, stopped when dropped.
struct Cluster {
    dir: PathBuf,
}

impl Cluster {
    fn start(dir: &Path) -> Cluster {
        let cluster = Cluster { dir: dir.to_path_buf() };
        let started =
            Command::new("bash").arg(scripts().join("local-cluster.sh")).arg("start").arg(dir).output().unwrap();
        assert!(started.status.success(), "{}", String::from_utf8_lossy(&started.stderr));
        cluster
    }

    fn conf(&self) -> PathBuf {
        self.dir.join("slurm.conf")
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = Command::new("bash").arg(scripts().join("local-cluster.sh")).arg("stop").arg(&self.dir).status();
    }
}

#[test]
fn a_count_submitted_to_slurm_as_an_array_merges_into_the_published_total() {
    if let Some(reason) = slurm_missing() {
        assert!(std::env::var_os("KNIGHTS_REQUIRE_SLURM").is_none(), "KNIGHTS_REQUIRE_SLURM is set, but {reason}");
        eprintln!("skipped: {reason}");
        return;
    }
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("slurm-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let cluster = Cluster::start(&root.join("cluster"));
    let run = root.join("count");
    let submitted = Command::new("bash")
        .arg(scripts().join("submit.sh"))
        .args([
            "--dir",
            run.to_str().unwrap(),
            "--parts",
            "3",
            "--run",
            "--device sim",
            "--",
            "--size",
            "6",
            "--start",
            "all",
        ])
        .env("SLURM_CONF", cluster.conf())
        .env("KNIGHTS", env!("CARGO_BIN_EXE_knights"))
        // A simulated board a task: two at a time, as the node has two.
        .env("SBATCH_OPTIONS", "--gres=fpga:1")
        .output()
        .unwrap();
    assert!(submitted.status.success(), "{}", String::from_utf8_lossy(&submitted.stderr));
    let count = run.join("count.json");
    let started = Instant::now();
    while !count.exists() || std::fs::metadata(&count).unwrap().len() == 0 {
        let logs: Vec<String> =
            ["merge.log", "part-0.log"].iter().filter_map(|log| std::fs::read_to_string(run.join(log)).ok()).collect();
        assert!(started.elapsed() < Duration::from_secs(600), "no count after 10 minutes: {logs:?}");
        std::thread::sleep(Duration::from_millis(500));
    }
    std::thread::sleep(Duration::from_millis(200));
    let merged: Value = serde_json::from_str(&std::fs::read_to_string(&count).unwrap()).unwrap();
    // OEIS A165134: 6,637,920 open tours of 6x6 from every square.
    assert_eq!(merged["total"].as_u64(), Some(6_637_920), "{merged}");
    assert_eq!((merged["jobs"].as_u64(), merged["result_files"].as_u64()), (Some(6), Some(3)));
    // Node for node with the CPU reference.
    let cpu = Command::new(env!("CARGO_BIN_EXE_knights"))
        .args(["count", "--size", "6", "--start", "all", "--device", "cpu", "--format", "json"])
        .output()
        .unwrap();
    let cpu: Value = serde_json::from_slice(&cpu.stdout).unwrap();
    assert_eq!(merged["nodes"], cpu["nodes"]);
    assert!(merged["device_seconds"]["sim"].as_f64().unwrap() > 0.0, "{merged}");
}
