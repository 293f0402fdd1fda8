//! Writes the engine's Verilog to stdout: `knights-verilog WIDTH HEIGHT`.

fn main() {
    let args: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let [width, height] = args[..] else {
        eprintln!("usage: knights-verilog MAX_WIDTH MAX_HEIGHT");
        std::process::exit(2);
    };
    match knights_rtl::verilog::engine_verilog(width, height) {
        Some(verilog) => print!("{verilog}"),
        None => {
            eprintln!(
                "error: no engine instance for {width}x{height}: the area must be one of {:?}",
                knights_rtl::verilog::SUPPORTED_AREAS
            );
            std::process::exit(2);
        }
    }
}
