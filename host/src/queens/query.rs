//! An N-Queens request as the user states it, checked against the device,
//! run (a count as the parts of the mirror's plan, each weighted), and
//! answered with validated solutions.

use std::collections::HashSet;
use std::ops::Range;
use std::time::{Duration, Instant};

use super::device::{QueensDevice, QueensSink};
use crate::device::error::{DeviceError, RequestError, ValidationError};
use crate::device::LinkFigures;
use crate::device::{device_seconds, EngineFigures, Problem};
use knights_model::queens::{check_solution, count_plan, unique, QueensSpec, WeightedPart};
use knights_model::{Flow, Goal, Status};

/// One N-Queens search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueensQuery {
    pub n: u8,
    pub goal: Goal,
    /// Counts search one side of the board's mirror and weight it (first-K
    /// searches list solutions in order, so they search the whole tree).
    pub mirror: bool,
    /// Counts search one constellation of each class under the board's
    /// eight symmetries and weight it (the edges' queens placed first: see
    /// `knights_model::queens::constellations`); `mirror` is then unused.
    /// The device makes the jobs. Counts only, N >= 4, one device.
    pub constellations: bool,
    /// Counts also the unique solutions, the classes under the board's
    /// eight symmetries (OEIS A002562): the device lists every solution of
    /// the plan's parts and the host counts those that are the least of
    /// their class ([`knights_model::queens::unique`]). Counts only, one
    /// device, not from constellations.
    pub unique: bool,
}

/// One part of a count: its search, its weight, what it found.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct PartCount {
    pub part: WeightedPart,
    pub solutions: u64,
    pub nodes: u64,
}

/// The validated result of a query.
#[derive(Clone, Debug)]
pub struct QueensAnswer {
    pub query: QueensQuery,
    pub device: &'static str,
    /// In first-K mode, the solutions in the order found (each the file of
    /// the queen on each rank from rank 1, 0-based); empty for counts.
    pub solutions: Vec<Vec<u8>>,
    /// Solutions on the whole board (weighted under the mirror).
    pub solution_count: u64,
    /// With [`QueensQuery::unique`]: the classes of solutions under the
    /// board's eight symmetries.
    pub unique_count: Option<u64>,
    /// Nodes searched (queens placed without conflict) in all parts.
    pub nodes: u64,
    pub status: Status,
    pub parts: Vec<PartCount>,
    pub cycles: Option<u64>,
    pub engines: Option<EngineFigures>,
    pub link: Option<LinkFigures>,
    pub elapsed: Duration,
    /// Parts, and their nodes, an earlier run counted (from a journal).
    pub resumed_parts: usize,
    pub resumed_nodes: u64,
}

/// Checks that `query` makes sense on `device`.
pub fn check_query<D: QueensDevice + ?Sized>(device: &D, query: &QueensQuery) -> Result<(), DeviceError> {
    let max = device.max_queens();
    if max == 0 {
        return Err(DeviceError::Request(RequestError::WrongProblem {
            device: device.name().into(),
            build: Problem::Tours,
            asked: Problem::Queens,
        }));
    }
    if query.n == 0 {
        return Err(DeviceError::Request(RequestError::NoQueens));
    }
    if query.n > max {
        return Err(DeviceError::Request(RequestError::QueensTooLarge { n: query.n, device: device.name(), max }));
    }
    if query.goal == Goal::First(0) {
        return Err(DeviceError::Request(RequestError::NoResults));
    }
    if query.constellations && (query.goal != Goal::CountAll || query.n < MIN_CONSTELLATIONS_N) {
        return Err(DeviceError::Request(RequestError::ConstellationsCountOnly { n: query.n }));
    }
    if query.unique && (query.goal != Goal::CountAll || query.constellations) {
        return Err(DeviceError::Request(RequestError::UniqueCountOnly));
    }
    Ok(())
}

