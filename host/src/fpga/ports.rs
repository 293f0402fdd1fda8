//! Which board a USB serial port is, by the USB identity of the boards'
//! bridges (their board files' `[usb]`): the port `--device board` takes
//! without `--port`, those `--all-ports` takes, and `knights ports`'s list.
//!
//! The iCEBreaker and the Alchitry Cu have an FT2232H: two serial ports,
//! interface A the flash's SPI (iceprog detaches it while it runs) and B
//! the UART. Only B is a board's UART here. A port of no known board (a
//! USB-serial adapter, as the OrangeCrab's UART needs) is taken only when it
//! is the one port present, or named with `--port`.

use crate::link::rates;
use crate::link::transport::{PortRole, UsbSerial};

use super::boards::{self, UsbBridge};

/// Every board's bridge, once each.
pub fn bridges() -> Vec<UsbBridge> {
    let mut bridges: Vec<UsbBridge> = Vec::new();
    for bridge in boards::all().into_iter().filter_map(|board| board.part.usb) {
        if !bridges.contains(&bridge) {
            bridges.push(bridge);
        }
    }
    bridges
}

/// What `port` is among `bridges`: a board's UART, a board's other
/// interface, or no known board's. A port whose system does not say its
/// interface is a bridge's UART only where the bridge has no other; one
/// without a product string matches on its ids alone.
pub fn role_among(bridges: &[UsbBridge], port: &UsbSerial) -> PortRole {
    let product_matches = |bridge: &UsbBridge| match &port.product {
        Some(product) => bridge.products.is_empty() || bridge.products.iter().any(|p| product.starts_with(p)),
        None => true,
    };
    let mut uart_of = Vec::new();
    let mut other = None;
    for bridge in bridges {
        if (bridge.vendor_id, bridge.product_id) != (port.vendor_id, port.product_id) || !product_matches(bridge) {
            continue;
        }
        match port.interface {
            Some(interface) if interface != bridge.uart_interface => {
                let what = bridge.other_interfaces.as_deref().unwrap_or("another interface");
                other.get_or_insert_with(|| format!("the {}'s {what}, not its UART", bridge.name));
            }
            None if bridge.other_interfaces.is_some() => {
                other.get_or_insert_with(|| {
                    format!(
                        "the {}'s UART or its other interface (the system does not say which): name it with --port",
                        bridge.name
                    )
                });
            }
            _ => uart_of.push(bridge.name.clone()),
        }
    }
    match (uart_of.is_empty(), other) {
        (false, _) => PortRole::Uart(uart_of.join(" or ")),
        (true, Some(what)) => PortRole::NotUart(what),
        (true, None) => PortRole::Unknown,
    }
}

/// What `port` is among the boards' bridges.
pub fn role(port: &UsbSerial) -> PortRole {
    role_among(&bridges(), port)
}

/// The rates to try on a port of `role`, in order: the rates of its board's
/// builds (the board file's order), then the others its bridge makes; for a
/// port of no known board, the rates of every board's builds, then the rest.
pub fn rates_to_try(role: &PortRole) -> Vec<u32> {
    let boards = boards::all();
    let of_the_board: Vec<&boards::Board> = match role {
        PortRole::Uart(name) => {
            boards.iter().filter(|b| b.part.usb.as_ref().is_some_and(|usb| name.contains(&usb.name))).collect()
        }
        _ => Vec::new(),
    };
    let (builds, bridge_max) = match of_the_board.first().map(|board| board.part.uart.max_baud) {
        Some(bridge_max) => (of_the_board, bridge_max),
        None => (boards.iter().collect(), rates::BRIDGE_RATES[0].into()),
    };
    let likely: Vec<u32> = builds.iter().map(|b| b.build.design.baud as u32).collect();
    rates::try_order(&likely, bridge_max)
}

