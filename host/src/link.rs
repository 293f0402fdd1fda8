//! A device at the far end of a [`Transport`]: commands out, responses in,
//! and the search API ([`Device`]) on top, so the simulated board and a real
//! board over a serial port behave the same for everything above.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::board::{BoardSize, Square};
use crate::device::{Device, EngineFigures, Problem, QueensSink, Report, Sink};
use crate::error::{Capability, DeviceError, Direction};
use crate::moves::path_moves;
use crate::parallel::PrefixJobs;
use crate::proto::{
    code, square_bytes, Command, ErrorCode, FrameDecoder, Identity, MovePath, QueensRequest, Response, SolveRequest,
    MAX_PATH_MOVES, MAX_QUEENS_SPLIT_LEVEL, MAX_SPLIT_LEVEL, VERSION,
};
use crate::queens::{QueensSearch, QueensSpec};
use crate::search::{Flow, Goal, MoveOrder, Outcome, SearchSpec, Searcher, Status};
use crate::transport::Transport;

/// Payload bytes a frame can have: a tour on the largest board a build
/// takes (40x40), two bytes a square.
const MAX_PAYLOAD: usize = crate::proto::TOUR_HEADER + 2 * 40 * 40;

/// Jobs per engine when a search is split: enough that the last jobs are
/// small, so that engines finish together, few enough that replaying jobs'
/// paths stays cheap. On the simulator's closed 6x6 count, twenty engines
/// took 43,663 cycles with jobs at level 11 (755 per engine), 49,000 at level
/// 10 (438) and 45,637 at level 12 (1,061); four engines were within 0.5%
/// from 361 to 2,191 per engine.
pub const JOBS_PER_ENGINE: usize = 640;

/// Jobs per solver when an N-Queens search is split. A job's queens are
/// replayed a clock each, so fewer, larger jobs than a knight's tour's pay:
/// on the simulator's four solvers, 12-queens (mirror) took 108,281 cycles
/// with jobs of 3 queens (about 90 per solver), 109,393 with 2 (12) and
/// 110,281 with 4 (about 500).
pub const QUEENS_JOBS_PER_ENGINE: usize = 32;

/// What crossed the link during one search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct LinkFigures {
    /// The device's clock, for engine time from cycles.
    pub clock_hz: u64,
    pub bytes_sent: u64,
    pub bytes_received: u64,
    /// Bytes the host dropped as line noise.
    pub bytes_skipped: u64,
}

impl LinkFigures {
    /// The traffic after `earlier` (taken from the same link).
    fn since(self, earlier: LinkFigures) -> LinkFigures {
        LinkFigures {
            clock_hz: self.clock_hz,
            bytes_sent: self.bytes_sent - earlier.bytes_sent,
            bytes_received: self.bytes_received - earlier.bytes_received,
            bytes_skipped: self.bytes_skipped - earlier.bytes_skipped,
        }
    }
}

/// How long the line may be quiet mid-frame before the bytes after the
/// frame's sync byte are searched for a whole frame (which would show that
/// sync byte to be noise).
const FRAME_GAP: Duration = Duration::from_millis(50);

/// IDENTIFY is sent again this many times at most when the device answers
/// it with an ERROR (see [`Link::identify`]), each after the line has been
/// quiet this long: longer than a device's frame timeout (10 ms).
const IDENTIFY_RETRIES: u32 = 3;
const DIRTY_LINE_QUIET: Duration = Duration::from_millis(30);

/// Frames over a transport.
pub struct Link<T: Transport> {
    transport: T,
    decoder: FrameDecoder,
    bytes_sent: u64,
    bytes_received: u64,
}

impl<T: Transport> Link<T> {
    pub fn new(transport: T) -> Self {
        Link { transport, decoder: FrameDecoder::new(MAX_PAYLOAD), bytes_sent: 0, bytes_received: 0 }
    }

    pub fn transport(&mut self) -> &mut T {
        &mut self.transport
    }

    pub fn send(&mut self, command: &Command) -> Result<(), DeviceError> {
        let bytes = command.encode();
        self.transport.write_all(&bytes).map_err(|source| DeviceError::LinkLost {
            device: self.transport.describe(),
            direction: Direction::Write,
            source,
        })?;
        self.bytes_sent += bytes.len() as u64;
        Ok(())
    }

