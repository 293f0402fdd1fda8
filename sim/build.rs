//! Emits the accelerator's Verilog (from the rtl crate) with the simulated
//! board's link settings, verilates it with the C++ shim, and links the
//! result as a static library. Verilator 5 recipe from the project's
//! toolchain notes.

use std::path::PathBuf;
use std::process::Command;

use knights_protocol::design::{Design, EngineKind, Features};

include!("src/recipe.rs");

/// The largest board of the simulated build.
const MAX_WIDTH: u16 = 8;
const MAX_HEIGHT: u16 = 8;
/// Engines in the simulated build, unless `KNIGHTS_SIM_ENGINES` says how
/// many (`knights bench` models a board's time only when the simulator has at
/// least the board's engines; more engines make every simulated clock slower).
const DEFAULT_ENGINES: u16 = 4;

fn main() {
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let shim = manifest.join("csrc/shim.cpp");
    println!("cargo:rerun-if-changed={}", shim.display());
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/recipe.rs");
    println!("cargo:rerun-if-env-changed=KNIGHTS_SIM_ENGINES");
    let engines = match std::env::var("KNIGHTS_SIM_ENGINES") {
        Ok(text) => match text.parse::<usize>() {
            Ok(n) if (1..=knights_rtl::platform::MAX_ENGINES).contains(&n) => n as u16,
            _ => panic!(
                "KNIGHTS_SIM_ENGINES={text}: give a number of engines from 1 to {}",
                knights_rtl::platform::MAX_ENGINES
            ),
        },
        Err(_) => DEFAULT_ENGINES,
    };

    // A 12 MHz clock with the UART at 3 Mbaud: four clocks a bit, as fast
    // as FTDI bridges go.
    let design = Design {
        kind: EngineKind::Wide,
        max_width: MAX_WIDTH,
        max_height: MAX_HEIGHT,
        engines,
        features: Features::ALL,
        clock_hz: 12_000_000,
        baud: 3_000_000,
        visited_in_block_ram: false,
    };
    let verilog = knights_rtl::verilog::accelerator_verilog(&design).expect("a supported build size");
    let top = out.join("top.v");
    std::fs::write(&top, knights_rtl::verilog::for_verilator(&verilog)).unwrap();
    std::fs::write(
        out.join("build_settings.rs"),
        format!(
            "/// The default simulated build, linked into this crate.\n\
             pub const DESIGN: Design = Design {{ kind: knights_protocol::design::EngineKind::Wide, \
             max_width: {MAX_WIDTH}, max_height: {MAX_HEIGHT}, engines: {engines}, \
             features: knights_protocol::design::Features::ALL, clock_hz: {}, baud: {}, \
             visited_in_block_ram: false }};\n",
            design.clock_hz, design.baud
        ),
    )
    .unwrap();

    let obj = out.join("obj_dir");
    run(Command::new("verilator").args(VERILATOR_ARGS).arg("-Mdir").arg(&obj).arg(&top).arg(&shim));
    std::fs::write(obj.join("lib.mk"), "include Vtop.mk\nlibksim.a: $(VK_OBJS) $(VK_USER_OBJS) $(VK_GLOBAL_OBJS)\n")
        .unwrap();
    run(Command::new("make")
        .env_remove("MAKEFLAGS")
        .env_remove("MFLAGS")
        .env_remove("CARGO_MAKEFLAGS")
        .arg(format!("-j{}", std::env::var("NUM_JOBS").unwrap_or_else(|_| "1".into())))
        .args(["-s", "-C"])
        .arg(&obj)
        .args(["-f", "lib.mk", "libksim.a"])
        .args(MAKE_OPTIONS));
    println!("cargo:rustc-link-search=native={}", obj.display());
    println!("cargo:rustc-link-lib=static=ksim");
    println!("cargo:rustc-link-lib=dylib=stdc++");
    println!("cargo:rustc-link-lib=dylib=pthread");
}

fn run(command: &mut Command) {
    let status = command.status().unwrap_or_else(|e| {
        panic!("could not run {:?} ({e}): install Verilator 5 and make (scripts/setup.sh does)", command.get_program())
    });
    assert!(status.success(), "{command:?} failed with {status}");
}
