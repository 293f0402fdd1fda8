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

    /// Changes the port's rate in place (reopening would toggle DTR and
    /// RTS on some systems).
    pub fn set_baud(&mut self, baud: u32) -> Result<(), DeviceError> {
        self.port
            .set_baud_rate(baud)
            .map_err(|source| DeviceError::Port(PortError::OpenPort { path: self.path.clone(), source }))?;
        self.baud = baud;
        Ok(())
    }

    /// The USB serial ports present, with their USB identities (made alike
    /// across systems: [`super::reported`]).
    pub fn usb_ports() -> Result<Vec<UsbSerial>, DeviceError> {
        let ports = serialport::available_ports().map_err(PortError::ListPorts)?;
        Ok(super::reported::alike(
            ports
                .into_iter()
                .filter_map(|p| match p.port_type {
                    SerialPortType::UsbPort(usb) => Some(UsbSerial {
                        path: p.port_name,
                        vendor_id: usb.vid,
                        product_id: usb.pid,
                        interface: usb.interface,
                        manufacturer: usb.manufacturer,
                        product: usb.product,
                        serial_number: usb.serial_number,
                    }),
                    _ => None,
                })
                .collect(),
        ))
    }
}

/// A USB serial port and the USB identity its operating system reports.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct UsbSerial {
    pub path: String,
    pub vendor_id: u16,
    pub product_id: u16,
    /// The USB interface the port is (an FT2232H's A is 0, B is 1), where
    /// the system says.
    pub interface: Option<u8>,
    pub manufacturer: Option<String>,
    pub product: Option<String>,
    pub serial_number: Option<String>,
}

impl UsbSerial {
    /// `/dev/ttyUSB1 (0403:6010 interface 1, "iCEBreaker V1.0e")`.
    pub fn describe(&self) -> String {
        let interface = self.interface.map(|i| format!(" interface {i}")).unwrap_or_default();
        let product = self.product.as_ref().map(|p| format!(", \"{p}\"")).unwrap_or_default();
        format!("{} ({:04x}:{:04x}{interface}{product})", self.path, self.vendor_id, self.product_id)
    }

    /// An FTDI bridge's port as macOS or Windows report it, for tests: a
    /// serial number, the interface only where the driver says.
    #[cfg(test)]
    pub(crate) fn ftdi_reported(
        path: &str,
        ids: (u16, u16),
        interface: Option<u8>,
        product: &str,
        serial: &str,
    ) -> Self {
        UsbSerial {
            path: path.into(),
            vendor_id: ids.0,
            product_id: ids.1,
            interface,
            manufacturer: Some("FTDI".into()),
            product: Some(product.into()),
            serial_number: Some(serial.into()),
        }
    }
}

/// What a USB serial port is, by its identity (the boards' bridges are
/// known to the FPGA flow's board files).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PortRole {
    /// A known board's UART: the board's name.
    Uart(String),
    /// A known board's other interface (a flash's SPI, say): what it is.
    NotUart(String),
    /// No known board's: an adapter, or a board of its own.
    Unknown,
}

/// The board's port among the USB serial ports present: the one known
/// board's UART; with none, the one port of no known board (an adapter,
/// as the OrangeCrab's UART needs). Several of either are an error listing
/// them; a known board's other interface is never taken.
pub fn choose_port(ports: &[UsbSerial], role: &dyn Fn(&UsbSerial) -> PortRole) -> Result<String, DeviceError> {
    let of = |wanted: fn(&PortRole) -> bool| -> Vec<(&UsbSerial, PortRole)> {
        ports.iter().map(|p| (p, role(p))).filter(|(_, r)| wanted(r)).collect()
    };
    let named = |found: &[(&UsbSerial, PortRole)]| -> Vec<String> {
        found
            .iter()
            .map(|(port, role)| match role {
                PortRole::Uart(board) => format!("{} ({board}'s UART)", port.path),
                _ => port.describe(),
            })
            .collect()
    };
    let uarts = of(|r| matches!(r, PortRole::Uart(_)));
    match uarts.len() {
        1 => return Ok(uarts[0].0.path.clone()),
        0 => {}
        _ => return Err(DeviceError::Port(PortError::SeveralPorts(named(&uarts)))),
    }
    let unknown = of(|r| *r == PortRole::Unknown);
    match unknown.len() {
        1 => Ok(unknown[0].0.path.clone()),
        0 => Err(DeviceError::Port(PortError::NoPort)),
        _ => Err(DeviceError::Port(PortError::SeveralPorts(named(&unknown)))),
    }
}