    /// The next response, or `None` when none came within `timeout`.
    pub fn receive(&mut self, timeout: Duration) -> Result<Option<Response>, DeviceError> {
        let deadline = Instant::now() + timeout;
        let mut buffer = [0u8; 1024];
        loop {
            if let Some(frame) = self.decoder.next_frame() {
                return Ok(Some(frame?));
            }
            let left = deadline.saturating_duration_since(Instant::now());
            // Wait in short slices while a frame is under way: a sync byte
            // from line noise, its length running past the frames after it,
            // is found out once the line goes quiet (the whole frames after
            // it are taken). A frame under way is never given up for a
            // pause: a pseudo-terminal bridge to a simulated board, or a USB
            // adapter, can pause mid-frame, and giving it up loses a result.
            // It gets the whole gap, deadline or not, and is kept past the
            // deadline for the next call.
            let in_frame = self.decoder.pending() > 0;
            let wait = if in_frame { FRAME_GAP } else { left.min(Duration::from_millis(100)) };
            let n = self.transport.read(&mut buffer, wait).map_err(|source| DeviceError::LinkLost {
                device: self.transport.describe(),
                direction: Direction::Read,
                source,
            })?;
            self.bytes_received += n as u64;
            self.decoder.push(&buffer[..n]);
            if n == 0 {
                if in_frame && self.decoder.skip_noise_before_a_whole_frame() {
                    continue;
                }
                if left.is_zero() {
                    return Ok(None);
                }
            }
        }
    }

    /// Asks the device what it is, skipping what an earlier session left on
    /// the line. A frame an earlier host left half-sent (killed while
    /// writing) swallows the first IDENTIFY, which the device then answers
    /// with an ERROR: the line is let go quiet past the device's frame
    /// timeout and IDENTIFY sent again, a few times at most.
    pub fn identify(&mut self, timeout: Duration) -> Result<Identity, DeviceError> {
        self.send(&Command::Identify)?;
        let deadline = Instant::now() + timeout;
        let (mut retries, mut errors, mut last_error) = (0, 0, None);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let response = self.receive(left)?;
            if let Some(Response::Error { code, .. }) = response {
                (errors, last_error) = (errors + 1, Some(code));
            }
            match response {
                Some(Response::Error { .. }) if retries < IDENTIFY_RETRIES => {
                    retries += 1;
                    while self.receive(DIRTY_LINE_QUIET)?.is_some() {}
                    self.send(&Command::Identify)?;
                }
                Some(Response::Identity(identity)) => {
                    if identity.version != VERSION {
                        return Err(DeviceError::Version {
                            device: self.transport.describe(),
                            version: identity.version,
                            host: VERSION,
                        });
                    }
                    return Ok(identity);
                }
                Some(_) => continue,
                None => {
                    let device = self.transport.describe();
                    return Err(match last_error {
                        Some(last) => DeviceError::DirtyLine { device, errors, last },
                        None => DeviceError::NoAnswer { device, timeout },
                    });
                }
            }
        }
    }

    pub fn figures(&self, clock_hz: u64) -> LinkFigures {
        LinkFigures {
            clock_hz,
            bytes_sent: self.bytes_sent,
            bytes_received: self.bytes_received,
            bytes_skipped: self.decoder.skipped(),
        }
    }
}

/// A device reached over a link: the simulated board or a real one.
pub struct LinkedDevice<T: Transport> {
    name: &'static str,
    link: Link<T>,
    identity: Identity,
    /// How long the device may stay silent during a search.
    timeout: Duration,
    /// The split level to ask for; `None` picks one for the device's engines.
    split: Option<u8>,
    /// Engines to use; `None` uses all.
    engines: Option<u8>,
}

