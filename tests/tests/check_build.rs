//! `knights check-build` on the iCEBreaker's bitstream: it passes as built,
//! and fails when the board file and the bitstream disagree: about the
//! UART's pins (as a bitstream built with the lines swapped would), or about
//! the clock (as a bitstream whose UART divisor is wrong would). And the
//! build's own gates: a build that misses its clock, or does not fit the
//! part, fails with the figure and the fix.

use std::path::{Path, PathBuf};

use knights::check_build;
use knights::fpga::bitstream::{self, BuildOptions, Phase, Watch};
use knights::fpga::boards;

/// The iCEBreaker build CI made (`scripts/bitstreams.sh`, build/icebreaker),
/// else one made here (about a minute of yosys and nextpnr).
fn icebreaker_build() -> PathBuf {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let made = repo.join("build").join("icebreaker");
    if made.join("design.asc").is_file() && made.join("build.json").is_file() {
        return made;
    }
    let board = boards::find("icebreaker").unwrap();
    let mut options = BuildOptions::for_board(&board);
    options.out_dir = repo.join("target").join("check-build-test").join("icebreaker");
    bitstream::build(&board, &options, &mut Quiet).expect("the iCEBreaker builds");
    options.out_dir
}

struct Quiet;

impl Watch for Quiet {
    fn say(&mut self, _: &str) {}
    fn status(&mut self, _: Phase, _: &str) {}
}

#[test]
fn the_icebreaker_bitstream_passes_and_fails_with_its_uart_pins_swapped() {
    let dir = icebreaker_build();
    let board = boards::find("icebreaker").unwrap();
    let report = check_build::check(&board, &dir, None, &mut |_| {}).unwrap();
    assert!(report.passed(), "{}", report.text());
    let names: Vec<&str> = report.steps.iter().map(|s| s.name).collect();
    assert_eq!(names, ["pins", "identify", "count", "path", "first-k", "bad crc", "abort"]);
    assert!(report.text().contains("304 tours in 8855 nodes as the reference"), "{}", report.text());

    let mut swapped = board.clone();
    std::mem::swap(&mut swapped.part.uart.rx, &mut swapped.part.uart.tx);
    let report = check_build::check(&swapped, &dir, None, &mut |_| {}).unwrap();
    assert_eq!(report.steps.len(), 1, "{}", report.text());
    let why = report.steps[0].outcome.as_ref().unwrap_err();
    assert!(why.contains("pin 9, the board's UART receive line, is an output of the design"), "{why}");

    // Twice the oscillator: the host's bit time is twice the design's.
    let mut fast = board.clone();
    fast.part.clock.hz *= 2;
    let report = check_build::check(&fast, &dir, None, &mut |_| {}).unwrap();
    assert!(!report.passed(), "{}", report.text());
    let identify = report.steps.iter().find(|s| s.name == "identify").unwrap();
    assert!(identify.outcome.as_ref().is_err_and(|why| why.contains("no answer")), "{}", report.text());

    // Its report naming another build id: the bitstream is not that build.
    let other = Path::new(env!("CARGO_TARGET_TMPDIR")).join("check-build-other-id");
    std::fs::create_dir_all(&other).unwrap();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            std::fs::copy(&path, other.join(path.file_name().unwrap())).unwrap();
        }
    }
    let mut json: serde_json::Value = serde_json::from_slice(&std::fs::read(dir.join("build.json")).unwrap()).unwrap();
    let id = json["build_id"].as_u64().expect("the build records its id");
    json["build_id"] = (id ^ 1).into();
    std::fs::write(other.join("build.json"), serde_json::to_vec(&json).unwrap()).unwrap();
    let report = check_build::check(&board, &other, None, &mut |_| {}).unwrap();
    let identify = report.steps.iter().find(|s| s.name == "identify").unwrap();
    let why = identify.outcome.as_ref().unwrap_err();
    assert!(why.contains(&format!("build_id: {id}")) && why.contains(&format!("build_id: {}", id ^ 1)), "{why}");
}

