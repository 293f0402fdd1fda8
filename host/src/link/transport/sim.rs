//! The simulated board (feature `sim`): in this process, or served on a
//! pseudo-terminal so that the serial-port code reaches it.

use std::io;
#[cfg(unix)]
use std::io::{Read, Write};
use std::time::Duration;

use knights_sim::SimulatedBoard;

use super::Transport;
#[cfg(unix)]
use crate::device::error::{DeviceError, PortError};

/// The simulated board (the accelerator's Verilog under Verilator) in this
/// process. Timeouts are in the board's time: clocks at its modelled clock
/// rate, so a slow host never makes a search look stalled.
pub struct SimTransport {
    board: SimulatedBoard,
    /// What errors call the device, when not the simulated board.
    name: Option<String>,
}

impl SimTransport {
    /// Clocks run per slice while waiting for bytes.
    const SLICE: u64 = 1 << 16;

    /// The default simulated board.
    pub fn new() -> Self {
        Self::on(SimulatedBoard::new())
    }

    /// Another simulated board (a board's build: see `crate::fpga::board_sim`).
    pub fn on(board: SimulatedBoard) -> Self {
        SimTransport { board, name: None }
    }

    /// The same, called `name` in what it reports (e.g. a build's netlist).
    pub fn named(board: SimulatedBoard, name: String) -> Self {
        SimTransport { board, name: Some(name) }
    }

    /// The board underneath, for tests that drive the line directly.
    pub fn board(&mut self) -> &mut SimulatedBoard {
        &mut self.board
    }
}

impl Default for SimTransport {
    fn default() -> Self {
        Self::new()
    }
}

impl Transport for SimTransport {
    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.board.write(bytes);
        Ok(())
    }

    fn read(&mut self, buffer: &mut [u8], timeout: Duration) -> io::Result<usize> {
        let budget = (timeout.as_secs_f64() * self.board.design().clock_hz as f64) as u64;
        let mut out = Vec::with_capacity(buffer.len());
        let mut ran = 0;
        while ran < budget.max(1) && out.is_empty() {
            ran += self.board.run(Self::SLICE.min(budget.max(1) - ran), &mut out, buffer.len());
        }
        buffer[..out.len()].copy_from_slice(&out);
        Ok(out.len())
    }

    fn describe(&self) -> String {
        if let Some(name) = &self.name {
            return name.clone();
        }
        let b = self.board.design();
        format!(
            "the simulated board (Verilator, {}x{} build, {} engine{}, {} MHz)",
            b.max_width,
            b.max_height,
            b.engines,
            if b.engines == 1 { "" } else { "s" },
            b.clock_hz as f64 / 1e6
        )
    }
}

/// Serves `board` on a pseudo-terminal until `keep_going` says stop: what
/// the host writes to the terminal goes to the board's UART and back.
/// `on_ready` gets the terminal's path once it can be opened. With a
/// `line_baud`, the board talks at that rate as a real one does: while the
/// host's side of the terminal is set to another rate, every byte either
/// way arrives mangled, as a UART misreads a line at the wrong rate.
#[cfg(unix)]
pub fn serve_simulated_board(
    mut board: SimulatedBoard,
    line_baud: Option<u32>,
    on_ready: &mut dyn FnMut(&str),
    keep_going: &dyn Fn() -> bool,
) -> Result<(), DeviceError> {
    use serialport::{SerialPort, TTYPort};

    let (mut master, slave) = TTYPort::pair().map_err(|e| pty_failed("create")(io::Error::from(e)))?;
    let path = slave.name().ok_or_else(|| pty_failed("name")(io::Error::other("it has no name")))?;
    // `slave` stays open so the terminal lives while clients come and go.
    on_ready(&path);
    let mut input = [0u8; 4096];
    let mut output = Vec::new();
    // After the last input the board runs on for 20 ms of its own time, past
    // its 10 ms frame timeout: a frame a client left half-sent must be timed
    // out by the device before the next client comes, however slowly the
    // host runs the board.
    let settle = board.design().clock_hz / 50;
    let mut since_input = settle;
    while keep_going() {
        let running = !board.is_quiet() || since_input < settle;
        // Block on the terminal only while the board has nothing to do.
        let wait = if running { Duration::ZERO } else { Duration::from_millis(20) };
        master.set_timeout(wait).map_err(|e| pty_failed("set the timeout of")(io::Error::from(e)))?;
        match master.read(&mut input) {
            Ok(n) if n > 0 => {
                if !at_line_rate(&master, line_baud) {
                    input[..n].iter_mut().for_each(misread);
                }
                board.write(&input[..n]);
                since_input = 0;
            }
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::TimedOut || e.kind() == io::ErrorKind::WouldBlock => {}
            // No client has the terminal open right now.
            Err(e) if e.raw_os_error() == Some(5) => {
                if !running {
                    std::thread::sleep(Duration::from_millis(20));
                }
            }
            Err(e) => return Err(pty_failed("read")(e)),
        }
        if running {
            output.clear();
            // Short slices (a millisecond of board time): a command split
            // over two reads must not look truncated to the device.
            since_input = since_input.saturating_add(board.run(1 << 13, &mut output, 1 << 16));
            if !output.is_empty() {
                if !at_line_rate(&master, line_baud) {
                    output.iter_mut().for_each(misread);
                }
                master.write_all(&output).map_err(pty_failed("write to"))?;
            }
        }
    }
    Ok(())
}

/// Whether the host's side of the terminal is set to the board's rate (a
/// terminal that cannot say is taken to be).
#[cfg(unix)]
fn at_line_rate(master: &serialport::TTYPort, line_baud: Option<u32>) -> bool {
    use serialport::SerialPort;
    line_baud.is_none_or(|baud| master.baud_rate().map_or(true, |set| set == baud))
}

/// A byte as a UART at the wrong rate reads it: bits shifted and mixed, so
/// frames and CRCs break.
#[cfg(unix)]
fn misread(byte: &mut u8) {
    *byte = byte.rotate_left(3) ^ 0xA5;
}

/// The error for failing to `action` the pseudo-terminal.
#[cfg(unix)]
fn pty_failed(action: &'static str) -> impl Fn(io::Error) -> DeviceError {
    move |source| DeviceError::Port(PortError::PseudoTerminal { action, source })
}
