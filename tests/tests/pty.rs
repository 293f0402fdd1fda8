//! The real serial-port path: the simulated board served on a
//! pseudo-terminal, reached through `serialport` as a board would be.

#![cfg(unix)]

mod common;
use common::spec;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::thread;
use std::time::Duration;

use knights::device::error::{DeviceError, LinkError};
use knights::device::CpuDevice;
use knights::link::proto::{Command, SolveRequest};
use knights::link::transport::Transport;
use knights::link::transport::{serve_simulated_board, SerialTransport};
use knights::link::LinkedDevice;
use knights::tours::query::{self, Query};
use knights::tours::whole_board;
use knights::tours::TourDevice;
use knights_model::tours::TourList;
use knights_model::tours::{SearchSpec, Searcher};
use knights_model::Flow;
use knights_model::{Goal, Status};
use knights_sim::SimulatedBoard;
use serialport::SerialPort;

/// A simulated board on a pseudo-terminal, stopped when dropped.
struct Served {
    path: String,
    running: Arc<AtomicBool>,
    thread: Option<thread::JoinHandle<()>>,
}

/// The simulated board's own rate: 12 MHz, four clocks a bit.
const BOARD_BAUD: u32 = 3_000_000;

impl Served {
    fn start() -> Served {
        let running = Arc::new(AtomicBool::new(true));
        let (tx, rx) = mpsc::channel();
        let keep = running.clone();
        let thread = thread::spawn(move || {
            serve_simulated_board(
                SimulatedBoard::new(),
                Some(BOARD_BAUD),
                &mut |path| tx.send(path.to_string()).unwrap(),
                &|| keep.load(Ordering::Relaxed),
            )
            .unwrap()
        });
        let path = rx.recv_timeout(Duration::from_secs(10)).unwrap();
        Served { path, running, thread: Some(thread) }
    }

    fn connect(&self) -> LinkedDevice<SerialTransport> {
        let port = SerialTransport::open(&self.path, 3_000_000).unwrap();
        let mut device = LinkedDevice::connect("board", port, Duration::from_secs(60)).unwrap();
        // Engine 0 alone, so first-K tours come in the reference's order.
        device.set_split(Some(0));
        device
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        self.running.store(false, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            thread.join().unwrap();
        }
    }
}

fn run(device: &mut dyn TourDevice, spec: SearchSpec, goal: Goal) -> query::Answer {
    query::run(device, Query { spec, goal }, &mut |_, _| Flow::Continue).unwrap()
}

#[test]
fn counts_and_tours_through_a_pseudo_terminal_match_the_reference() {
    let served = Served::start();
    let mut device = served.connect();
    assert_eq!(device.identity().max_width, 8);
    for (board, start, closed, goal) in [
        ("5", "a1", false, Goal::CountAll),
        ("5x4", "b1", false, Goal::First(10)),
        ("6x5", "a1", true, Goal::First(2)),
        ("7x3", "a1", false, Goal::CountAll),
    ] {
        let spec = spec(board, start, closed);
        let mut tours = TourList::default();
        let expected = Searcher::new(spec).unwrap().run(goal, &mut tours);
        let answer = run(&mut device, spec, goal);
        assert_eq!((answer.tour_count, answer.nodes), (expected.tours, expected.nodes), "{board} {goal:?}");
        if let Goal::First(_) = goal {
            assert_eq!(answer.tours, tours.0, "{board} {goal:?}");
        }
    }
}

/// A host killed half-way through writing a frame leaves it on the line;
/// the next run's first search must succeed without the user retrying.
#[test]
fn a_half_sent_frame_left_on_the_port_does_not_spoil_the_next_run() {
    let served = Served::start();
    let request = SolveRequest {
        width: 8,
        height: 8,
        file: 0,
        rank: 0,
        closed: true,
        warnsdorff: false,
        prune: true,
        count: true,
        limit: 0,
        split: 0,
        engines: 0,
        path: knights::link::proto::MovePath::EMPTY,
    };
    let mut killed = SerialTransport::open(&served.path, 3_000_000).unwrap();
    killed.write_all(&Command::Solve(request).encode()[..7]).unwrap();
    drop(killed);
    let mut device = served.connect();
    let answer = run(&mut device, spec("5", "a1", false), Goal::CountAll);
    assert_eq!((answer.tour_count, answer.nodes), (304, 1_735_079));
}