impl<T: Transport> LinkedDevice<T> {
    /// Connects and identifies the device; `name` is how `--device` calls it.
    /// A search left running by an earlier session (one stopped with
    /// Ctrl-C, say) is aborted, so the device starts idle.
    pub fn connect(name: &'static str, transport: T, timeout: Duration) -> Result<Self, DeviceError> {
        let mut link = Link::new(transport);
        let identity = link.identify(timeout)?;
        let mut device = LinkedDevice { name, link, identity, timeout, split: None, engines: None };
        device.link.send(&Command::Status)?;
        loop {
            match device.next()? {
                Response::Progress { searching: false, .. } => break,
                Response::Progress { searching: true, .. } => {
                    device.link.send(&Command::Abort)?;
                    device.drain_until_done()?;
                    break;
                }
                _ => continue,
            }
        }
        Ok(device)
    }

    pub fn identity(&self) -> Identity {
        self.identity
    }

    pub fn link(&mut self) -> &mut Link<T> {
        &mut self.link
    }

    /// Fixes the split level of the following searches (0: engine 0 alone,
    /// in the reference's order); `None` picks one for the engine count.
    pub fn set_split(&mut self, level: Option<u8>) {
        self.split = level;
    }

    /// Uses only the first `engines` engines of the device (`None`: all).
    pub fn set_engines(&mut self, engines: Option<u8>) -> Result<(), DeviceError> {
        if let Some(n) = engines {
            if n == 0 || n > self.identity.engines {
                return Err(DeviceError::Engines {
                    device: self.describe(),
                    requested: n,
                    available: self.identity.engines,
                });
            }
        }
        self.engines = engines;
        Ok(())
    }

    /// Engines a split search runs on.
    pub fn engines(&self) -> u8 {
        self.engines.unwrap_or(self.identity.engines)
    }

    /// The level whose nodes become jobs, in the tree below `path` (the
    /// start square alone: the whole tree): the shallowest with at least
    /// [`JOBS_PER_ENGINE`] paths per engine while the tree still branches
    /// ([`PrefixJobs::split_below_while_branching`]), or 0 on one engine;
    /// or the level set by [`Self::set_split`]. Level 0 also where no level
    /// below the path qualifies.
    pub fn split_level(&self, spec: &SearchSpec, path: &[Square]) -> u8 {
        let path_end = path.len() - 1;
        if let Some(level) = self.split {
            // A level at or past the board's last has no jobs, nor has one
            // at or above the path's end: the device searches such a tree on
            // one engine, as level 0 asks.
            let jobs_below = usize::from(level) + 1 < spec.board.area() && usize::from(level) > path_end;
            return if jobs_below { level } else { 0 };
        }
        if self.engines() <= 1 {
            return 0;
        }
        let jobs = PrefixJobs::split_below_while_branching(spec, path, usize::from(self.engines()) * JOBS_PER_ENGINE);
        let level = jobs.prefixes.first().map_or(0, |prefix| prefix.len() - 1).min(usize::from(MAX_SPLIT_LEVEL));
        if level > path_end {
            level as u8
        } else {
            0
        }
    }

    fn describe(&self) -> String {
        self.link.transport.describe()
    }

    /// Bytes a square of a tour takes from this build.
    fn square_bytes(&self) -> usize {
        square_bytes(usize::from(self.identity.max_width) * usize::from(self.identity.max_height))
    }

    /// Waits for the next response of a running search.
    fn next(&mut self) -> Result<Response, DeviceError> {
        self.link
            .receive(self.timeout)?
            .ok_or_else(|| DeviceError::Timeout { device: self.describe(), timeout: self.timeout })
    }

