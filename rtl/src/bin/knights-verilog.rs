//! Writes Verilog to stdout:
//! `knights-verilog MAX_WIDTH MAX_HEIGHT [--engine] [--engines N] [--clock HZ] [--baud B] [--no-warnsdorff]`.
//! The accelerator (UART link and N engines, 1 by default) by default, the bare engine with
//! `--engine`; the clock defaults to 12 MHz, the baud rate to 115200.

use knights_rtl::accelerator::{Features, LinkSettings};
use knights_rtl::verilog::{accelerator_verilog, engine_verilog, SUPPORTED_AREAS};

const USAGE: &str =
    "usage: knights-verilog MAX_WIDTH MAX_HEIGHT [--engine] [--engines N] [--clock HZ] [--baud B] [--no-warnsdorff]";

fn main() {
    let mut sizes = Vec::new();
    let mut engine_only = false;
    let mut engines = 1usize;
    let mut features = Features::ALL;
    let (mut clock_hz, mut baud) = (12_000_000u64, 115_200u64);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--engine" => engine_only = true,
            "--no-warnsdorff" => features.warnsdorff = false,
            "--engines" => engines = args.next().and_then(|v| v.parse().ok()).unwrap_or_else(|| usage()),
            "--clock" => clock_hz = args.next().and_then(|v| v.parse().ok()).unwrap_or_else(|| usage()),
            "--baud" => baud = args.next().and_then(|v| v.parse().ok()).unwrap_or_else(|| usage()),
            _ => sizes.push(arg.parse::<usize>().unwrap_or_else(|_| usage())),
        }
    }
    let [width, height] = sizes[..] else { usage() };
    if baud == 0 || clock_hz < 4 * baud {
        eprintln!("error: the clock must be at least 4 times the baud rate");
        std::process::exit(2);
    }
    if !(1..=32).contains(&engines) {
        eprintln!("error: --engines must be 1 to 32");
        std::process::exit(2);
    }
    let verilog = if engine_only {
        engine_verilog(width, height)
    } else {
        accelerator_verilog(width, height, engines, features, LinkSettings::new(clock_hz, baud))
    };
    match verilog {
        Some(verilog) => print!("{verilog}"),
        None => {
            eprintln!("error: no engine instance for {width}x{height}: the area must be one of {SUPPORTED_AREAS:?}");
            std::process::exit(2);
        }
    }
}

fn usage() -> ! {
    eprintln!("{USAGE}");
    std::process::exit(2);
}