/// Validates every solution a device sends, and stops on the first bad one;
/// keeps them, or counts the least of each class in a unique count; passes
/// progress on as totals over the plan's parts (the parts before the
/// current one, and its own counts weighted).
struct Checked<'a> {
    n: u8,
    solutions: Vec<Vec<u8>>,
    /// Every solution received, to catch one sent twice.
    seen: HashSet<Vec<u8>>,
    /// In a unique count: how many were the least of their class (the
    /// solutions themselves are not kept).
    least_images: Option<u64>,
    nodes_before: u64,
    solutions_before: u64,
    weight: u64,
    progress: &'a mut dyn FnMut(u64, u64) -> Flow,
}

impl<'a> Checked<'a> {
    /// A sink for a search of `n` queens with nothing found yet.
    fn new(n: u8, progress: &'a mut dyn FnMut(u64, u64) -> Flow) -> Self {
        Checked {
            n,
            solutions: Vec::new(),
            seen: HashSet::new(),
            least_images: None,
            nodes_before: 0,
            solutions_before: 0,
            weight: 1,
            progress,
        }
    }
}

impl QueensSink for Checked<'_> {
    fn solution(&mut self, files: &[u8]) -> Result<(), DeviceError> {
        let number = self.seen.len() + 1;
        check_solution(self.n, files)
            .map_err(|e| DeviceError::Invalid(ValidationError::InvalidSolution { number, reason: e.to_string() }))?;
        if !self.seen.insert(files.to_vec()) {
            return Err(DeviceError::Invalid(ValidationError::DuplicateSolution { number }));
        }
        match &mut self.least_images {
            Some(least) => *least += u64::from(unique::is_least_image(files)),
            None => self.solutions.push(files.to_vec()),
        }
        Ok(())
    }

    fn progress(&mut self, nodes: u64, solutions: u64) -> Flow {
        (self.progress)(self.nodes_before + nodes, self.solutions_before + self.weight * solutions)
    }
}

/// Runs `query` on `device`, validating every solution that comes back.
pub fn run<D: QueensDevice + ?Sized>(
    device: &mut D,
    query: QueensQuery,
    progress: &mut dyn FnMut(u64, u64) -> Flow,
) -> Result<QueensAnswer, DeviceError> {
    check_query(device, &query)?;
    if query.constellations {
        return count_constellations(device, query, 0..query.n, progress);
    }
    let plan = match query.goal {
        Goal::CountAll => count_plan(query.n, query.mirror),
        Goal::First(_) => QueensSpec::whole(query.n).map(|spec| vec![WeightedPart { spec, weight: 1 }]),
    }
    .expect("N was checked above");
    run_plan(device, query, plan, progress)
}

/// The least N counted from constellations (smaller boards have at most
/// two solutions, and the solvers stop on the rank below the last).
pub const MIN_CONSTELLATIONS_N: u8 = 4;

/// Counts a checked `query`'s solutions from constellations on `device`:
/// the classes whose canonical image has its first rank's queen on
/// `first_files` (the board's files: the whole count).
fn count_constellations<D: QueensDevice + ?Sized>(
    device: &mut D,
    query: QueensQuery,
    first_files: Range<u8>,
    progress: &mut dyn FnMut(u64, u64) -> Flow,
) -> Result<QueensAnswer, DeviceError> {
    let started = Instant::now();
    let mut sink = Checked::new(query.n, progress);
    let report = device.queens_constellations(query.n, first_files, &mut sink)?;
    Ok(QueensAnswer {
        query,
        device: device.name(),
        solutions: Vec::new(),
        solution_count: report.found,
        unique_count: None,
        nodes: report.nodes,
        status: report.status,
        parts: Vec::new(),
        cycles: report.cycles,
        engines: report.engines,
        link: report.link,
        elapsed: started.elapsed(),
        resumed_parts: 0,
        resumed_nodes: 0,
    })
}

