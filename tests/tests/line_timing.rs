//! The UART's tolerance of a host whose bit rate is off the build's, as a
//! real USB bridge's is: its divisor gives its own rate (115,101 baud for
//! 115,200 at 62.5 MHz on the 85F), and the bridge has its own. A build
//! with 50 clocks a bit lets the host's side run 2% or 8% off.
//!
//! Within ±2% every command is answered: IDENTIFY, a count and a first-K
//! stream, each as the reference's. Well outside (±8%), the host gives up
//! with an error that names the baud rate, without hanging.

use std::time::{Duration, Instant};

use knights::device::CpuDevice;
use knights::fpga::board_sim;
use knights::fpga::{Design, EngineKind, Features};
use knights::link::transport::SimTransport;
use knights::link::LinkedDevice;
use knights::tours::query::{self, Query};
use knights_model::tours::{MoveOrder, SearchSpec};
use knights_model::{Flow, Goal};
use knights_sim::SimulatedBoard;

/// Clocks a bit in the build: 5 MHz at 100,000 baud.
const CLOCKS_PER_BIT: u32 = 50;

fn design() -> Design {
    Design {
        kind: EngineKind::Wide,
        max_width: 5,
        max_height: 5,
        engines: 1,
        features: Features { warnsdorff: true, constellations: false },
        clock_hz: 5_000_000,
        baud: 100_000,
        visited_in_block_ram: false,
    }
}

/// The build, its host side of the line `host_clocks_per_bit` long a bit.
fn connect(host_clocks_per_bit: u32) -> Result<LinkedDevice<SimTransport>, knights::device::error::DeviceError> {
    let model = board_sim::at_its_baud("line-timing", &design(), &mut |line| eprintln!("{line}")).unwrap();
    assert_eq!(model.design().clocks_per_bit(), u64::from(CLOCKS_PER_BIT));
    let transport = SimTransport::on(SimulatedBoard::with_host_bit(model, host_clocks_per_bit));
    LinkedDevice::connect("sim", transport, Duration::from_secs(2))
}

fn search(goal: Goal) -> Query {
    let spec = SearchSpec {
        board: "5".parse().unwrap(),
        start: "a1".parse().unwrap(),
        closed: false,
        order: MoveOrder::Fixed,
        prune: true,
    };
    Query { spec, goal }
}

#[test]
fn within_two_percent_every_command_is_answered() {
    let mut cpu = CpuDevice { threads: 1 };
    let count = query::run(&mut cpu, search(Goal::CountAll), &mut |_, _| Flow::Continue).unwrap();
    let first = query::run(&mut cpu, search(Goal::First(3)), &mut |_, _| Flow::Continue).unwrap();
    // 49 and 51 clocks a bit against the build's 50: the bridge 2% fast or slow.
    for host in [CLOCKS_PER_BIT - 1, CLOCKS_PER_BIT, CLOCKS_PER_BIT + 1] {
        let mut device = connect(host).unwrap_or_else(|e| panic!("{host} clocks a bit: {e}"));
        let seen = query::run(&mut device, search(Goal::CountAll), &mut |_, _| Flow::Continue).unwrap();
        assert_eq!((seen.tour_count, seen.nodes), (count.tour_count, count.nodes), "{host} clocks a bit");
        let seen = query::run(&mut device, search(Goal::First(3)), &mut |_, _| Flow::Continue).unwrap();
        assert_eq!(seen.tours, first.tours, "{host} clocks a bit");
    }
}

#[test]
fn eight_percent_off_is_an_error_that_names_the_baud_rate() {
    for host in [CLOCKS_PER_BIT - 4, CLOCKS_PER_BIT + 4] {
        let started = Instant::now();
        let error = connect(host).err().unwrap_or_else(|| panic!("{host} clocks a bit: the link worked"));
        let message = error.to_string();
        assert!(message.contains("baud rate"), "{host} clocks a bit: {message}");
        assert!(started.elapsed() < Duration::from_secs(30), "{host} clocks a bit: {:?}", started.elapsed());
    }
}