    /// SOLVE for a search below `path` (the start square alone: the whole
    /// tree).
    fn request(&self, spec: &SearchSpec, goal: Goal, path: &[Square]) -> Result<SolveRequest, DeviceError> {
        let byte = |value: u16| u8::try_from(value).map_err(|_| DeviceError::OutOfRange(value));
        if spec.order == MoveOrder::Warnsdorff && !self.identity.warnsdorff {
            return Err(DeviceError::Unsupported(Capability::Warnsdorff));
        }
        if spec.prune && !self.identity.prune {
            return Err(DeviceError::Unsupported(Capability::Pruning));
        }
        let bad_path = |reason: String| DeviceError::BadPath { reason };
        Searcher::new(*spec).and_then(|s| s.check_prefix(path)).map_err(|e| bad_path(e.to_string()))?;
        if path.len() > 1 && path.len() >= spec.board.area() {
            return Err(bad_path(format!("it fills the {} board: there is no search below it", spec.board)));
        }
        let moves = path_moves(path).expect("checked: knight's moves");
        let path_moves = MovePath::new(&moves).ok_or_else(|| {
            bad_path(format!("it has {} moves, and a device takes at most {MAX_PATH_MOVES}", moves.len()))
        })?;
        let split = self.split_level(spec, path);
        if split > MAX_SPLIT_LEVEL {
            return Err(DeviceError::SplitTooDeep { level: split, max: MAX_SPLIT_LEVEL });
        }
        Ok(SolveRequest {
            width: byte(spec.board.width)?,
            height: byte(spec.board.height)?,
            file: byte(spec.start.file)?,
            rank: byte(spec.start.rank)?,
            closed: spec.closed,
            warnsdorff: spec.order == MoveOrder::Warnsdorff,
            prune: spec.prune,
            count: goal == Goal::CountAll,
            limit: match goal {
                Goal::First(k) => u32::try_from(k).unwrap_or(0),
                Goal::CountAll => 0,
            },
            split,
            engines: self.engines.unwrap_or(0),
            path: path_moves,
        })
    }
}

impl<T: Transport> Device for LinkedDevice<T> {
    fn name(&self) -> &'static str {
        self.name
    }

    fn max_board(&self) -> BoardSize {
        BoardSize::new(u16::from(self.identity.max_width), u16::from(self.identity.max_height))
    }

    fn search(&mut self, spec: &SearchSpec, goal: Goal, sink: &mut dyn Sink) -> Result<Report, DeviceError> {
        self.expect(Problem::Tours)?;
        let request = self.request(spec, goal, &[spec.start])?;
        let square_bytes = self.square_bytes();
        let mut tours = TourResults { sink, max_width: self.identity.max_width, square_bytes };
        // A tour of a job starts with the job's path: the split level's
        // squares and the start square.
        let prefix = (usize::from(request.split) + 1) * square_bytes;
        self.converse(Command::Solve(request), request.split, prefix, &mut tours)
    }

    /// Counts the tree below `path` on the device's engines (split below the
    /// path when it has several): the walker replays the path from the root.
    fn count_from(&mut self, spec: &SearchSpec, path: &[Square], sink: &mut dyn Sink) -> Result<Report, DeviceError> {
        self.expect(Problem::Tours)?;
        let request = self.request(spec, Goal::CountAll, path)?;
        let square_bytes = self.square_bytes();
        let mut tours = TourResults { sink, max_width: self.identity.max_width, square_bytes };
        let prefix = path.len() * square_bytes;
        let mut report = self.converse(Command::Solve(request), request.split, prefix, &mut tours)?;
        // The device counts the path's squares; those above its last are the
        // nodes above the cut (as the CPU's count below a path says).
        report.outcome.nodes = report.outcome.nodes.saturating_sub(path.len() as u64 - 1);
        Ok(report)
    }

    fn max_queens(&self) -> u8 {
        if self.identity.queens {
            self.identity.max_width
        } else {
            0
        }
    }

    fn queens(&mut self, spec: &QueensSpec, goal: Goal, sink: &mut dyn QueensSink) -> Result<Report, DeviceError> {
        self.expect(Problem::Queens)?;
        let request = QueensRequest {
            n: spec.n,
            first_from: spec.first_files.start,
            first_to: spec.first_files.end,
            count: goal == Goal::CountAll,
            limit: match goal {
                Goal::First(k) => u32::try_from(k).unwrap_or(0),
                Goal::CountAll => 0,
            },
            split: self.queens_split_level(spec),
            engines: self.engines.unwrap_or(0),
            constellations: false,
        };
        let mut solutions = SolutionResults { sink };
        // A solution of a job starts with the job's queens.
        self.converse(Command::Queens(request), request.split, usize::from(request.split), &mut solutions)
    }

    fn queens_constellations(&mut self, n: u8, sink: &mut dyn QueensSink) -> Result<Report, DeviceError> {
        self.expect(Problem::Queens)?;
        if !self.identity.constellations {
            return Err(DeviceError::NoConstellations { device: self.describe() });
        }
        let request = QueensRequest {
            n,
            first_from: 0,
            first_to: n,
            count: true,
            limit: 0,
            // (A split level says the engines share the search; the jobs
            // are the device's generator's.)
            split: 1,
            engines: self.engines.unwrap_or(0),
            constellations: true,
        };
        let mut solutions = SolutionResults { sink };
        // (No solution is sent, so none has a job's queens to check.)
        self.converse(Command::Queens(request), request.split, 0, &mut solutions)
    }
}

