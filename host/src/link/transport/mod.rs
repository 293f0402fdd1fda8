//! Byte pipes to a device: a serial port, or (feature `sim`) the simulated
//! board in this process. The link layer above sees only [`Transport`].

use std::io;
use std::time::Duration;

pub mod reported;
#[cfg(test)]
pub(crate) mod scripted;
mod serial;
#[cfg(feature = "sim")]
mod sim;

pub use serial::{boards_uarts, choose_port, PortRole, SerialTransport, UsbSerial};
#[cfg(all(feature = "sim", unix))]
pub use sim::serve_simulated_board;
#[cfg(feature = "sim")]
pub use sim::SimTransport;

/// A duplex byte stream to a device.
pub trait Transport {
    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()>;
    /// Waits up to `timeout` for bytes; `Ok(0)` when none came.
    fn read(&mut self, buffer: &mut [u8], timeout: Duration) -> io::Result<usize>;
    /// What this is connected to, for messages.
    fn describe(&self) -> String;
}
