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
    // One compact engine reaches about 14 MHz on the UP5K; 48 MHz (a PLL
    // makes it) is far past it.
    let error = build("fast", &|o| o.build.design.clock_hz = 48_000_000);
    assert!(error.contains("timing missed: the design clock reaches"), "{error}");
    assert!(error.contains("the build needs 48"), "{error}");
    // Three compact engines take more cells than the UP5K's 5,280.
    let error = build("large", &|o| o.build.design.engines = 3);
    assert!(error.contains("the 1BitSquared iCEBreaker") && error.contains("fewer engines"), "{error}");
}
