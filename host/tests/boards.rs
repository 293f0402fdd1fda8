//! Board data and the constraint files generated from it; no FPGA tools.
#![cfg(feature = "fpga")]

use std::collections::HashSet;
use std::path::Path;

use knights::fpga::boards::{self, Family};
use knights::fpga::EngineKind;

#[test]
fn every_board_file_parses_and_names_are_unique() {
    let all = boards::all();
    let names: HashSet<&str> = all.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names.len(), all.len());
    for name in ["icebreaker", "alchitry-cu", "ulx3s-85f", "ulx3s-45f", "ulx3s-25f", "ulx3s-12f", "orangecrab"] {
        assert!(names.contains(name), "{name}");
    }
}

#[test]
fn only_the_6x6_count_build_leaves_warnsdorff_out() {
    // Each build says what it leaves out; the default is to build it in.
    for board in boards::all() {
        assert_eq!(board.build.design.features.warnsdorff, board.name != "ulx3s-85f-6x6", "{}", board.name);
    }
}

#[test]
fn the_6x6_build_is_a_second_build_of_the_85f_part() {
    let (main, six) = (boards::find("ulx3s-85f").unwrap(), boards::find("ulx3s-85f-6x6").unwrap());
    assert_eq!(six.part, main.part);
    assert_eq!(six.part.name, "ulx3s-85f");
    // The smaller FPGAs are parts of their own, on the same pins.
    let small = boards::find("ulx3s-45f").unwrap();
    assert_eq!((small.part.name.as_str(), small.part.device.as_str()), ("ulx3s-45f", "45k"));
    assert_eq!(small.part.uart, main.part.uart);
}

#[test]
fn each_board_is_sane() {
    for board in boards::all() {
        let part = &board.part;
        let pins =
            [&part.clock.pin, &part.uart.rx, &part.uart.tx, &part.led_busy.pin, &part.led_found.pin, &part.button.pin];
        let distinct: HashSet<_> = pins.iter().collect();
        assert_eq!(distinct.len(), pins.len(), "{}: a pin is used twice", board.name);
        let area = usize::from(board.build.design.max_width) * usize::from(board.build.design.max_height);
        match board.build.design.kind {
            EngineKind::Wide => {
                assert!(
                    knights_rtl::verilog::SUPPORTED_AREAS.contains(&area),
                    "{}: no engine for {area} squares",
                    board.name
                );
                assert!(area <= 256, "{}: tours are sent a byte per square", board.name);
            }
            EngineKind::Interleaved => {
                assert!(
                    knights_rtl::verilog::INTERLEAVED_AREAS.contains(&area),
                    "{}: no interleaved engine for {area} squares",
                    board.name
                );
                // (A lone engine's walk shares the search among its own five slots.)
                assert!(board.build.design.engines >= 1, "{}: the walker at least", board.name);
            }
            EngineKind::Compact => {
                let (width, height) =
                    (usize::from(board.build.design.max_width), usize::from(board.build.design.max_height));
                assert!(
                    knights_rtl::verilog::compact_widths_supported(width, height),
                    "{}: no compact engine for {width}x{height}",
                    board.name
                );
                assert!(width.min(height) >= 8, "{}: every board takes the 8x8 chessboard", board.name);
            }
            EngineKind::Queens => {
                let n = usize::from(board.build.design.max_width);
                assert_eq!(
                    board.build.design.max_width, board.build.design.max_height,
                    "{}: N-Queens boards are square",
                    board.name
                );
                assert!(knights_rtl::verilog::QUEENS_SIZES.contains(&n), "{}: no solver for N = {n}", board.name);
            }
        }
        assert!(board.build.design.clock_hz >= 4 * board.build.design.baud, "{}", board.name);
        assert!(!part.sources.is_empty() && part.sources.iter().all(|s| s.starts_with("https://")), "{}", board.name);
        let expected_family =
            if ["up5k", "hx8k"].contains(&part.device.as_str()) { Family::Ice40 } else { Family::Ecp5 };
        assert_eq!(part.family, expected_family, "{}", board.name);
    }
}

#[test]
fn committed_constraint_files_are_current() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../constraints");
    for board in boards::all() {
        let path = dir.join(board.constraints_file());
        let committed = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e}; run `knights constraints`", path.display()));
        assert_eq!(committed, board.constraints(), "{} is stale: run `knights constraints`", path.display());
    }
}

#[test]
fn constraint_files_name_every_pin() {
    let icebreaker = boards::find("icebreaker").unwrap().constraints();
    for line in ["set_io clock_pin 35", "set_io uart_rx_pin 6", "set_io uart_tx_pin 9", "set_frequency clock_pin 12"] {
        assert!(icebreaker.lines().any(|l| l == line), "{line} in\n{icebreaker}");
    }
    let ulx3s = boards::find("ulx3s-85f").unwrap().constraints();
    for line in ["LOCATE COMP \"uart_rx_pin\" SITE \"M1\";", "LOCATE COMP \"uart_tx_pin\" SITE \"L4\";"] {
        assert!(ulx3s.lines().any(|l| l == line), "{line} in\n{ulx3s}");
    }
    let orangecrab = boards::find("orangecrab").unwrap().constraints();
    assert!(orangecrab.contains("IOBUF PORT \"button_pin\" IO_TYPE=SSTL135_I;"), "{orangecrab}");
}

#[test]
fn flash_commands_are_the_boards_flashers() {
    let command = |name: &str| {
        knights::fpga::flasher::command(&boards::find(name).unwrap(), "x.bin", knights::fpga::flasher::Target::Flash)
            .unwrap()
            .join(" ")
    };
    assert_eq!(command("icebreaker"), "iceprog x.bin");
    assert_eq!(command("ulx3s-12f"), "openFPGALoader --board ulx3s --write-flash x.bin");
    assert_eq!(command("alchitry-cu"), "openFPGALoader --board ice40_generic --write-flash x.bin");
    // The FPGA's SRAM, where the flasher loads it; the OrangeCrab's only
    // takes its flash.
    let sram = |name: &str| {
        use knights::fpga::flasher::{command, Target};
        command(&boards::find(name).unwrap(), "x.bin", Target::Sram).map(|c| c.join(" ")).map_err(|e| e.to_string())
    };
    assert_eq!(sram("icebreaker").unwrap(), "iceprog -S x.bin");
    assert_eq!(sram("ulx3s-85f").unwrap(), "openFPGALoader --board ulx3s --write-sram x.bin");
    assert!(sram("orangecrab").unwrap_err().contains("drop --sram"));
    assert_eq!(command("orangecrab"), "dfu-util --device 1209:5af0 --alt 0 --download x.bin");
    let unknown = boards::find("icestick").unwrap_err().to_string();
    assert!(unknown.contains("icebreaker") && unknown.contains("knights boards"), "{unknown}");
}