/// The ports `--all-ports` takes: every known board's UART (ports of no
/// known board are taken only when named with `--port`).
pub fn boards_uarts(ports: &[UsbSerial], role: &dyn Fn(&UsbSerial) -> PortRole) -> Result<Vec<String>, DeviceError> {
    let uarts: Vec<String> =
        ports.iter().filter(|p| matches!(role(p), PortRole::Uart(_))).map(|p| p.path.clone()).collect();
    if uarts.is_empty() {
        return Err(DeviceError::Port(PortError::NoBoardPort(ports.iter().map(UsbSerial::describe).collect())));
    }
    Ok(uarts)
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
    use super::*;

    fn port(path: &str, vid: u16, pid: u16, interface: u8) -> UsbSerial {
        UsbSerial {
            path: path.into(),
            vendor_id: vid,
            product_id: pid,
            interface: Some(interface),
            ..Default::default()
        }
    }

    /// FT2232H interface 1 is a board's UART, interface 0 its flash; an
    /// FT231X is another board's UART; everything else is unknown.
    fn role(port: &UsbSerial) -> PortRole {
        match (port.vendor_id, port.product_id, port.interface) {
            (0x0403, 0x6010, Some(1)) => PortRole::Uart("iCEBreaker".into()),
            (0x0403, 0x6010, _) => PortRole::NotUart("the iCEBreaker's flash".into()),
            (0x0403, 0x6015, _) => PortRole::Uart("ULX3S".into()),
            _ => PortRole::Unknown,
        }
    }

    #[test]
    fn the_one_board_s_uart_is_chosen_else_the_one_unknown_adapter() {
        let flash = port("/dev/ttyUSB0", 0x0403, 0x6010, 0);
        let uart = port("/dev/ttyUSB1", 0x0403, 0x6010, 1);
        let adapter = port("/dev/ttyUSB2", 0x1a86, 0x7523, 0);
        assert_eq!(choose_port(&[flash.clone(), uart.clone()], &role).unwrap(), "/dev/ttyUSB1");
        assert_eq!(choose_port(&[flash.clone(), uart.clone(), adapter.clone()], &role).unwrap(), "/dev/ttyUSB1");
        assert_eq!(choose_port(std::slice::from_ref(&adapter), &role).unwrap(), "/dev/ttyUSB2");
        // A flash interface alone is no board's UART.
        assert!(matches!(choose_port(std::slice::from_ref(&flash), &role), Err(DeviceError::Port(PortError::NoPort))));
        let ulx3s = port("/dev/ttyUSB3", 0x0403, 0x6015, 0);
        let many = choose_port(&[uart.clone(), ulx3s.clone()], &role).unwrap_err();
        assert!(many.to_string().contains("/dev/ttyUSB1 (iCEBreaker's UART), /dev/ttyUSB3 (ULX3S's UART)"), "{many}");
        let other = port("/dev/ttyACM0", 0x2e8a, 0x000a, 0);
        let many = choose_port(&[adapter.clone(), other], &role).unwrap_err();
        assert!(many.to_string().contains("/dev/ttyUSB2 (1a86:7523 interface 0)"), "{many}");
        assert_eq!(
            boards_uarts(&[flash.clone(), uart, adapter.clone(), ulx3s], &role).unwrap(),
            ["/dev/ttyUSB1", "/dev/ttyUSB3"]
        );
        let none = boards_uarts(&[flash, adapter], &role).unwrap_err();
        assert!(none.to_string().contains("1a86:7523"), "{none}");
    }
}