/// Counts the solutions from the constellations of one part of a board
/// (the classes whose canonical image has its first rank's queen on
/// `spec`'s first-rank files) on `device`: a job of a count from
/// constellations that several devices share.
pub fn count_constellations_part<D: QueensDevice + ?Sized>(
    device: &mut D,
    spec: &QueensSpec,
    progress: &mut dyn FnMut(u64, u64) -> Flow,
) -> Result<QueensAnswer, DeviceError> {
    let query = QueensQuery { n: spec.n, goal: Goal::CountAll, mirror: true, constellations: true, unique: false };
    check_query(device, &query)?;
    count_constellations(device, query, spec.first_files.clone(), progress)
}

/// Counts the solutions of one part of a board (`spec`'s first-rank files)
/// on `device`, and with `unique` those that are the least of their class:
/// a job of a count that several devices share.
pub fn count_part<D: QueensDevice + ?Sized>(
    device: &mut D,
    spec: &QueensSpec,
    unique: bool,
    progress: &mut dyn FnMut(u64, u64) -> Flow,
) -> Result<QueensAnswer, DeviceError> {
    let query = QueensQuery { n: spec.n, goal: Goal::CountAll, mirror: false, constellations: false, unique };
    check_query(device, &query)?;
    run_plan(device, query, vec![WeightedPart { spec: spec.clone(), weight: 1 }], progress)
}

/// Runs `plan`'s parts of a checked `query` in turn, weighting each part's
/// solutions, until one is stopped.
fn run_plan<D: QueensDevice + ?Sized>(
    device: &mut D,
    query: QueensQuery,
    plan: Vec<WeightedPart>,
    progress: &mut dyn FnMut(u64, u64) -> Flow,
) -> Result<QueensAnswer, DeviceError> {
    let started = Instant::now();
    let mut answer = QueensAnswer {
        query,
        device: device.name(),
        solutions: Vec::new(),
        solution_count: 0,
        unique_count: None,
        nodes: 0,
        status: Status::Exhausted,
        parts: Vec::new(),
        cycles: None,
        engines: None,
        link: None,
        elapsed: Duration::ZERO,
        resumed_parts: 0,
        resumed_nodes: 0,
    };
    let mut sink = Checked::new(query.n, progress);
    // A unique count lists every solution (a limit of 0 sends them all).
    let goal = if query.unique { Goal::First(u64::MAX) } else { query.goal };
    sink.least_images = query.unique.then_some(0);
    for part in plan {
        (sink.nodes_before, sink.solutions_before, sink.weight) = (answer.nodes, answer.solution_count, part.weight);
        let received_before = sink.seen.len() as u64;
        let report = device.queens(&part.spec, goal, &mut sink)?;
        let received = sink.seen.len() as u64 - received_before;
        if matches!(goal, Goal::First(_)) && report.found != received {
            return Err(DeviceError::Invalid(ValidationError::Missing {
                device: answer.device,
                reported: report.found,
                sent: received,
            }));
        }
        answer.solution_count += part.weight * report.found;
        answer.nodes += report.nodes;
        answer.cycles = report.cycles.map(|c| c + answer.cycles.unwrap_or(0));
        answer.engines = report.engines.map(|e| EngineFigures {
            engine_cycles: e.engine_cycles + answer.engines.map_or(0, |a| a.engine_cycles),
            ..e
        });
        answer.link = match (answer.link, report.link) {
            (Some(before), Some(part)) => Some(part.plus(before)),
            (_, part) => part,
        };
        answer.parts.push(PartCount { part, solutions: report.found, nodes: report.nodes });
        answer.status = report.status;
        if report.status == Status::Aborted {
            break;
        }
    }
    answer.solutions = sink.solutions;
    answer.unique_count = sink.least_images;
    answer.elapsed = started.elapsed();
    Ok(answer)
}

