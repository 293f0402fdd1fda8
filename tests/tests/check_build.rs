//! `knights check-build` on the iCEBreaker's bitstream: it passes as built,
//! and fails when the board file and the bitstream disagree: about the
//! UART's pins (as a bitstream built with the lines swapped would), or about
//! the clock (as a bitstream whose UART divisor is wrong would). And the
//! build's own gates: a build that misses its clock, or does not fit the
//! part, fails with the figure and the fix.

mod common;

use std::path::Path;

use common::{icebreaker_build, Quiet};
use knights::check_build;
use knights::fpga::bitstream::{self, BuildOptions};
use knights::fpga::boards;

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