/// A port's line in `knights ports`: its path, identity and role.
pub fn describe(port: &UsbSerial, role: &PortRole) -> String {
    let what = match role {
        PortRole::Uart(board) => format!("{board}: its UART"),
        PortRole::NotUart(what) => what.clone(),
        PortRole::Unknown => "no known board's (an adapter?): taken when it is the only port, or with --port".into(),
    };
    let mut line = format!("{}  {what}", port.describe());
    for (label, value) in [("manufacturer", &port.manufacturer), ("serial", &port.serial_number)] {
        if let Some(value) = value {
            line.push_str(&format!("; {label} \"{value}\""));
        }
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_board_s_port_is_tried_at_its_builds_rates_first_an_unknown_one_at_every_build_s() {
        let icebreaker = rates_to_try(&PortRole::Uart("1BitSquared iCEBreaker".into()));
        assert_eq!(icebreaker[..2], [1_500_000, 3_000_000], "{icebreaker:?}");
        assert!(icebreaker.contains(&12_000_000) && icebreaker.contains(&115_200));
        // The ULX3S's FT231X goes up to 3 Mbaud.
        let ulx3s = rates_to_try(&PortRole::Uart("Radiona ULX3S".into()));
        assert!(ulx3s.iter().all(|&b| b <= 3_000_000) && ulx3s[0] == 1_500_000, "{ulx3s:?}");
        let unknown = rates_to_try(&PortRole::Unknown);
        for board in boards::all() {
            assert!(unknown.contains(&(board.build.design.baud as u32)), "{}", board.name);
        }
        assert!(unknown.contains(&115_200), "{unknown:?}");
    }
    use crate::link::transport::{boards_uarts, choose_port};

    /// A port as Linux's sysfs reports it (what `serialport` reads).
    fn port(path: &str, ids: (u16, u16), interface: u8, manufacturer: &str, product: &str) -> UsbSerial {
        UsbSerial {
            path: path.into(),
            vendor_id: ids.0,
            product_id: ids.1,
            interface: Some(interface),
            manufacturer: Some(manufacturer.into()),
            product: Some(product.into()),
            serial_number: None,
        }
    }

    const FT2232H: (u16, u16) = (0x0403, 0x6010);
    const FT231X: (u16, u16) = (0x0403, 0x6015);

    /// Enumerations of real boards, as their published identities and
    /// Linux's device names have them (docs/builds.md cites the sources).
    #[test]
    fn each_board_s_uart_is_told_from_its_other_interfaces_and_from_adapters() {
        let icebreaker_a = port("/dev/ttyUSB0", FT2232H, 0, "1BitSquared", "iCEBreaker V1.0e");
        let icebreaker_b = port("/dev/ttyUSB1", FT2232H, 1, "1BitSquared", "iCEBreaker V1.0e");
        let cu_b = port("/dev/ttyUSB3", FT2232H, 1, "Alchitry", "Alchitry Cu");
        let ulx3s = port("/dev/ttyUSB0", FT231X, 0, "FER-RADIONA-EMARD", "ULX3S FPGA 85K v3.0.8");
        // An FT2232H with the factory strings (early iCEBreakers, or an
        // iCE40-HX8K breakout board).
        let plain_b = port("/dev/ttyUSB1", FT2232H, 1, "FTDI", "Dual RS232-HS");
        let adapter = port("/dev/ttyUSB2", (0x1a86, 0x7523), 0, "QinHeng", "USB Serial");
        let role = |p: &UsbSerial| role(p);
        assert_eq!(role(&icebreaker_b), PortRole::Uart("1BitSquared iCEBreaker".into()));
        assert_eq!(role(&cu_b), PortRole::Uart("Alchitry Cu".into()));
        assert_eq!(role(&ulx3s), PortRole::Uart("Radiona ULX3S".into()));
        assert!(matches!(role(&icebreaker_a), PortRole::NotUart(what) if what.contains("flash")));
        assert_eq!(role(&plain_b), PortRole::Uart("1BitSquared iCEBreaker".into()));
        assert_eq!(role(&adapter), PortRole::Unknown);

        // The iCEBreaker alone: interface B, whatever its number; after
        // iceprog detached interface A, B alone.
        assert_eq!(choose_port(&[icebreaker_a.clone(), icebreaker_b.clone()], &role).unwrap(), "/dev/ttyUSB1");
        let b_renumbered = UsbSerial { path: "/dev/ttyUSB0".into(), ..icebreaker_b.clone() };
        assert_eq!(choose_port(&[b_renumbered], &role).unwrap(), "/dev/ttyUSB0");
        // A board beside an adapter: the board. The adapter alone (an
        // OrangeCrab's UART): the adapter.
        assert_eq!(
            choose_port(&[adapter.clone(), icebreaker_a.clone(), icebreaker_b.clone()], &role).unwrap(),
            "/dev/ttyUSB1"
        );
        assert_eq!(choose_port(std::slice::from_ref(&adapter), &role).unwrap(), "/dev/ttyUSB2");
        // Two boards: an error naming both; --all-ports takes both UARTs
        // and no flash interface or adapter.
        let ulx3s = UsbSerial { path: "/dev/ttyUSB4".into(), ..ulx3s };
        let two = [icebreaker_a.clone(), icebreaker_b, ulx3s, adapter];
        let error = choose_port(&two, &role).unwrap_err().to_string();
        assert!(
            error.contains("/dev/ttyUSB1 (1BitSquared iCEBreaker's UART), /dev/ttyUSB4 (Radiona ULX3S's UART)"),
            "{error}"
        );
        assert_eq!(boards_uarts(&two, &role).unwrap(), ["/dev/ttyUSB1", "/dev/ttyUSB4"]);
        // The flash interface alone is no board to talk to.
        assert!(choose_port(&[icebreaker_a], &role).is_err());
    }

    /// The same boards as macOS (Apple's driver, FTDI's VCP driver) and
    /// Windows (FTDI's driver, a composite device's `MI_01`) report them.
    #[test]
    fn each_board_s_uart_is_found_as_macos_and_windows_report_it() {
        use crate::link::transport::reported::alike;
        let role = |p: &UsbSerial| role(p);
        let chosen = |ports: Vec<UsbSerial>| choose_port(&alike(ports), &role).unwrap();
        // macOS, Apple's driver: each interface twice (cu and tty), numbered.
        let apple: Vec<UsbSerial> = ["cu", "tty"]
            .into_iter()
            .flat_map(|node| {
                [0, 1].map(|i| {
                    let path = format!("/dev/{node}.usbserial-ibxXrY9N{i}");
                    UsbSerial::ftdi_reported(&path, FT2232H, Some(i), "iCEBreaker V1.1a", "ibxXrY9N")
                })
            })
            .collect();
        assert_eq!(chosen(apple), "/dev/cu.usbserial-ibxXrY9N1");
        // macOS, FTDI's VCP driver: no interface, the channel's letter.
        let vcp = ["A", "B"].map(|c| {
            UsbSerial::ftdi_reported(
                &format!("/dev/cu.usbserial-ib3P7AOG{c}"),
                FT2232H,
                None,
                "iCEBreaker V1.0d",
                "ib3P7AOG",
            )
        });
        assert_eq!(chosen(vcp.to_vec()), "/dev/cu.usbserial-ib3P7AOGB");
        // The ULX3S on macOS, cu and tty.
        let ulx3s_mac = ["cu", "tty"].map(|node| {
            UsbSerial::ftdi_reported(
                &format!("/dev/{node}.usbserial-K00027"),
                FT231X,
                Some(0),
                "ULX3S FPGA 12K v3.0.8",
                "K00027",
            )
        });
        assert_eq!(chosen(ulx3s_mac.to_vec()), "/dev/cu.usbserial-K00027");

        // Windows, FTDI's driver: no interface, the channel's letter ending
        // the serial number, the port's display name for a product (so the
        // iCEBreaker and the Alchitry Cu, alike but for it, are not told
        // apart).
        let windows = [("COM3", "ibxXrY9NA"), ("COM4", "ibxXrY9NB")].map(|(path, serial)| {
            UsbSerial::ftdi_reported(path, FT2232H, None, &format!("USB Serial Port ({path})"), serial)
        });
        assert_eq!(chosen(windows.to_vec()), "COM4");
        assert_eq!(role(&alike(windows.to_vec())[1]), PortRole::Uart("1BitSquared iCEBreaker or Alchitry Cu".into()));
        let ulx3s_windows = UsbSerial::ftdi_reported("COM5", FT231X, None, "USB Serial Port (COM5)", "K00027A");
        assert_eq!(role(&alike(vec![ulx3s_windows.clone()])[0]), PortRole::Uart("Radiona ULX3S".into()));
        // A composite device's driver: the instance id's MI_01.
        let composite = UsbSerial::ftdi_reported("COM7", FT2232H, Some(1), "USB Serial Device (COM7)", "ibxXrY9N");
        assert_eq!(chosen(vec![composite]), "COM7");
        // Two boards on Windows: both named.
        let error = choose_port(&alike(vec![windows[1].clone(), ulx3s_windows]), &role).unwrap_err().to_string();
        assert!(error.contains("COM4") && error.contains("COM5"), "{error}");

        // A system that says neither interface nor channel: an FT2232H's
        // port is not taken (it may be the flash's), an FT231X's is.
        let unsaid = UsbSerial::ftdi_reported("/dev/ttyS9", FT2232H, None, "iCEBreaker V1.0e", "ibxXrY9N");
        assert!(matches!(role(&unsaid), PortRole::NotUart(what) if what.contains("--port")));
        assert!(choose_port(&[unsaid], &role).is_err());
    }

    #[test]
    fn every_bridge_says_where_its_identity_comes_from() {
        let bridges = bridges();
        let names: Vec<&str> = bridges.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(names, ["1BitSquared iCEBreaker", "Alchitry Cu", "Radiona ULX3S"]);
        assert!(bridges.iter().all(|b| !b.sources.is_empty() && b.sources.iter().all(|s| s.starts_with("https://"))));
        // The OrangeCrab has no bridge: its UART is an adapter.
        assert!(boards::find("orangecrab").unwrap().part.usb.is_none());
    }
}