impl QueensAnswer {
    /// The solvers' search time at the device's clock, from its cycles (for
    /// the simulated board, the time the real board would take).
    pub fn engine_seconds(&self) -> Option<f64> {
        device_seconds(self.cycles, self.link)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::error::RequestError;
    use crate::device::CpuDevice;

    fn count(n: u8, mirror: bool, threads: usize) -> QueensAnswer {
        let mut cpu = CpuDevice { threads };
        run(
            &mut cpu,
            QueensQuery { n, goal: Goal::CountAll, mirror, constellations: false, unique: false },
            &mut |_, _| Flow::Continue,
        )
        .unwrap()
    }

    #[test]
    fn the_mirror_halves_the_work_and_keeps_the_count() {
        for n in [1u8, 5, 8, 9] {
            let (whole, mirrored) = (count(n, false, 1), count(n, true, 2));
            assert_eq!(whole.solution_count, mirrored.solution_count, "N = {n}");
            if n > 4 {
                assert!(3 * mirrored.nodes < 2 * whole.nodes, "N = {n}: {} of {}", mirrored.nodes, whole.nodes);
            }
        }
        assert_eq!(count(10, true, 2).solution_count, 724);
    }

    #[test]
    fn a_count_on_every_core_reports_progress_and_stops_when_told() {
        let mut cpu = CpuDevice { threads: 2 };
        let mut calls = 0;
        let query = QueensQuery { n: 13, goal: Goal::CountAll, mirror: false, constellations: false, unique: false };
        let answer = run(&mut cpu, query, &mut |_, _| {
            calls += 1;
            Flow::Stop
        })
        .unwrap();
        assert_eq!(answer.status, Status::Aborted);
        assert!(calls >= 1 && answer.solution_count < 73_712, "{calls} calls, {}", answer.solution_count);
    }

    #[test]
    fn first_k_solutions_are_validated_in_order() {
        let mut cpu = CpuDevice { threads: 1 };
        let query = QueensQuery { n: 6, goal: Goal::First(3), mirror: true, constellations: false, unique: false };
        let answer = run(&mut cpu, query, &mut |_, _| Flow::Continue).unwrap();
        assert_eq!(answer.solutions, vec![vec![1, 3, 5, 0, 2, 4], vec![2, 5, 1, 4, 0, 3], vec![3, 0, 4, 1, 5, 2]]);
        assert_eq!((answer.solution_count, answer.status), (3, Status::Found));
    }

    #[test]
    fn a_unique_count_equals_the_reference_with_or_without_the_mirror() {
        let mut cpu = CpuDevice { threads: 1 };
        for n in 1..=9u8 {
            let reference = unique::count(n, 1).unwrap();
            for mirror in [true, false] {
                let query = QueensQuery { n, goal: Goal::CountAll, mirror, constellations: false, unique: true };
                let answer = run(&mut cpu, query, &mut |_, _| Flow::Continue).unwrap();
                assert_eq!(answer.unique_count, Some(reference.unique), "N = {n}, mirror {mirror}");
                assert_eq!(answer.solution_count, reference.solutions, "N = {n}, mirror {mirror}");
                assert!(answer.solutions.is_empty(), "a count keeps no solutions");
            }
        }
    }

    #[test]
    fn a_unique_count_is_a_count_of_every_solution() {
        let mut cpu = CpuDevice { threads: 1 };
        let first = QueensQuery { n: 6, goal: Goal::First(1), mirror: true, constellations: false, unique: true };
        assert!(matches!(
            run(&mut cpu, first, &mut |_, _| Flow::Continue),
            Err(DeviceError::Request(RequestError::UniqueCountOnly))
        ));
        let from_constellations = QueensQuery { goal: Goal::CountAll, constellations: true, ..first };
        assert!(matches!(
            run(&mut cpu, from_constellations, &mut |_, _| Flow::Continue),
            Err(DeviceError::Request(RequestError::UniqueCountOnly))
        ));
    }

    #[test]
    fn a_unique_count_shared_by_devices_is_the_one_device_count() {
        for (n, mirror) in [(8, true), (9, true), (10, false)] {
            let devices: Vec<Box<dyn QueensDevice + Send>> =
                vec![Box::new(CpuDevice { threads: 1 }), Box::new(CpuDevice { threads: 1 })];
            let query = QueensQuery { n, goal: Goal::CountAll, mirror, constellations: false, unique: true };
            let shared = crate::queens::jobs::count_shared(devices, query, &|_| Flow::Continue, None).unwrap();
            let one = run(&mut CpuDevice { threads: 1 }, query, &mut |_, _| Flow::Continue).unwrap();
            assert_eq!(
                (shared.answer.solution_count, shared.answer.unique_count, shared.answer.nodes),
                (one.solution_count, one.unique_count, one.nodes),
                "N = {n}"
            );
        }
    }

    #[test]
    fn bad_requests_are_refused_before_searching() {
        let mut cpu = CpuDevice { threads: 1 };
        let mut refuse = |n, goal| {
            run(&mut cpu, QueensQuery { n, goal, mirror: true, constellations: false, unique: false }, &mut |_, _| {
                Flow::Continue
            })
        };
        assert!(matches!(refuse(0, Goal::CountAll), Err(DeviceError::Request(RequestError::NoQueens))));
        assert!(matches!(
            refuse(33, Goal::CountAll),
            Err(DeviceError::Request(RequestError::QueensTooLarge { n: 33, max: 32, .. }))
        ));
        assert!(matches!(refuse(8, Goal::First(0)), Err(DeviceError::Request(RequestError::NoResults))));
    }
}

#[cfg(test)]
mod lying_device {
    use std::time::Duration;

