//! Link fuzzing: random and damaged byte streams against a simulated
//! board's link (the RTL's UART, command receiver and response path, with
//! the engines behind them), each followed by a good command that must get
//! its right answer. A device that answers damage with anything but ERROR
//! frames, or does not answer the good command correctly (a hang), fails.
//!
//! [`fuzz_board`] is a small build (one 5×5 engine) whose frame timeout is
//! short, so that the quiet gaps the check needs cost few clocks and tens of
//! thousands of streams run in a minute; its link is the RTL every build
//! has, with that one constant changed.

use std::time::Duration;

use crate::device::error::DeviceError;
use crate::link::proto::{code, Command, Response, SolveRequest};
use crate::link::transport::{SimTransport, Transport};
use crate::link::Link;
use knights_model::tours::{MoveOrder, SearchSpec, Searcher, TourList};
use knights_model::Goal;

/// What a fuzzing run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FuzzReport {
    pub streams: usize,
    /// Bytes of damage sent (noise, cut and corrupted frames, characters
    /// with a low stop bit).
    pub damaged_bytes: u64,
    /// ERROR frames the damage was answered with.
    pub errors_answered: u64,
    /// Good commands sent in two parts with a pause shorter than the frame
    /// timeout between them (answered as whole frames).
    pub split_commands: usize,
    /// Board clocks the run took.
    pub cycles: u64,
}