#[test]
fn all_304_open_tours_of_5x5_stream_through_a_pseudo_terminal() {
    let served = Served::start();
    let mut device = served.connect();
    let answer = run(&mut device, spec("5", "a1", false), Goal::First(u64::MAX));
    assert_eq!((answer.tours.len(), answer.tour_count, answer.status), (304, 304, Status::Exhausted));
    // A second client on the same terminal finds the board idle and exact.
    drop(device);
    let mut again = served.connect();
    assert_eq!(run(&mut again, spec("5", "c3", false), Goal::CountAll).tour_count, 64);
}

/// A board at 3 Mbaud reached without its rate: the host tries the rates in
/// turn, the wrong ones mangled on the line as a real UART's would be, and
/// keeps the one that answers. At wrong rates alone it is an error naming
/// them, not a hang.
#[test]
fn the_host_finds_the_rate_a_board_talks_at() {
    let served = Served::start();
    let wrong = SerialTransport::open(&served.path, 115_200).unwrap();
    let error = LinkedDevice::connect("board", wrong, Duration::from_millis(500)).err().unwrap();
    assert!(error.to_string().contains("baud rate"), "{error}");
    let started = std::time::Instant::now();
    let error = LinkedDevice::open_finding_rate("board", &served.path, &[115_200, 1_500_000], Duration::from_secs(60))
        .err()
        .unwrap();
    let message = error.to_string();
    assert!(matches!(error, DeviceError::Link(LinkError::NoRate { .. })), "{message}");
    assert!(message.contains("at any of 115200, 1500000 baud"), "{message}");
    assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());
    let rates = [115_200, 1_500_000, BOARD_BAUD, 1_000_000];
    let mut device = LinkedDevice::open_finding_rate("board", &served.path, &rates, Duration::from_secs(60)).unwrap();
    device.set_split(Some(0));
    assert_eq!(device.identity().baud, BOARD_BAUD);
    let answer = run(&mut device, spec("5", "a1", false), Goal::CountAll);
    assert_eq!((answer.tour_count, answer.nodes), (304, 1_735_079));
    let link = answer.link.unwrap();
    assert_eq!(link.baud, u64::from(BOARD_BAUD));
}

#[test]
fn a_silent_port_times_out_with_a_clear_error() {
    let (_master, slave) = serialport::TTYPort::pair().unwrap();
    let path = slave.name().unwrap();
    let port = SerialTransport::open(&path, 115_200).unwrap();
    let error = LinkedDevice::connect("board", port, Duration::from_millis(300)).err().unwrap();
    assert!(matches!(error, DeviceError::Link(LinkError::NoAnswer { .. })), "{error}");
    let message = error.to_string();
    assert!(message.contains("no answer from") && message.contains("baud rate"), "{message}");
}

#[test]
fn a_vanished_board_is_a_clear_error() {
    let served = Served::start();
    let mut device = served.connect();
    drop(served);
    let spec = spec("5", "a1", false);
    let error =
        query::run(&mut device, Query { spec, goal: Goal::CountAll }, &mut |_, _| Flow::Continue).err().unwrap();
    assert!(
        matches!(error, DeviceError::Link(LinkError::Lost { .. }) | DeviceError::Link(LinkError::Timeout { .. })),
        "{error}"
    );
    let message = error.to_string();
    assert!(message.contains("unplugged"), "{message}");
}