    use super::*;
    use crate::device::error::{LinkError, ValidationError};
    use crate::link::proto::{code, Counters, Identity, Response, VERSION};
    use crate::link::transport::scripted::Scripted;
    use crate::link::LinkedDevice;
    use knights_model::queens::QueensSearch;

    const N: u8 = 6;

    /// The four solutions of 6 queens, in the reference's order.
    fn true_solutions() -> Vec<Vec<u8>> {
        QueensSearch::new(QueensSpec::whole(N).unwrap()).solutions(Goal::First(10)).1
    }

    fn solution(sequence: u32, files: &[u8]) -> Response {
        Response::Tour { sequence, engine: 0, job: 0, squares: files.to_vec() }
    }

    fn done(status: u8, found: u64) -> Response {
        Response::Done { status, counters: Counters { tours: found, nodes: 100, cycles: 100, engine_cycles: 100 } }
    }

    /// A one-search N-Queens device that answers QUEENS with `answer`
    /// (after its ACK), and an ABORT with DONE.
    fn device(answer: Vec<Response>) -> LinkedDevice<Scripted> {
        let identity = Identity {
            version: VERSION,
            max_width: 8,
            max_height: 8,
            engines: 1,
            clock_hz: 30_000_000,
            baud: 115_200,
            warnsdorff: false,
            prune: false,
            queens: true,
            constellations: false,
            interleaved: false,
            build_id: 0,
        };
        let idle = Response::Progress { searching: false, counters: Counters::default() };
        let queens = std::iter::once(Response::Ack { command: code::QUEENS }).chain(answer).collect();
        let aborted = vec![done(code::STATUS_ABORTED, 0)];
        let script = Scripted::new(vec![vec![Response::Identity(identity)], vec![idle], queens, aborted]);
        LinkedDevice::connect("board", script, Duration::from_millis(200)).unwrap()
    }

    fn query(goal: Goal, unique: bool) -> QueensQuery {
        QueensQuery { n: N, goal, mirror: false, constellations: false, unique }
    }

    /// Runs `query` on a device answering with `answer`; the commands it
    /// was sent after IDENTIFY and STATUS come back too.
    fn run_against(query: QueensQuery, answer: Vec<Response>) -> (Result<QueensAnswer, DeviceError>, Vec<u8>) {
        let mut device = device(answer);
        let result = run(&mut device, query, &mut |_, _| Flow::Continue);
        let commands = device.link().transport().commands()[2..].to_vec();
        (result, commands)
    }

    #[test]
    fn an_honest_device_is_believed() {
        let s = true_solutions();
        let answer = vec![solution(1, &s[0]), solution(2, &s[1]), done(code::STATUS_FOUND, 2)];
        let (result, commands) = run_against(query(Goal::First(2), false), answer);
        let answer = result.unwrap();
        assert_eq!((answer.solutions, answer.status), (s[..2].to_vec(), Status::Found));
        assert_eq!(commands, [code::QUEENS], "no ABORT for an honest search");
    }

