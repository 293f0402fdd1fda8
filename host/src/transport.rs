//! Byte pipes to a device: a serial port, or the simulated board in this
//! process. The link layer above sees only [`Transport`].

use std::io::{self, Read, Write};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use knights_sim::SimulatedBoard;
use serialport::{SerialPort, SerialPortType};

/// A duplex byte stream to a device.
pub trait Transport {
    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()>;
    /// Waits up to `timeout` for bytes; `Ok(0)` when none came.
    fn read(&mut self, buffer: &mut [u8], timeout: Duration) -> io::Result<usize>;
    /// What this is connected to, for messages.
    fn describe(&self) -> String;
}

/// A serial port (a board's USB-UART bridge, or a pseudo-terminal).
pub struct SerialTransport {
    port: Box<dyn SerialPort>,
    path: String,
    baud: u32,
}

impl SerialTransport {
    pub fn open(path: &str, baud: u32) -> Result<Self> {
        let port = serialport::new(path, baud).timeout(Duration::from_millis(100)).open().map_err(|e| {
            let fix = match e.kind() {
                serialport::ErrorKind::NoDevice => {
                    "check the cable and the name (knights lists candidates with --device board)"
                }
                serialport::ErrorKind::Io(io::ErrorKind::NotFound) => "no such port: check the name and the cable",
                serialport::ErrorKind::Io(io::ErrorKind::PermissionDenied) => {
                    "permission denied: add yourself to the dialout group (or uucp) and log in again"
                }
                _ => "is another program using the port?",
            };
            anyhow!("cannot open serial port {path}: {e}; {fix}")
        })?;
        Ok(SerialTransport { port, path: path.to_string(), baud })
    }

    /// The one USB serial port attached, when there is exactly one.
    pub fn detect() -> Result<String> {
        let ports = serialport::available_ports().context("cannot list serial ports")?;
        choose_port(
            ports
                .into_iter()
                .filter(|p| matches!(p.port_type, SerialPortType::UsbPort(_)))
                .map(|p| p.port_name)
                .collect(),
        )
    }
}

/// The board's port among the USB serial ports present: the only one.
pub fn choose_port(candidates: Vec<String>) -> Result<String> {
    match candidates.as_slice() {
        [one] => Ok(one.clone()),
        [] => bail!("no USB serial port found: connect the board, or name its port with --port"),
        many => bail!("several USB serial ports found ({}): choose one with --port", many.join(", ")),
    }
}

impl Transport for SerialTransport {
    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.port.write_all(bytes)?;
        self.port.flush()
    }

    fn read(&mut self, buffer: &mut [u8], timeout: Duration) -> io::Result<usize> {
        self.port.set_timeout(timeout.max(Duration::from_millis(1))).map_err(io::Error::other)?;
        match self.port.read(buffer) {
            Ok(n) => Ok(n),
            Err(e) if e.kind() == io::ErrorKind::TimedOut || e.kind() == io::ErrorKind::WouldBlock => Ok(0),
            Err(e) => Err(e),
        }
    }

    fn describe(&self) -> String {
        format!("{} at {} baud", self.path, self.baud)
    }
}

/// The simulated board (the accelerator's Verilog under Verilator) in this
/// process. Timeouts are in the board's time: clocks at its modelled clock
/// rate, so a slow host never makes a search look stalled.
pub struct SimTransport {
    board: SimulatedBoard,
}

impl SimTransport {
    /// Clocks run per slice while waiting for bytes.
    const SLICE: u64 = 1 << 16;

    pub fn new() -> Self {
        SimTransport { board: SimulatedBoard::new() }
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
        let budget = (timeout.as_secs_f64() * knights_sim::BUILD.clock_hz as f64) as u64;
        let mut out = Vec::with_capacity(buffer.len());
        let mut ran = 0;
        while ran < budget.max(1) && out.is_empty() {
            ran += self.board.run(Self::SLICE.min(budget.max(1) - ran), &mut out, buffer.len());
        }
        buffer[..out.len()].copy_from_slice(&out);
        Ok(out.len())
    }

    fn describe(&self) -> String {
        let b = knights_sim::BUILD;
        format!(
            "the simulated board (Verilator, {}x{} build, {} MHz)",
            b.max_width,
            b.max_height,
            b.clock_hz / 1_000_000
        )
    }
}

/// Serves a simulated board on a pseudo-terminal until `keep_going` says
/// stop: what the host writes to the terminal goes to the board's UART and
/// back. `on_ready` gets the terminal's path once it can be opened.
#[cfg(unix)]
pub fn serve_simulated_board(on_ready: &mut dyn FnMut(&str), keep_going: &dyn Fn() -> bool) -> Result<()> {
    use serialport::TTYPort;

    let (mut master, slave) = TTYPort::pair().context("cannot create a pseudo-terminal")?;
    let path = slave.name().context("the pseudo-terminal has no name")?;
    // `slave` stays open so the terminal lives while clients come and go.
    on_ready(&path);
    let mut board = SimulatedBoard::new();
    let mut input = [0u8; 4096];
    let mut output = Vec::new();
    let mut last_activity = Instant::now();
    while keep_going() {
        // Block on the terminal only while the board has nothing to do.
        let wait = if board.is_quiet() { Duration::from_millis(20) } else { Duration::ZERO };
        master.set_timeout(wait)?;
        match master.read(&mut input) {
            Ok(n) if n > 0 => {
                board.write(&input[..n]);
                last_activity = Instant::now();
            }
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::TimedOut || e.kind() == io::ErrorKind::WouldBlock => {}
            // No client has the terminal open right now.
            Err(e) if e.raw_os_error() == Some(5) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(e).context("reading the pseudo-terminal"),
        }
        // Run on for a while after the last input: a partial frame must
        // reach the device's frame timeout to be answered.
        if !board.is_quiet() || last_activity.elapsed() < Duration::from_millis(200) {
            output.clear();
            // Short slices (a millisecond of board time): a command split
            // over two reads must not look truncated to the device.
            board.run(1 << 13, &mut output, 1 << 16);
            if !output.is_empty() {
                master.write_all(&output)?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::choose_port;

    #[test]
    fn a_port_is_chosen_only_when_there_is_exactly_one() {
        assert_eq!(choose_port(vec!["/dev/ttyUSB1".into()]).unwrap(), "/dev/ttyUSB1");
        let none = choose_port(vec![]).unwrap_err().to_string();
        assert!(none.contains("no USB serial port") && none.contains("--port"), "{none}");
        let many = choose_port(vec!["/dev/ttyUSB0".into(), "/dev/ttyUSB1".into()]).unwrap_err().to_string();
        assert!(many.contains("/dev/ttyUSB0, /dev/ttyUSB1") && many.contains("--port"), "{many}");
    }
}