/// Three boards share the count of every 6×6 tour; one of them is unplugged
/// (its pseudo-terminal closed) once the first job is done, and its job
/// goes to the other two: the total and the nodes are the one-device count's.
#[test]
fn three_boards_share_a_count_and_one_unplugged_mid_count_loses_nothing() {
    let served: Vec<Served> = (0..3).map(|_| Served::start()).collect();
    let devices: Vec<Box<dyn TourDevice + Send>> = served
        .iter()
        .map(|s| {
            let port = SerialTransport::open(&s.path, 3_000_000).unwrap();
            Box::new(LinkedDevice::connect("board", port, Duration::from_secs(60)).unwrap())
                as Box<dyn TourDevice + Send>
        })
        .collect();
    let unplugged = &served[1].running;
    let spec = SearchSpec { prune: true, ..spec("6", "a1", false) };
    let whole = whole_board::count_every_start(
        devices,
        spec,
        &|tally| {
            if tally.jobs_done >= 1 {
                unplugged.store(false, Ordering::Relaxed);
            }
            Flow::Continue
        },
        None,
    )
    .unwrap();
    assert_eq!((whole.tour_count(), whole.classes.len(), whole.status), (6_637_920, 6, Status::Exhausted));
    let cpu = whole_board::count_every_start(vec![Box::new(CpuDevice::all_cores())], spec, &|_| Flow::Continue, None)
        .unwrap();
    assert_eq!(whole.nodes(), cpu.nodes());
    assert_eq!(whole.failures.len(), 1, "{:?}", whole.failures);
    assert_eq!(whole.failures[0].device, 1);
    // Every class was counted by one of the three boards, and the unplugged
    // one (board 1) counted at most the job it finished before it went:
    // the job it held then was counted by another.
    assert!(whole.classes.iter().all(|c| c.result.device_number < 3), "{:?}", whole.classes);
    let by_unplugged = whole.classes.iter().filter(|c| c.result.device_number == 1).count();
    assert!(by_unplugged <= 1, "{:?}", whole.classes);
}

/// Three boards count every 6×6 tour with a journal; one is unplugged once
/// a job is done, and the count is stopped (as by Ctrl-C) once two more
/// are. Run again on three boards, the unplugged one restarted, the count
/// goes on from the journal: the one-run total and nodes, every job once.
#[test]
fn a_count_with_a_board_restarted_mid_count_goes_on_from_its_journal() {
    let journal = std::env::temp_dir().join(format!("knights-pty-journal-{}.jsonl", std::process::id()));
    let _ = std::fs::remove_file(&journal);
    let boards = |served: &[Served]| -> Vec<Box<dyn TourDevice + Send>> {
        served
            .iter()
            .map(|s| {
                let port = SerialTransport::open(&s.path, 3_000_000).unwrap();
                Box::new(LinkedDevice::connect("board", port, Duration::from_secs(60)).unwrap())
                    as Box<dyn TourDevice + Send>
            })
            .collect()
    };
    let spec = SearchSpec { prune: true, ..spec("6", "a1", false) };
    let served: Vec<Served> = (0..3).map(|_| Served::start()).collect();
    let unplugged = &served[1].running;
    let first = whole_board::count_every_start(
        boards(&served),
        spec,
        &|tally| {
            if tally.jobs_done >= 1 {
                unplugged.store(false, Ordering::Relaxed);
            }
            if tally.jobs_done >= 3 {
                Flow::Stop
            } else {
                Flow::Continue
            }
        },
        Some(&journal),
    )
    .unwrap();
    drop(served);
    assert_eq!(first.status, Status::Aborted);
    let kept = first.classes.len();
    assert!((3..6).contains(&kept), "{kept} classes kept");

    let restarted: Vec<Served> = (0..3).map(|_| Served::start()).collect();
    let whole = whole_board::count_every_start(boards(&restarted), spec, &|_| Flow::Continue, Some(&journal)).unwrap();
    let cpu = whole_board::count_every_start(vec![Box::new(CpuDevice::all_cores())], spec, &|_| Flow::Continue, None)
        .unwrap();
    assert_eq!((whole.tour_count(), whole.nodes(), whole.status), (6_637_920, cpu.nodes(), Status::Exhausted));
    assert_eq!(whole.resumed_jobs, kept);
    // The journal: a header and a result for each of the six classes, once.
    let text = std::fs::read_to_string(&journal).unwrap();
    let mut ids: Vec<u64> = text
        .lines()
        .skip(1)
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap()["id"].as_u64().unwrap())
        .collect();
    ids.sort();
    assert_eq!(ids, [0, 1, 2, 3, 4, 5]);
}