/// Where a search's results go: tours or solutions, as their sinks take
/// them.
trait Results {
    fn result(&mut self, items: &[u8]) -> Result<(), DeviceError>;
    fn progress(&mut self, nodes: u64, results: u64) -> Flow;
}

/// Tours: squares numbered `rank * max_width + file`, a byte or two each
/// ([`square_bytes`]).
struct TourResults<'a> {
    sink: &'a mut dyn Sink,
    max_width: u8,
    square_bytes: usize,
}

impl Results for TourResults<'_> {
    fn result(&mut self, items: &[u8]) -> Result<(), DeviceError> {
        let width = u16::from(self.max_width);
        let square = |bytes: &[u8]| bytes.iter().rev().fold(0u16, |number, &byte| number << 8 | u16::from(byte));
        let tour: Vec<Square> = items
            .chunks(self.square_bytes)
            .map(square)
            .map(|number| Square::new(number % width, number / width))
            .collect();
        self.sink.tour(&tour)
    }

    fn progress(&mut self, nodes: u64, results: u64) -> Flow {
        self.sink.progress(nodes, results)
    }
}

/// N-Queens solutions: a file per rank.
struct SolutionResults<'a> {
    sink: &'a mut dyn QueensSink,
}

impl Results for SolutionResults<'_> {
    fn result(&mut self, items: &[u8]) -> Result<(), DeviceError> {
        self.sink.solution(items)
    }

    fn progress(&mut self, nodes: u64, results: u64) -> Flow {
        self.sink.progress(nodes, results)
    }
}

impl<T: Transport> LinkedDevice<T> {
    /// The problem this device's build solves.
    pub fn problem(&self) -> Problem {
        if self.identity.queens {
            Problem::Queens
        } else {
            Problem::Tours
        }
    }

    fn expect(&self, asked: Problem) -> Result<(), DeviceError> {
        if self.problem() == asked {
            Ok(())
        } else {
            Err(DeviceError::WrongProblem { device: self.describe(), build: self.problem(), asked })
        }
    }

    /// The split level of an N-Queens search: the fewest queens per job that
    /// give [`QUEENS_JOBS_PER_ENGINE`] jobs per engine, at most a job path's
    /// worth.
    fn queens_split_level(&self, spec: &QueensSpec) -> u8 {
        let deepest = MAX_QUEENS_SPLIT_LEVEL.min(spec.n.saturating_sub(1));
        let level = match self.split {
            Some(level) => level,
            None if self.engines() <= 1 => 0,
            None => QueensSearch::new(spec.clone()).split(usize::from(self.engines()) * QUEENS_JOBS_PER_ENGINE).level,
        };
        if level > deepest {
            0
        } else {
            level
        }
    }

