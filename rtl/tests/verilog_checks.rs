//! The emitted Verilog passes Verilator's lint and a yosys check, for the
//! iCE40-sized build (8x8) and the largest one (16x16).

use std::process::Command;

use knights_rtl::verilog::{engine_verilog, SUPPORTED_AREAS};

fn write_verilog(width: usize, height: usize) -> std::path::PathBuf {
    let verilog = engine_verilog(width, height).expect("supported size");
    assert!(verilog.contains("module top("));
    let path = std::env::temp_dir().join(format!("knights-engine-{width}x{height}-{}.v", std::process::id()));
    std::fs::write(&path, verilog).unwrap();
    path
}

fn tool(program: &str, args: &[&str]) -> String {
    let output = Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program} ({e}): scripts/setup.sh installs it"));
    let text = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "{program} {args:?} failed:\n{text}");
    text
}

#[test]
fn verilog_lints_clean_and_passes_yosys_check() {
    for (width, height) in [(8, 8), (5, 4), (16, 16)] {
        let path = write_verilog(width, height);
        let file = path.to_str().unwrap();
        let lint =
            tool("verilator", &["--lint-only", "-Wall", "-Wno-WIDTH", "-Wno-DECLFILENAME", "-Wno-UNUSEDPARAM", file]);
        assert!(!lint.contains("%Warning") && !lint.contains("%Error"), "{width}x{height}:\n{lint}");
        let script = format!("read_verilog {file}; hierarchy -check -top top; proc; check -assert");
        tool("yosys", &["-q", "-p", &script]);
        std::fs::remove_file(&path).unwrap();
    }
}

#[test]
fn only_instantiated_areas_are_offered() {
    assert!(engine_verilog(7, 7).is_none());
    assert!(engine_verilog(6, 6).is_some());
    assert!(SUPPORTED_AREAS.contains(&64) && SUPPORTED_AREAS.contains(&256));
}
