//! USB serial ports as each operating system reports them, made alike, so
//! one rule tells a board's UART from its other interfaces everywhere.
//!
//! What `serialport` reads differs by system:
//! - Linux (sysfs) and macOS with Apple's FTDI driver give the USB
//!   interface's number, product string and serial number. macOS lists each
//!   port twice, as `/dev/cu.*` and `/dev/tty.*` (the `tty` node waits for
//!   carrier detect on open): only the `cu` node is kept.
//! - macOS with FTDI's own VCP driver gives no interface: an FT2232H's
//!   ports are `/dev/cu.usbserial-<serial>A` and `…B`.
//! - Windows with FTDI's driver (FTDIBUS) gives no interface either: the
//!   channel's letter ends the serial number (`ibxXrY9NB`), and the product
//!   is the port's display name, "USB Serial Port (COM4)", not the USB
//!   product string. With a composite-device driver the instance id's
//!   `MI_01` gives the interface.
//!
//! docs/builds.md lists the sources.

use super::UsbSerial;

/// FTDI's vendor id: the only bridges whose channel the names and serial
/// numbers carry.
const FTDI: u16 = 0x0403;

/// FTDI's bridges of several channels: FT2232 (C/D/H) and FT4232H.
const MULTI_CHANNEL: [u16; 2] = [0x6010, 0x6011];

/// `ports` as one system reported them, made alike: the interface filled in
/// where the name or serial number says it, a display name that is not the
/// product string dropped, a port listed twice kept once.
pub fn alike(ports: Vec<UsbSerial>) -> Vec<UsbSerial> {
    let paths: Vec<String> = ports.iter().map(|p| p.path.clone()).collect();
    ports
        .into_iter()
        .filter(|port| match port.path.strip_prefix("/dev/tty.") {
            Some(name) => !paths.contains(&format!("/dev/cu.{name}")),
            None => true,
        })
        .map(|mut port| {
            if port.product.as_deref().is_some_and(|product| product.ends_with(&format!("({})", port.path))) {
                port.product = None;
            }
            if port.interface.is_none() && port.vendor_id == FTDI {
                port.interface = ftdi_channel(&port);
            }
            port
        })
        .collect()
}

/// An FTDI port's channel (A is interface 0) where the system names it: the
/// last letter of a Windows serial number (FTDIBUS adds it on every FTDI
/// bridge), of a macOS VCP port's name (only a bridge of several channels
/// has it).
fn ftdi_channel(port: &UsbSerial) -> Option<u8> {
    let letter = if is_windows_port(&port.path) {
        port.serial_number.as_deref()?.chars().last()?
    } else if MULTI_CHANNEL.contains(&port.product_id) {
        port.path.strip_prefix("/dev/cu.usbserial-")?.chars().last()?
    } else {
        return None;
    };
    match letter {
        'A'..='D' => Some(letter as u8 - b'A'),
        _ => None,
    }
}

/// A Windows port's name: `COM` and its number.
fn is_windows_port(path: &str) -> bool {
    path.strip_prefix("COM").is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An FT2232H's port.
    fn port(path: &str, interface: Option<u8>, product: &str, serial: &str) -> UsbSerial {
        UsbSerial::ftdi_reported(path, (FTDI, 0x6010), interface, product, serial)
    }

    #[test]
    fn windows_channel_letters_give_the_interface_and_display_names_are_no_product() {
        let [a, b] = [("COM3", "ibxXrY9NA"), ("COM4", "ibxXrY9NB")]
            .map(|(path, serial)| port(path, None, &format!("USB Serial Port ({path})"), serial));
        let ports = alike(vec![a, b]);
        assert_eq!(ports.iter().map(|p| p.interface).collect::<Vec<_>>(), [Some(0), Some(1)]);
        assert!(ports.iter().all(|p| p.product.is_none()), "{ports:?}");
        // A product string that is not the port's display name stays.
        let named = alike(vec![port("COM4", Some(1), "iCEBreaker V1.0e", "ibxXrY9N")]);
        assert_eq!(named[0].product.as_deref(), Some("iCEBreaker V1.0e"));
        // A serial number ending in no channel letter says nothing.
        assert_eq!(alike(vec![port("COM4", None, "USB Serial Port (COM4)", "12345")])[0].interface, None);
    }

    #[test]
    fn macos_keeps_the_cu_node_and_reads_a_vcp_port_s_channel_from_its_name() {
        let apple = alike(vec![
            port("/dev/cu.usbserial-ibxXrY9N1", Some(1), "iCEBreaker V1.1a", "ibxXrY9N"),
            port("/dev/tty.usbserial-ibxXrY9N1", Some(1), "iCEBreaker V1.1a", "ibxXrY9N"),
        ]);
        assert_eq!(apple.iter().map(|p| p.path.as_str()).collect::<Vec<_>>(), ["/dev/cu.usbserial-ibxXrY9N1"]);
        let vcp = alike(vec![
            port("/dev/cu.usbserial-ib3P7AOGA", None, "iCEBreaker V1.0d", "ib3P7AOG"),
            port("/dev/cu.usbserial-ib3P7AOGB", None, "iCEBreaker V1.0d", "ib3P7AOG"),
        ]);
        assert_eq!(vcp.iter().map(|p| p.interface).collect::<Vec<_>>(), [Some(0), Some(1)]);
        // Linux's names carry no channel, nor a bridge of one channel's.
        assert_eq!(alike(vec![port("/dev/ttyUSB1", None, "iCEBreaker", "ib3P7AOG")])[0].interface, None);
        let ft231x = UsbSerial { product_id: 0x6015, ..port("/dev/cu.usbserial-DB00C1AB", None, "FT231X", "DB00C1AB") };
        assert_eq!(alike(vec![ft231x])[0].interface, None);
    }
}