    /// One search on the device: the command, its ACK, the results (each
    /// checked for its sequence number and job tags) and the DONE.
    fn converse(
        &mut self,
        command: Command,
        split: u8,
        prefix_items: usize,
        results: &mut dyn Results,
    ) -> Result<Report, DeviceError> {
        let start = self.link.figures(0);
        let code = command.code();
        self.link.send(&command)?;
        // Answers to earlier commands may still be on the way; ours is the
        // first ACK or ERROR about this command.
        loop {
            match self.next()? {
                Response::Ack { command } if command == code => break,
                Response::Error { code: ErrorCode::Busy, command } if command == code => {
                    return Err(DeviceError::Busy { device: self.describe() })
                }
                Response::Error { code, command } => {
                    return Err(DeviceError::Refused { device: self.describe(), code, command })
                }
                _ => continue,
            }
        }
        let mut received = 0u64;
        let mut stopping = false;
        let mut tags = JobTags::new(split, prefix_items, self.identity.engines);
        loop {
            match self.next()? {
                Response::Tour { sequence, engine, job, squares } => {
                    received += 1;
                    if u64::from(sequence) != received & 0xFFFF_FFFF {
                        return Err(DeviceError::ToursLost { device: self.describe(), number: received, sequence });
                    }
                    if let Err(problem) = tags.check(engine, job, &squares) {
                        return Err(DeviceError::MixedStreams { device: self.describe(), number: received, problem });
                    }
                    if let Err(error) = results.result(&squares) {
                        // Leave the device idle for the next search.
                        self.link.send(&Command::Abort)?;
                        let _ = self.drain_until_done();
                        return Err(error);
                    }
                }
                Response::Progress { searching: true, counters } => {
                    if !stopping && results.progress(counters.nodes, counters.tours) == Flow::Stop {
                        self.link.send(&Command::Abort)?;
                        stopping = true;
                    }
                }
                Response::Done { status, counters } => {
                    let status = match status {
                        code::STATUS_FOUND => Status::Found,
                        code::STATUS_EXHAUSTED => Status::Exhausted,
                        code::STATUS_ABORTED => Status::Aborted,
                        status => return Err(DeviceError::UnknownStatus { device: self.describe(), status }),
                    };
                    let figures = self.link.figures(u64::from(self.identity.clock_hz)).since(start);
                    return Ok(Report {
                        outcome: Outcome { tours: counters.tours, nodes: counters.nodes, status },
                        cycles: Some(counters.cycles),
                        engines: Some(EngineFigures {
                            engines: self.engines(),
                            split_level: split,
                            engine_cycles: counters.engine_cycles,
                        }),
                        link: Some(figures),
                    });
                }
                Response::Error { code, .. } => return Err(DeviceError::Failed { device: self.describe(), code }),
                Response::Ack { .. } | Response::Identity(_) | Response::Progress { .. } => {}
            }
        }
    }
}

impl<T: Transport> LinkedDevice<T> {
    fn drain_until_done(&mut self) -> Result<(), DeviceError> {
        loop {
            if let Response::Done { .. } = self.next()? {
                return Ok(());
            }
        }
    }
}

/// Checks the engine and job tags of a search's tours: every tour of a job
/// starts with that job's path down to the split level, and no two jobs share
/// one, so tours from different engines cannot have been mixed up.
struct JobTags {
    split: u8,
    /// Items of a result that are its job's path.
    prefix_items: usize,
    engines: u8,
    paths: HashMap<u32, Vec<u8>>,
    jobs: HashMap<Vec<u8>, u32>,
}

impl JobTags {
    fn new(split: u8, prefix_items: usize, engines: u8) -> Self {
        JobTags { split, prefix_items, engines, paths: HashMap::new(), jobs: HashMap::new() }
    }

