// How a model is made from the accelerator's Verilog and the C++ shim: the
// arguments to Verilator and to make. Shared by build.rs (the model linked
// into this crate) and `build_model` (models built at run time), through
// `include!`.

/// Verilator's arguments before the output directory and the sources.
const VERILATOR_ARGS: &[&str] = &[
    "--cc",
    "-O3",
    "--x-assign",
    "fast",
    "--x-initial",
    "fast",
    "--noassert",
    "-Wno-fatal",
    "--inline-mult",
    "-1",
    "--top-module",
    "top",
    "--prefix",
    "Vtop",
    "-CFLAGS",
    "-fPIC -O2",
];

/// make's optimisation settings for the verilated C++.
const MAKE_OPTIONS: &[&str] = &["OPT_FAST=-O2", "OPT_SLOW=-O1", "OPT_GLOBAL=-O2"];
