//! The accelerator's emitted Verilog under Verilator: a simulated board.
//!
//! [`SimulatedBoard`] is the top level as a board runs it, reached only at
//! its UART pins: bytes written go onto `uart_rx` bit by bit, and `uart_tx`
//! is sampled back into bytes. The host's link code therefore runs against
//! it exactly as against a serial port. Time only passes in [`run`], so a
//! slow host never makes the board drop a byte.
//!
//! The default build's model is linked into this crate (see `build.rs`). Any
//! other build's model is made at run time by [`build_model`], a shared
//! library with the same entry points, and loaded with [`Model::load`].
//!
//! [`run`]: SimulatedBoard::run

use std::ffi::{c_char, c_void, CString};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, OnceLock};

include!("recipe.rs");

pub use knights_protocol::design::Design;

include!(concat!(env!("OUT_DIR"), "/build_settings.rs"));

/// The C++ shim around the verilated design (`csrc/shim.cpp`), for models
/// built at run time.
pub const SHIM_SOURCE: &str = include_str!("../csrc/shim.cpp");

mod linked {
    use std::ffi::c_void;

    extern "C" {
        pub fn ksb_new(clocks_per_bit: u32) -> *mut c_void;
        pub fn ksb_free(board: *mut c_void);
        pub fn ksb_write(board: *mut c_void, bytes: *const u8, length: usize);
        pub fn ksb_write_bad_stop_bit(board: *mut c_void, byte: u8);
        pub fn ksb_run(board: *mut c_void, max_cycles: u64, out: *mut u8, capacity: usize, cycles: *mut u64) -> usize;
        pub fn ksb_quiet(board: *mut c_void) -> i32;
        pub fn ksb_cycles(board: *mut c_void) -> u64;
        pub fn ksb_led_busy(board: *mut c_void) -> i32;
        pub fn ksb_led_found(board: *mut c_void) -> i32;
        pub fn ksb_framing_errors(board: *mut c_void) -> u64;
        pub fn ksb_trace_open(board: *mut c_void, path: *const std::ffi::c_char) -> i32;
    }
}

/// The shim's entry points (`csrc/shim.cpp`), from the linked model or a
/// loaded one.
struct EntryPoints {
    new: unsafe extern "C" fn(u32) -> *mut c_void,
    free: unsafe extern "C" fn(*mut c_void),
    write: unsafe extern "C" fn(*mut c_void, *const u8, usize),
    write_bad_stop_bit: unsafe extern "C" fn(*mut c_void, u8),
    run: unsafe extern "C" fn(*mut c_void, u64, *mut u8, usize, *mut u64) -> usize,
    quiet: unsafe extern "C" fn(*mut c_void) -> i32,
    cycles: unsafe extern "C" fn(*mut c_void) -> u64,
    led_busy: unsafe extern "C" fn(*mut c_void) -> i32,
    led_found: unsafe extern "C" fn(*mut c_void) -> i32,
    framing_errors: unsafe extern "C" fn(*mut c_void) -> u64,
    trace_open: unsafe extern "C" fn(*mut c_void, *const c_char) -> i32,
}

/// A verilated accelerator: its entry points and the design it models (its
/// clock gives engine time from cycles, its baud rate the UART's bit time).
pub struct Model {
    entry: EntryPoints,
    design: Design,
    // Keeps a loaded model's code mapped while boards use it.
    _library: Option<libloading::Library>,
}

impl Model {
    /// The default build's model, linked into this crate.
    pub fn linked() -> Arc<Model> {
        static LINKED: OnceLock<Arc<Model>> = OnceLock::new();
        LINKED
            .get_or_init(|| {
                use linked::*;
                let entry = EntryPoints {
                    new: ksb_new,
                    free: ksb_free,
                    write: ksb_write,
                    write_bad_stop_bit: ksb_write_bad_stop_bit,
                    run: ksb_run,
                    quiet: ksb_quiet,
                    cycles: ksb_cycles,
                    led_busy: ksb_led_busy,
                    led_found: ksb_led_found,
                    framing_errors: ksb_framing_errors,
                    trace_open: ksb_trace_open,
                };
                Arc::new(Model { entry, design: DESIGN, _library: None })
            })
            .clone()
    }