    fn check(&mut self, engine: u8, job: u32, squares: &[u8]) -> Result<(), String> {
        if engine >= self.engines {
            return Err(format!("it names engine {engine}, and the device has {}", self.engines));
        }
        if self.split == 0 && (engine != 0 || job != 0) {
            return Err(format!("an unsplit search ran on engine 0 alone, yet it names engine {engine} job {job}"));
        }
        let Some(path) = squares.get(..self.prefix_items) else {
            return Err(format!("{} items are shorter than the split level {}", squares.len(), self.split));
        };
        let known_path = self.paths.entry(job).or_insert_with(|| path.to_vec());
        let known_job = *self.jobs.entry(path.to_vec()).or_insert(job);
        if known_path.as_slice() != path || known_job != job {
            return Err(format!(
                "job {job} (engine {engine}) does not match the path earlier tours of its job took: streams were mixed"
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proto::Counters;
    use crate::transport::scripted::Scripted;

    /// A device whose bytes come in bursts, the line quiet between them:
    /// each read takes the next burst, and an empty burst is a read that
    /// waited its whole timeout for nothing.
    struct Bursts(std::collections::VecDeque<Vec<u8>>);

    impl Transport for Bursts {
        fn write_all(&mut self, _: &[u8]) -> std::io::Result<()> {
            Ok(())
        }

        fn read(&mut self, buffer: &mut [u8], _: Duration) -> std::io::Result<usize> {
            let burst = self.0.pop_front().unwrap_or_default();
            buffer[..burst.len()].copy_from_slice(&burst);
            Ok(burst.len())
        }

        fn describe(&self) -> String {
            "bursts".into()
        }
    }

    #[test]
    fn a_frame_that_pauses_is_kept_and_noise_before_a_frame_is_dropped() {
        let tour = Response::Tour { sequence: 1, engine: 0, job: 0, squares: vec![0, 10, 17] };
        let bytes = tour.encode();
        // The tour's first bytes, the line quiet three times over, its rest
        // (as a pseudo-terminal bridge to a simulated board under load).
        let bursts = vec![bytes[..5].to_vec(), vec![], vec![], vec![], bytes[5..].to_vec()];
        let mut link = Link::new(Bursts(bursts.into()));
        assert_eq!(link.receive(Duration::from_secs(1)).unwrap(), Some(tour));
        // A sync byte from noise whose length runs past the ACK after it:
        // the ACK is taken once the line goes quiet.
        let ack = Response::Ack { command: 2 };
        let mut stray = vec![crate::proto::SYNC, 200, 0];
        stray.extend(ack.encode());
        let mut link = Link::new(Bursts(vec![stray, vec![]].into()));
        assert_eq!(link.receive(Duration::from_secs(1)).unwrap(), Some(ack));
        assert_eq!(link.figures(0).bytes_skipped, 3);
        // A frame that never ends is no answer by the deadline, not a hang.
        let mut link = Link::new(Bursts(vec![bytes[..5].to_vec()].into()));
        assert_eq!(link.receive(Duration::ZERO).unwrap(), None);
    }

    /// A device behind a scripted link that answers the connection's
    /// IDENTIFY with `identity`, and its STATUS as idle.
    fn scripted(identity: Identity) -> LinkedDevice<Scripted> {
        let idle = Response::Progress { searching: false, counters: Counters::default() };
        let transport = Scripted::new(vec![vec![Response::Identity(identity)], vec![idle]]);
        LinkedDevice::connect("board", transport, Duration::from_secs(1)).unwrap()
    }

    #[test]
    fn a_build_without_warnsdorff_is_not_asked_for_it() {
        let identity = Identity {
            version: VERSION,
            max_width: 6,
            max_height: 6,
            engines: 18,
            clock_hz: 28_125_000,
            baud: 115_200,
            warnsdorff: false,
            prune: true,
            queens: false,
            constellations: false,
        };
        let device = scripted(identity);
        let spec = SearchSpec {
            board: BoardSize::new(6, 6),
            start: Square::new(0, 0),
            closed: false,
            order: MoveOrder::Warnsdorff,
            prune: true,
        };
        let error = device.request(&spec, Goal::First(1), &[spec.start]).unwrap_err();
        assert!(matches!(error, DeviceError::Unsupported(Capability::Warnsdorff)), "{error}");
        assert!(device.request(&SearchSpec { order: MoveOrder::Fixed, ..spec }, Goal::First(1), &[spec.start]).is_ok());
    }

    /// A count below a path sends the path's moves and splits below its end
    /// (or not at all); a path that is
    /// no knight's path from the start, fills the board or is longer than a
    /// device takes is refused before anything is sent.
    #[test]
    fn a_count_below_a_path_splits_below_it_and_bad_paths_are_refused() {
        let identity = Identity {
            version: VERSION,
            max_width: 8,
            max_height: 8,
            engines: 4,
            clock_hz: 12_000_000,
            baud: 3_000_000,
            warnsdorff: true,
            prune: true,
            queens: false,
            constellations: false,
        };
        let device = scripted(identity);
        let squares = |names: &str| -> Vec<Square> { names.split(' ').map(|s| s.parse().unwrap()).collect() };
        let spec = SearchSpec {
            board: BoardSize::new(6, 6),
            start: Square::new(0, 0),
            closed: false,
            order: MoveOrder::Fixed,
            prune: true,
        };
        let path = squares("a1 b3 d4");
        let request = device.request(&spec, Goal::CountAll, &path).unwrap();
        assert_eq!(request.path.moves(), &[0, 1]);
        assert!(request.split > 2, "split at {}, below the path's end", request.split);
        let whole = device.request(&spec, Goal::CountAll, &[spec.start]).unwrap();
        assert!(whole.split < request.split && whole.path.moves().is_empty());
        let five = SearchSpec { board: BoardSize::new(5, 5), ..spec };
        let deep = squares("a1 b3 a5 c4 e5 d3 e1 c2 a3 b1 d2 e4 c5 a4 b2 d1 e3 d5");
        let fifteen = device.request(&five, Goal::CountAll, &deep[..16]).unwrap();
        assert!(fifteen.split == 0 || fifteen.split > 15, "split at {}", fifteen.split);
        for (bad, why) in [
            (squares("b3 c5"), "start"),
            (squares("a1 c2 c4"), "knight"),
            (squares("a1 b3 a1"), "twice"),
            (deep.clone(), "16"),
        ] {
            let error = device.request(&five, Goal::CountAll, &bad).unwrap_err();
            assert!(matches!(error, DeviceError::BadPath { .. }) && error.to_string().contains(why), "{error}");
        }
        let small = SearchSpec { board: BoardSize::new(4, 3), ..spec };
        let mut tours = crate::search::TourList::default();
        Searcher::new(small).unwrap().run(Goal::First(1), &mut tours);
        let error = device.request(&small, Goal::CountAll, &tours.0[0]).unwrap_err();
        assert!(error.to_string().contains("fills"), "{error}");
        let one = SearchSpec { board: BoardSize::new(1, 1), ..spec };
        assert!(device.request(&one, Goal::CountAll, &[one.start]).is_ok(), "a whole search of one square");
    }

    #[test]
    fn a_device_that_answers_identify_only_with_errors_is_a_dirty_line() {
        let error = || Response::Error { code: ErrorCode::BadCrc, command: code::IDENTIFY };
        // IDENTIFY and its three retries, each answered with an ERROR.
        let mut link = Link::new(Scripted::new(vec![vec![error()]; 4]));
        match link.identify(Duration::from_millis(300)).unwrap_err() {
            DeviceError::DirtyLine { errors: 4, last: ErrorCode::BadCrc, .. } => {}
            other => panic!("{other}"),
        }
        // An ERROR first (a half-sent frame swallowed IDENTIFY), then the answer.
        let identity = Identity {
            version: VERSION,
            max_width: 5,
            max_height: 5,
            engines: 1,
            clock_hz: 12_000_000,
            baud: 115_200,
            warnsdorff: true,
            prune: true,
            queens: false,
            constellations: false,
        };
        let mut link = Link::new(Scripted::new(vec![vec![error()], vec![Response::Identity(identity)]]));
        assert_eq!(link.identify(Duration::from_millis(300)).unwrap(), identity);
    }

    #[test]
    fn job_tags_catch_mixed_streams() {
        let mut tags = JobTags::new(2, 3, 4);
        assert!(tags.check(1, 7, &[0, 10, 20, 3]).is_ok());
        assert!(tags.check(2, 7, &[0, 10, 20, 5]).is_ok(), "a job's tours share its path");
        assert!(tags.check(0, 8, &[0, 10, 22, 3]).is_ok());
        assert!(tags.check(1, 7, &[0, 10, 22, 9]).is_err(), "job 7 took another path");
        assert!(tags.check(3, 9, &[0, 10, 20, 9]).is_err(), "that path is job 7's");
        assert!(tags.check(4, 1, &[0, 10, 21]).is_err(), "no engine 4");
        assert!(tags.check(0, 1, &[0, 10]).is_err(), "shorter than the split level");
        let mut unsplit = JobTags::new(0, 1, 4);
        assert!(unsplit.check(0, 0, &[0, 10]).is_ok());
        assert!(unsplit.check(1, 0, &[0, 10]).is_err());
    }
}
