//! The accelerator's emitted Verilog under Verilator: a simulated board.
//!
//! [`SimulatedBoard`] is the top level as a board runs it, reached only at
//! its UART pins: bytes written go onto `uart_rx` bit by bit, and `uart_tx`
//! is sampled back into bytes. The host's link code therefore runs against
//! it exactly as against a serial port. Time only passes in [`run`], so a
//! slow host never makes the board drop a byte.
//!
//! [`run`]: SimulatedBoard::run

use std::ffi::c_void;

/// Parameters of the simulated build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Build {
    pub max_width: u16,
    pub max_height: u16,
    /// Search engines sharing a search.
    pub engines: usize,
    /// The clock the build models (for engine time from cycles).
    pub clock_hz: u64,
    /// Clocks per UART bit.
    pub clocks_per_bit: u32,
}

include!(concat!(env!("OUT_DIR"), "/build_settings.rs"));

extern "C" {
    fn ksb_new(clocks_per_bit: u32) -> *mut c_void;
    fn ksb_free(board: *mut c_void);
    fn ksb_write(board: *mut c_void, bytes: *const u8, length: usize);
    fn ksb_write_bad_stop_bit(board: *mut c_void, byte: u8);
    fn ksb_run(board: *mut c_void, max_cycles: u64, out: *mut u8, capacity: usize, cycles_run: *mut u64) -> usize;
    fn ksb_quiet(board: *mut c_void) -> i32;
    fn ksb_cycles(board: *mut c_void) -> u64;
    fn ksb_led_busy(board: *mut c_void) -> i32;
    fn ksb_led_found(board: *mut c_void) -> i32;
    fn ksb_framing_errors(board: *mut c_void) -> u64;
}

/// One simulated board, powered up.
pub struct SimulatedBoard {
    raw: *mut c_void,
}

// The model is plain memory owned by this value; it is used from one thread
// at a time, whichever that is.
unsafe impl Send for SimulatedBoard {}

impl SimulatedBoard {
    pub fn new() -> Self {
        SimulatedBoard { raw: unsafe { ksb_new(BUILD.clocks_per_bit) } }
    }

    /// Queues bytes to be sent to the board's UART (they go out as the
    /// board runs, one character per 10 bit times).
    pub fn write(&mut self, bytes: &[u8]) {
        unsafe { ksb_write(self.raw, bytes.as_ptr(), bytes.len()) }
    }

    /// Queues a character with a low stop bit: a framing error on the line.
    pub fn write_with_bad_stop_bit(&mut self, byte: u8) {
        unsafe { ksb_write_bad_stop_bit(self.raw, byte) }
    }

    /// Runs up to `max_cycles` clocks, appending what the board sends to
    /// `out`; stops early once `max_bytes` have arrived. Returns the clocks run.
    pub fn run(&mut self, max_cycles: u64, out: &mut Vec<u8>, max_bytes: usize) -> u64 {
        let start = out.len();
        out.resize(start + max_bytes, 0);
        let mut cycles = 0;
        let read = unsafe { ksb_run(self.raw, max_cycles, out[start..].as_mut_ptr(), max_bytes, &mut cycles) };
        out.truncate(start + read);
        cycles
    }

    /// Nothing in flight either way and no search running: running on would
    /// change nothing until the host writes again.
    pub fn is_quiet(&self) -> bool {
        unsafe { ksb_quiet(self.raw) != 0 }
    }

    /// Clocks since power-up.
    pub fn cycles(&self) -> u64 {
        unsafe { ksb_cycles(self.raw) }
    }

    pub fn busy_led(&self) -> bool {
        unsafe { ksb_led_busy(self.raw) != 0 }
    }

    pub fn found_led(&self) -> bool {
        unsafe { ksb_led_found(self.raw) != 0 }
    }

    /// Characters from the board whose stop bit was low (never expected).
    pub fn framing_errors(&self) -> u64 {
        unsafe { ksb_framing_errors(self.raw) }
    }
}

impl Default for SimulatedBoard {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for SimulatedBoard {
    fn drop(&mut self) {
        unsafe { ksb_free(self.raw) }
    }
}