/// A build whose clock its design cannot reach fails, naming both clocks
/// and what to change; so does one with more engines than the part holds.
#[test]
fn a_build_that_misses_its_clock_or_does_not_fit_fails() {
    let board = boards::find("icebreaker").unwrap();
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().join("target").join("build-gates-test");
    let build = |name: &str, change: &dyn Fn(&mut BuildOptions)| {
        let mut options = BuildOptions::for_board(&board);
        options.out_dir = out.join(name);
        change(&mut options);
        bitstream::build(&board, &options, &mut Quiet).map(|_| ()).unwrap_err().to_string()
    };
    // One compact engine reaches about 18 MHz on the UP5K; 48 MHz (a PLL
    // makes it) is far past it.
    let error = build("fast", &|o| o.build.design.clock_hz = 48_000_000);
    assert!(error.contains("timing missed: the design clock reaches"), "{error}");
    assert!(error.contains("the build needs 48"), "{error}");
    // Three compact engines take more cells than the UP5K's 5,280.
    let error = build("large", &|o| o.build.design.engines = 3);
    assert!(error.contains("the 1BitSquared iCEBreaker") && error.contains("fewer engines"), "{error}");
}

/// A build whose inputs have not changed is taken as it is, without running
/// a tool; a changed option, a touched bitstream or a build stopped half way
/// (its report is removed first and written last) builds again.
#[test]
fn an_unchanged_build_is_not_made_again() {
    let board = boards::find("icebreaker").unwrap();
    let copy = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().join("target").join("build-cache-test");
    let _ = std::fs::remove_dir_all(&copy);
    std::fs::create_dir_all(&copy).unwrap();
    for entry in std::fs::read_dir(icebreaker_build()).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_file() {
            std::fs::copy(entry.path(), copy.join(entry.file_name())).unwrap();
        }
    }
    let mut options = BuildOptions::for_board(&board);
    options.out_dir = copy.clone();
    if bitstream::why_rebuild(&board, &options).unwrap().is_some() {
        // A build made before builds recorded their inputs: made once more.
        bitstream::build(&board, &options, &mut Quiet).unwrap();
    }
    assert_eq!(bitstream::why_rebuild(&board, &options).unwrap(), None);
    let mut said = Vec::new();
    let started = std::time::Instant::now();
    let report = bitstream::build(&board, &options, &mut Said(&mut said)).unwrap();
    assert!(started.elapsed().as_secs() < 20, "no tool ran: {:?}", started.elapsed());
    assert!(said.iter().any(|line| line.starts_with("up to date")), "{said:?}");
    assert_eq!(report.inputs_sha256, knights::fpga::build_report::BuildReport::read(&copy).unwrap().inputs_sha256);

    let bitstream_path = copy.join(&report.bitstream);
    let original = std::fs::read(&bitstream_path).unwrap();
    let mut touched = original.clone();
    touched[100] ^= 1;
    std::fs::write(&bitstream_path, touched).unwrap();
    assert_eq!(bitstream::why_rebuild(&board, &options).unwrap(), Some("its bitstream is missing or changed"));
    std::fs::write(&bitstream_path, original).unwrap();
    // Another seed, clock or number of engines: built again.
    let changed = "its design, constraints, options or tools changed";
    let changes: [&dyn Fn(&mut BuildOptions); 3] =
        [&|o| o.build.seed = Some(o.build.seed.unwrap_or(0) + 1), &|o| o.build.design.clock_hz = 18_000_000, &|o| {
            o.build.design.engines = 2
        }];
    for change in changes {
        let mut changed_options = BuildOptions { out_dir: copy.clone(), ..BuildOptions::for_board(&board) };
        change(&mut changed_options);
        assert_eq!(bitstream::why_rebuild(&board, &changed_options).unwrap(), Some(changed));
    }
    // A build stopped before it finished leaves no report to take.
    std::fs::remove_file(copy.join("build.json")).unwrap();
    assert_eq!(bitstream::why_rebuild(&board, &options).unwrap(), Some("no build report there"));
}

/// A watch that keeps what the build says.
struct Said<'a>(&'a mut Vec<String>);

impl Watch for Said<'_> {
    fn say(&mut self, line: &str) {
        self.0.push(line.to_string());
    }
    fn status(&mut self, _: Phase, _: &str) {}
}
