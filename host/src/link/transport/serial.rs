//! A board's serial port: opening it, and finding it when there is one.

use std::io::{self, Read, Write};
use std::time::Duration;

use serialport::{SerialPort, SerialPortType};

use super::Transport;
use crate::device::error::{DeviceError, PortError};

/// A serial port (a board's USB-UART bridge, or a pseudo-terminal).
pub struct SerialTransport {
    port: Box<dyn SerialPort>,
    path: String,
    baud: u32,
}

impl SerialTransport {
    pub fn open(path: &str, baud: u32) -> Result<Self, DeviceError> {
        let port = serialport::new(path, baud)
            .timeout(Duration::from_millis(100))
            .open()
            .map_err(|source| DeviceError::Port(PortError::OpenPort { path: path.to_string(), source }))?;
        Ok(SerialTransport { port, path: path.to_string(), baud })
    }

    /// The one USB serial port attached, when there is exactly one.
    pub fn detect() -> Result<String, DeviceError> {
        choose_port(Self::usb_ports()?)
    }

    /// Every USB serial port present (for `--all-ports`); at least one.
    pub fn detect_all() -> Result<Vec<String>, DeviceError> {
        let ports = Self::usb_ports()?;
        if ports.is_empty() {
            return Err(DeviceError::Port(PortError::NoPort));
        }
        Ok(ports)
    }

    fn usb_ports() -> Result<Vec<String>, DeviceError> {
        let ports = serialport::available_ports().map_err(PortError::ListPorts)?;
        Ok(ports
            .into_iter()
            .filter(|p| matches!(p.port_type, SerialPortType::UsbPort(_)))
            .map(|p| p.port_name)
            .collect())
    }
}

/// The board's port among the USB serial ports present: the only one.
pub fn choose_port(mut candidates: Vec<String>) -> Result<String, DeviceError> {
    match candidates.len() {
        1 => Ok(candidates.remove(0)),
        0 => Err(DeviceError::Port(PortError::NoPort)),
        _ => Err(DeviceError::Port(PortError::SeveralPorts(candidates))),
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

#[cfg(test)]
mod tests {
    use super::choose_port;
    use crate::device::error::{DeviceError, PortError};

    #[test]
    fn a_port_is_chosen_only_when_there_is_exactly_one() {
        assert_eq!(choose_port(vec!["/dev/ttyUSB1".into()]).unwrap(), "/dev/ttyUSB1");
        assert!(matches!(choose_port(vec![]), Err(DeviceError::Port(PortError::NoPort))));
        let many = choose_port(vec!["/dev/ttyUSB0".into(), "/dev/ttyUSB1".into()]).unwrap_err();
        assert!(matches!(&many, DeviceError::Port(PortError::SeveralPorts(ports)) if ports.len() == 2), "{many}");
        assert!(many.to_string().contains("/dev/ttyUSB0, /dev/ttyUSB1"), "{many}");
    }
}