    /// A solution with two queens attacking each other, or of the wrong
    /// length, is refused, and the device is told to stop.
    #[test]
    fn an_invalid_solution_is_refused_and_the_search_aborted() {
        let s = true_solutions();
        let mut attacked = s[1].clone();
        attacked.swap(0, 1);
        for (broken, what) in [(attacked, "attacked"), (s[1][..5].to_vec(), "short")] {
            let answer = vec![solution(1, &s[0]), solution(2, &broken), done(code::STATUS_FOUND, 2)];
            let (result, commands) = run_against(query(Goal::First(2), false), answer);
            let error = result.unwrap_err();
            assert!(
                matches!(error, DeviceError::Invalid(ValidationError::InvalidSolution { number: 2, .. })),
                "{what}: {error}"
            );
            assert_eq!(commands, [code::QUEENS, code::ABORT], "{what}");
        }
    }

    #[test]
    fn a_solution_sent_twice_is_refused() {
        let s = true_solutions();
        let answer = vec![solution(1, &s[0]), solution(2, &s[0]), done(code::STATUS_FOUND, 2)];
        let (result, commands) = run_against(query(Goal::First(2), false), answer);
        let error = result.unwrap_err();
        assert!(matches!(error, DeviceError::Invalid(ValidationError::DuplicateSolution { number: 2 })), "{error}");
        assert_eq!(commands, [code::QUEENS, code::ABORT]);
    }

    #[test]
    fn a_missing_solution_is_refused() {
        // Two sent, three reported; and a gap in the numbering.
        let s = true_solutions();
        let answer = vec![solution(1, &s[0]), solution(2, &s[1]), done(code::STATUS_FOUND, 3)];
        let error = run_against(query(Goal::First(3), false), answer).0.unwrap_err();
        assert!(
            matches!(error, DeviceError::Invalid(ValidationError::Missing { reported: 3, sent: 2, .. })),
            "{error}"
        );
        let answer = vec![solution(1, &s[0]), solution(3, &s[1]), done(code::STATUS_FOUND, 2)];
        let error = run_against(query(Goal::First(2), false), answer).0.unwrap_err();
        assert!(matches!(error, DeviceError::Link(LinkError::ResultsLost { number: 2, sequence: 3, .. })), "{error}");
    }

    /// A unique count lists every solution; one dropped or sent twice
    /// cannot pass as a different count.
    #[test]
    fn a_unique_count_fed_a_dropped_or_doubled_solution_is_refused() {
        let s = true_solutions();
        let all = |list: &[Vec<u8>]| -> Vec<Response> {
            let mut answer: Vec<Response> =
                list.iter().enumerate().map(|(i, files)| solution(i as u32 + 1, files)).collect();
            answer.push(done(code::STATUS_EXHAUSTED, list.len() as u64));
            answer
        };
        let honest = run_against(query(Goal::CountAll, true), all(&s)).0.unwrap();
        assert_eq!((honest.unique_count, honest.solution_count), (Some(1), 4), "OEIS A002562 and A000170");
        // One dropped, its DONE still saying four.
        let mut dropped = all(&s[..3]);
        *dropped.last_mut().unwrap() = done(code::STATUS_EXHAUSTED, 4);
        let error = run_against(query(Goal::CountAll, true), dropped).0.unwrap_err();
        assert!(
            matches!(error, DeviceError::Invalid(ValidationError::Missing { reported: 4, sent: 3, .. })),
            "{error}"
        );
        let doubled = all(&[s[0].clone(), s[1].clone(), s[2].clone(), s[3].clone(), s[3].clone()]);
        let error = run_against(query(Goal::CountAll, true), doubled).0.unwrap_err();
        assert!(matches!(error, DeviceError::Invalid(ValidationError::DuplicateSolution { number: 5 })), "{error}");
    }
}