/// How a fuzzing run failed: the stream (replayable from the seed) and
/// what the device did.
#[derive(Debug, thiserror::Error)]
pub enum FuzzFailure {
    #[error("stream {stream}: damage was answered with {answer:?}; only ERROR frames may answer it")]
    Answered { stream: usize, answer: Response },
    #[error("stream {stream}: {command} after the damage was answered with {answers:?} (a hang or a lost step)")]
    Hang { stream: usize, command: &'static str, answers: Vec<Response> },
    #[error("stream {stream}: the device answered the first part of {command} before the rest came ({bytes} bytes)")]
    EarlyAnswer { stream: usize, command: &'static str, bytes: usize },
    #[error(transparent)]
    Link(#[from] DeviceError),
}

/// The good commands and the answers they must get.
struct Check {
    name: &'static str,
    frame: Vec<u8>,
    answered: fn(&[Response], &Expected) -> bool,
}

/// What the small searches must report (from the CPU reference).
struct Expected {
    count_tours: u64,
    count_nodes: u64,
}

fn small_search(width: u8, height: u8, count: bool) -> SolveRequest {
    SolveRequest {
        width,
        height,
        file: 0,
        rank: 0,
        closed: false,
        warnsdorff: false,
        prune: true,
        count,
        limit: 1,
        split: 0,
        engines: 0,
        path: crate::link::proto::MovePath::EMPTY,
    }
}

fn checks() -> [Check; 4] {
    [
        Check {
            name: "IDENTIFY",
            frame: Command::Identify.encode(),
            answered: |all, _| matches!(all, [Response::Identity(_)]),
        },
        Check {
            name: "STATUS",
            frame: Command::Status.encode(),
            answered: |all, _| matches!(all, [Response::Progress { searching: false, .. }]),
        },
        Check {
            name: "SOLVE (count 5x5 from a1)",
            frame: Command::Solve(small_search(5, 5, true)).encode(),
            answered: |all, expected| match all {
                [Response::Ack { command: code::SOLVE }, Response::Done { status: code::STATUS_EXHAUSTED, counters }] => {
                    (counters.tours, counters.nodes) == (expected.count_tours, expected.count_nodes)
                }
                _ => false,
            },
        },
        Check {
            name: "SOLVE (first tour of 4x3)",
            frame: Command::Solve(small_search(4, 3, false)).encode(),
            answered: |all, _| {
                matches!(
                    all,
                    [
                        Response::Ack { command: code::SOLVE },
                        Response::Tour { sequence: 1, .. },
                        Response::Done { status: code::STATUS_FOUND, .. }
                    ]
                )
            },
        },
    ]
}

/// xorshift64*: a fixed-seed generator, so a failing stream can be replayed.
struct Noise(u64);

impl Noise {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Runs `streams` damaged streams from `seed` against `board`. `quiet` is
/// how long (board time) a line must stay silent to count as done: longer
/// than the board's frame timeout.
pub fn fuzz(board: SimTransport, streams: usize, seed: u64, quiet: Duration) -> Result<FuzzReport, FuzzFailure> {
    let spec = SearchSpec {
        board: knights_model::BoardSize::square(5),
        start: knights_model::Square::new(0, 0),
        closed: false,
        order: MoveOrder::Fixed,
        prune: true,
    };
    let reference = Searcher::new(spec).map_err(DeviceError::Reference)?.run(Goal::CountAll, &mut TourList::default());
    let expected = Expected { count_tours: reference.tours, count_nodes: reference.nodes };
    let checks = checks();
    let mut noise = Noise(seed | 1);
    let mut link = Link::new(board);
    let mut report = FuzzReport { streams, ..FuzzReport::default() };
    let start_cycles = link.transport().board().cycles();
    for stream in 0..streams {
        for _ in 0..1 + noise.below(4) {
            let sent = damage(&mut noise, &mut link, &checks);
            report.damaged_bytes += sent;
        }
        for answer in answers(&mut link, quiet)? {
            match answer {
                Response::Error { .. } => report.errors_answered += 1,
                answer => return Err(FuzzFailure::Answered { stream, answer }),
            }
        }
        // The device must be back in step: a good command, its answer. Now
        // and then the command comes in two parts, a short pause apart.
        let check = &checks[noise.below(checks.len() as u64) as usize];
        if noise.below(8) == 0 {
            let at = 1 + noise.below(check.frame.len() as u64 - 1) as usize;
            send(&mut link, &check.frame[..at]);
            // Half the frame timeout: the frame must survive the pause.
            let board = link.transport().board();
            let pause = (quiet.as_secs_f64() / 4.0 * board.design().clock_hz as f64) as u64;
            let mut early = Vec::new();
            board.run(pause, &mut early, 1 << 16);
            if !early.is_empty() {
                return Err(FuzzFailure::EarlyAnswer { stream, command: check.name, bytes: early.len() });
            }
            send(&mut link, &check.frame[at..]);
            report.split_commands += 1;
        } else {
            send(&mut link, &check.frame);
        }
        let all = answers(&mut link, quiet)?;
        if !(check.answered)(&all, &expected) {
            return Err(FuzzFailure::Hang { stream, command: check.name, answers: all });
        }
    }
    report.cycles = link.transport().board().cycles() - start_cycles;
    Ok(report)
}

/// Sends one piece of damage; returns its length in characters.
fn damage(noise: &mut Noise, link: &mut Link<SimTransport>, checks: &[Check]) -> u64 {
    let good = &checks[noise.below(checks.len() as u64) as usize].frame;
    match noise.below(4) {
        0 => {
            let bytes: Vec<u8> = (0..noise.below(40)).map(|_| noise.next() as u8).collect();
            send(link, &bytes);
            bytes.len() as u64
        }
        // A frame cut off, as by a host killed half-way.
        1 => {
            let cut = noise.below(good.len() as u64) as usize;
            send(link, &good[..cut]);
            cut as u64
        }
        2 => {
            let mut bytes = good.clone();
            let at = 1 + noise.below(bytes.len() as u64 - 1) as usize;
            bytes[at] ^= 1 << noise.below(8);
            send(link, &bytes);
            bytes.len() as u64
        }
        _ => {
            link.transport().board().write_with_bad_stop_bit(noise.next() as u8);
            1
        }
    }
}

fn send(link: &mut Link<SimTransport>, bytes: &[u8]) {
    // (The simulated board queues what it is given; it cannot fail.)
    let _ = link.transport().write_all(bytes);
}

/// Everything the device says until both directions of the line are idle,
/// no search runs and the device has been silent for `quiet`; at most a
/// board second (a device still busy then has hung, which the caller sees
/// in what was said).
fn answers(link: &mut Link<SimTransport>, quiet: Duration) -> Result<Vec<Response>, DeviceError> {
    let board = link.transport().board();
    let (start, limit) = (board.cycles(), board.design().clock_hz);
    let mut all = Vec::new();
    // Quiet for a whole `quiet` after the host's bytes were all on the line
    // (until then, the device may be waiting for the rest of a frame).
    let mut drained = false;
    loop {
        match link.receive(quiet)? {
            Some(response) => {
                all.push(response);
                drained = false;
            }
            None => {
                let board = link.transport().board();
                if drained || board.cycles() - start > limit {
                    return Ok(all);
                }
                drained = board.is_quiet();
            }
        }
    }
}

/// The fuzzing build: one 5×5 engine at 12 MHz, 3 Mbaud, frames timing out
/// after 100 µs (the real builds: 10 ms). Its model is made on first use
/// and cached (see `board_sim`); `say` hears what takes time.
#[cfg(feature = "fpga")]
pub fn fuzz_board(say: &mut dyn FnMut(&str)) -> Result<(SimTransport, Duration), DeviceError> {
    use crate::fpga::board_sim::cached_verilog;
    use crate::fpga::Design;
    use knights_rtl::platform::LinkSettings;
    use knights_rtl::verilog::{accelerator_verilog_with, for_verilator};
    let design = Design { max_width: 5, max_height: 5, engines: 1, ..knights_sim::DESIGN };
    let link = LinkSettings { frame_timeout: 1_200, ..LinkSettings::new(design.clock_hz, design.baud) };
    let verilog = accelerator_verilog_with(&design, link).expect("the RTL has a 5x5 engine");
    let model = cached_verilog("fuzz", &for_verilator(&verilog), design, false, say)?;
    // Quiet: twice the frame timeout.
    let quiet = Duration::from_secs_f64(2.0 * link.frame_timeout as f64 / link.clock_hz as f64);
    Ok((SimTransport::on(knights_sim::SimulatedBoard::on(model)), quiet))
}