    /// A model [`build_model`] made, modelling `design`.
    pub fn load(library: &Path, design: Design) -> Result<Arc<Model>, libloading::Error> {
        // SAFETY: the library is one build_model made from this crate's
        // shim, so each symbol has the signature it is read as, and the
        // library stays loaded as long as the model (and every board on it).
        unsafe {
            let library = libloading::Library::new(library)?;
            let entry = EntryPoints {
                new: *library.get(b"ksb_new\0")?,
                free: *library.get(b"ksb_free\0")?,
                write: *library.get(b"ksb_write\0")?,
                write_bad_stop_bit: *library.get(b"ksb_write_bad_stop_bit\0")?,
                run: *library.get(b"ksb_run\0")?,
                quiet: *library.get(b"ksb_quiet\0")?,
                cycles: *library.get(b"ksb_cycles\0")?,
                led_busy: *library.get(b"ksb_led_busy\0")?,
                led_found: *library.get(b"ksb_led_found\0")?,
                framing_errors: *library.get(b"ksb_framing_errors\0")?,
                trace_open: *library.get(b"ksb_trace_open\0")?,
            };
            Ok(Arc::new(Model { entry, design, _library: Some(library) }))
        }
    }

    pub fn design(&self) -> Design {
        self.design
    }
}

/// Makes a model from a design's Verilog (as `knights_rtl::verilog::
/// for_verilator` prepares it) in `dir`: Verilator and make, as for the
/// linked model, into a shared library; `traced`, it can write waveforms
/// ([`SimulatedBoard::trace_to`], slower). Returns its path, or what failed
/// with the tool's output. Takes a minute or more for a large design.
pub fn build_model(verilog: &str, dir: &Path, traced: bool) -> Result<PathBuf, String> {
    let obj = dir.join("obj_dir");
    std::fs::create_dir_all(&obj).map_err(|e| format!("cannot create {}: {e}", obj.display()))?;
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display())).map(|()| path)
    };
    let top = write("top.v", verilog)?;
    let shim = write("shim.cpp", SHIM_SOURCE)?;
    let trace: &[&str] = if traced { &["--trace-fst"] } else { &[] };
    run(Command::new("verilator").args(VERILATOR_ARGS).args(trace).arg("-Mdir").arg(&obj).arg(&top).arg(&shim))?;
    // -Bsymbolic: the library's calls stay inside it, whatever the program
    // that loads it (this crate's linked model has the same names).
    // (FST waveforms are compressed with zlib.)
    let libraries = if traced { " -lz" } else { "" };
    std::fs::write(
        obj.join("shared.mk"),
        format!(
            "include Vtop.mk\n\
             libksim.so: $(VK_OBJS) $(VK_USER_OBJS) $(VK_GLOBAL_OBJS)\n\
             \t$(CXX) -shared -Wl,-Bsymbolic -pthread -o $@ $^{libraries}\n"
        ),
    )
    .map_err(|e| format!("cannot write the makefile: {e}"))?;
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    run(Command::new("make")
        .env_remove("MAKEFLAGS")
        .env_remove("MFLAGS")
        .env_remove("CARGO_MAKEFLAGS")
        .arg(format!("-j{jobs}"))
        .args(["-s", "-C"])
        .arg(&obj)
        .args(["-f", "shared.mk", "libksim.so"])
        .args(MAKE_OPTIONS))?;
    Ok(obj.join("libksim.so"))
}

