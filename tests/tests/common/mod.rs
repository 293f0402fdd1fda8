//! Helpers the end-to-end tests share (each test file uses what it needs).
#![allow(dead_code)]

use knights_model::tours::{Outcome, SearchSpec, Searcher};

use knights_model::{Goal, Square};

/// A tour sink that keeps every tour, in the order they come.
#[derive(Default)]
pub struct Tours(pub Vec<Vec<Square>>);

impl knights::tours::TourSink for Tours {
    fn tour(&mut self, tour: &[Square]) -> Result<(), knights::device::error::DeviceError> {
        self.0.push(tour.to_vec());
        Ok(())
    }

    fn progress(&mut self, _: u64, _: u64) -> knights_model::Flow {
        knights_model::Flow::Continue
    }
}

/// A fixed-order, unpruned search of `board` ("5", "6x4") from `start` ("a1").
pub fn spec(board: &str, start: &str, closed: bool) -> SearchSpec {
    SearchSpec::exhaustive(board.parse().unwrap(), start.parse().unwrap(), closed)
}

/// The CPU reference's outcome and tours.
pub fn reference(spec: SearchSpec, goal: Goal) -> (Outcome, Vec<Vec<Square>>) {
    Searcher::new(spec).unwrap().tours(goal)
}

/// Runs `test` on the default simulated board; if it fails, runs it again
/// on a traced model of the same build (the simulation is deterministic, so
/// the run repeats) and keeps its waveform in `target/tmp/traces/NAME.fst`
/// for GTKWave or Surfer, then fails as the first run did, saying where the
/// waveform is. The traced model is made only when a test fails.
pub fn keep_trace_on_failure(name: &str, test: impl Fn(knights::link::transport::SimTransport)) {
    use knights::link::transport::SimTransport;
    use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
    let Err(failure) = catch_unwind(AssertUnwindSafe(|| test(SimTransport::new()))) else { return };
    let path = trace_path(name);
    let traced = || -> Result<SimTransport, String> {
        std::fs::create_dir_all(path.parent().unwrap()).map_err(|e| e.to_string())?;
        let model =
            knights::fpga::board_sim::default_traced(&mut |line| eprintln!("{line}")).map_err(|e| e.to_string())?;
        let mut board = knights_sim::SimulatedBoard::on(model);
        board.trace_to(&path)?;
        Ok(SimTransport::on(board))
    };
    match traced() {
        Ok(transport) => {
            // The board, and so the waveform, is complete once the run ends.
            let _ = catch_unwind(AssertUnwindSafe(|| test(transport)));
            eprintln!("{name} failed; the waveform of its run: {}", path.display());
        }
        Err(why) => eprintln!("{name} failed; no waveform of its run: {why}"),
    }
    resume_unwind(failure)
}

/// Where a failing test's waveform goes.
pub fn trace_path(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("traces").join(format!("{name}.fst"))
}

/// A pruned search of `board` from `start`.
pub fn pruned(board: &str, start: &str, closed: bool) -> SearchSpec {
    SearchSpec { prune: true, ..spec(board, start, closed) }
}

/// A linked device on a simulated board running `model`.
pub fn connect(
    model: std::sync::Arc<knights_sim::Model>,
) -> knights::link::LinkedDevice<knights::link::transport::SimTransport> {
    let transport = knights::link::transport::SimTransport::on(knights_sim::SimulatedBoard::on(model));
    knights::link::LinkedDevice::connect("sim", transport, std::time::Duration::from_secs(60)).unwrap()
}

/// The iCEBreaker build CI made (`scripts/bitstreams.sh`, build/icebreaker),
/// else one made here (about a minute of yosys and nextpnr).
pub fn icebreaker_build() -> std::path::PathBuf {
    board_build("icebreaker", "design.asc")
}

/// The build of `board` CI made (build/BOARD, holding `built`), else one
/// made here at the board file's settings.
pub fn board_build(board: &str, built: &str) -> std::path::PathBuf {
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let made = repo.join("build").join(board);
    if made.join(built).is_file() && made.join("build.json").is_file() {
        return made;
    }
    let found = knights::fpga::boards::find(board).unwrap();
    let mut options = knights::fpga::bitstream::BuildOptions::for_board(&found);
    options.out_dir = repo.join("target").join("check-build-test").join(board);
    knights::fpga::bitstream::build(&found, &options, &mut Quiet).unwrap_or_else(|e| panic!("{board} builds: {e}"));
    options.out_dir
}

/// A watch that says nothing.
pub struct Quiet;

impl knights::fpga::bitstream::Watch for Quiet {
    fn say(&mut self, _: &str) {}
    fn status(&mut self, _: knights::fpga::bitstream::Phase, _: &str) {}
}