/// Names a model made by [`build_model`]: a hash of everything it is made
/// from (the Verilog, the shim, the recipe, tracing), so that a cached model
/// is used only while all of them are the same. FNV-1a, 64 bits (stable
/// across Rust versions, unlike `DefaultHasher`).
pub fn fingerprint(verilog: &str, traced: bool) -> u64 {
    let recipe = format!("{VERILATOR_ARGS:?} {MAKE_OPTIONS:?} traced={traced}");
    [verilog, SHIM_SOURCE, &recipe]
        .iter()
        .flat_map(|part| part.bytes().chain([0]))
        .fold(0xcbf2_9ce4_8422_2325, |hash, b| (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

fn run(command: &mut Command) -> Result<(), String> {
    let program = command.get_program().to_string_lossy().into_owned();
    let output = command.output().map_err(|e| {
        format!("cannot run {program} ({e}): install Verilator 5, make and g++ (scripts/setup.sh does)")
    })?;
    if output.status.success() {
        return Ok(());
    }
    let text = String::from_utf8_lossy(&output.stderr);
    let tail: Vec<&str> = text.lines().rev().take(20).collect();
    Err(format!("{program} failed ({}):\n{}", output.status, tail.into_iter().rev().collect::<Vec<_>>().join("\n")))
}

/// One simulated board, powered up.
pub struct SimulatedBoard {
    raw: *mut c_void,
    model: Arc<Model>,
}

// The model is plain memory owned by this value; it is used from one thread
// at a time, whichever that is.
unsafe impl Send for SimulatedBoard {}

impl SimulatedBoard {
    /// A board of the default build (the linked model).
    pub fn new() -> Self {
        Self::on(Model::linked())
    }

    /// A board running `model`, the host's side of the line at the
    /// build's bit time.
    pub fn on(model: Arc<Model>) -> Self {
        let clocks_per_bit = u32::try_from(model.design.clocks_per_bit()).expect("a UART bit under 2^32 clocks");
        Self::with_host_bit(model, clocks_per_bit)
    }

    /// A board running `model` whose host side of the line sends and
    /// samples bits `host_clocks_per_bit` clocks long: a USB bridge whose
    /// rate is off the build's, as a real one's is by a little.
    pub fn with_host_bit(model: Arc<Model>, host_clocks_per_bit: u32) -> Self {
        assert!(host_clocks_per_bit >= 2, "a bit of at least two clocks");
        let raw = unsafe { (model.entry.new)(host_clocks_per_bit) };
        SimulatedBoard { raw, model }
    }

    /// The design this board models.
    pub fn design(&self) -> Design {
        self.model.design
    }

    /// Queues bytes to be sent to the board's UART (they go out as the
    /// board runs, one character per 10 bit times).
    pub fn write(&mut self, bytes: &[u8]) {
        unsafe { (self.model.entry.write)(self.raw, bytes.as_ptr(), bytes.len()) }
    }

    /// Queues a character with a low stop bit: a framing error on the line.
    pub fn write_with_bad_stop_bit(&mut self, byte: u8) {
        unsafe { (self.model.entry.write_bad_stop_bit)(self.raw, byte) }
    }

    /// Runs up to `max_cycles` clocks, appending what the board sends to
    /// `out`; stops early once `max_bytes` have arrived. Returns the clocks run.
    pub fn run(&mut self, max_cycles: u64, out: &mut Vec<u8>, max_bytes: usize) -> u64 {
        let start = out.len();
        out.resize(start + max_bytes, 0);
        let mut cycles = 0;
        let read =
            unsafe { (self.model.entry.run)(self.raw, max_cycles, out[start..].as_mut_ptr(), max_bytes, &mut cycles) };
        out.truncate(start + read);
        cycles
    }

    /// Nothing in flight either way and no search running: running on would
    /// change nothing until the host writes again.
    pub fn is_quiet(&self) -> bool {
        unsafe { (self.model.entry.quiet)(self.raw) != 0 }
    }

    /// Clocks since power-up.
    pub fn cycles(&self) -> u64 {
        unsafe { (self.model.entry.cycles)(self.raw) }
    }

    pub fn busy_led(&self) -> bool {
        unsafe { (self.model.entry.led_busy)(self.raw) != 0 }
    }

    pub fn found_led(&self) -> bool {
        unsafe { (self.model.entry.led_found)(self.raw) != 0 }
    }

    /// Writes a waveform (FST) of every signal from now on to `path`, for
    /// GTKWave or Surfer; the file is complete once the board is dropped.
    /// Only models built with tracing can (see [`build_model`]).
    pub fn trace_to(&mut self, path: &Path) -> Result<(), String> {
        let name = CString::new(path.to_string_lossy().as_bytes()).map_err(|e| e.to_string())?;
        match unsafe { (self.model.entry.trace_open)(self.raw, name.as_ptr()) } {
            1 => Ok(()),
            0 => Err("this simulated board's model was built without tracing".into()),
            _ => Err(format!("cannot write the waveform to {}", path.display())),
        }
    }

    /// Characters from the board whose stop bit was low (never expected).
    pub fn framing_errors(&self) -> u64 {
        unsafe { (self.model.entry.framing_errors)(self.raw) }
    }
}

impl Default for SimulatedBoard {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for SimulatedBoard {
    fn drop(&mut self) {
        unsafe { (self.model.entry.free)(self.raw) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_model_is_named_by_everything_it_is_made_from() {
        let plain = fingerprint("module top; endmodule", false);
        assert_ne!(plain, fingerprint("module top; endmodule", true));
        assert_ne!(plain, fingerprint("module top(); endmodule", false));
        assert_eq!(plain, fingerprint("module top; endmodule", false));
    }
}
