//! Running a board's flasher (iceprog, openFPGALoader, dfu-util): what it
//! writes (the configuration flash, kept at power-off, or the FPGA's SRAM,
//! lost then), its phases and progress read from its output as it runs
//! (progress bars are redrawn with carriage returns, so a line is cut at
//! either), and the likely cause of a failure from what it said.

use std::io::Read;
use std::process::{Command, Stdio};

use anyhow::{bail, Result};

use super::boards::Board;

/// Where a bitstream goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// The configuration flash: the FPGA loads it at every power-on.
    Flash,
    /// The FPGA's SRAM: runs at once, lost at power-off.
    Sram,
}

impl Target {
    pub fn describe(self) -> &'static str {
        match self {
            Target::Flash => "the configuration flash (kept at power-off)",
            Target::Sram => "the FPGA's SRAM (runs at once, lost at power-off)",
        }
    }
}

/// A flasher's phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Erase,
    Write,
    Verify,
    Done,
}

/// The phase and progress (percent) a piece of a flasher's output tells
/// (iceprog's, openFPGALoader's and dfu-util's words for them).
pub fn progress_of(piece: &str) -> Option<(Phase, Option<f32>)> {
    let piece = piece.trim();
    let percent = piece.split_whitespace().find_map(|word| word.strip_suffix('%')?.parse::<f32>().ok());
    let starts = |prefixes: &[&str]| prefixes.iter().any(|p| piece.starts_with(p));
    let phase = if starts(&["VERIFY OK", "Download done", "Done!", "Bye.", "Refresh: DONE"]) {
        Phase::Done
    } else if starts(&["erase ", "Erasing", "SRAM erase", "Erase"]) {
        Phase::Erase
    } else if starts(&["programming", "addr 0x", "Writing", "Loading", "Load SRAM", "Download"]) {
        Phase::Write
    } else if starts(&["reading", "Verifying"]) {
        Phase::Verify
    } else {
        return None;
    };
    Some((phase, percent))
}

/// A flasher's output as it comes: its pieces (cut at carriage returns and
/// newlines, as progress bars are redrawn), each phase or progress change
/// told once.
#[derive(Default)]
pub struct OutputReader {
    piece: Vec<u8>,
    last: Option<(Phase, Option<f32>)>,
    /// Everything read, a piece a line.
    pub said: String,
}

impl OutputReader {
    /// Takes `bytes`, telling `show` each change they bring.
    pub fn read(&mut self, bytes: &[u8], show: &mut dyn FnMut(Phase, Option<f32>)) {
        for &byte in bytes {
            if byte != b'\r' && byte != b'\n' {
                self.piece.push(byte);
                continue;
            }
            let text = String::from_utf8_lossy(&self.piece).to_string();
            if let Some(progress) = progress_of(&text).filter(|p| Some(*p) != self.last) {
                show(progress.0, progress.1);
                self.last = Some(progress);
            }
            if !text.trim().is_empty() {
                self.said.push_str(&text);
                self.said.push('\n');
            }
            self.piece.clear();
        }
    }
}

/// Why a flasher likely failed, from what it said.
pub fn likely_cause(output: &str) -> Option<&'static str> {
    let said = |words: &[&str]| words.iter().any(|w| output.contains(w));
    if said(&["LIBUSB_ERROR_ACCESS", "Permission denied", "insufficient permissions", "usb_open() failed"]) {
        Some("no permission for the board's USB device: install the udev rules (knights doctor shows how)")
    } else if said(&["No DFU capable USB device"]) {
        Some(
            "no board in its DFU bootloader: plug the OrangeCrab in with its button held (the bootloader's LED \
             fades), then flash again",
        )
    } else if said(&["Can't find iCE FTDI USB device"]) {
        // iceprog says the same without the board and without permission.
        Some(
            "no board found, or no permission for it: check it is plugged in, and install the udev rules \
             (knights doctor shows how)",
        )
    } else if said(&["device not found", "No cable", "JTAG init failed"]) {
        Some("no board found: is it plugged in (and no other program using its USB device)?")
    } else if said(&["Found difference between flash and file", "VERIFY FAILED", "Verification failed"]) {
        Some("the flash read back differs from the bitstream: flash again, and try another cable")
    } else if said(&["Refresh: FAIL"]) {
        Some("written, but the FPGA did not start from the flash: power the board off and on")
    } else {
        None
    }
}

/// Whether a flasher that exited with an error finished its work all the
/// same: the OrangeCrab's bootloader leaves USB to start the bitstream as
/// soon as it has it, so dfu-util cannot read its last status.
fn done_all_the_same(said: &str) -> bool {
    said.contains("Download done.") && said.contains("after completion (LIBUSB_ERROR_NO_DEVICE)")
}

/// The flasher's command line writing `bitstream` to `target`, or why the
/// board cannot.
pub fn command(board: &Board, bitstream: &str, target: Target) -> Result<Vec<String>> {
    let flash = &board.part.flash;
    let args = match (target, &flash.sram_args) {
        (Target::Flash, _) => &flash.args,
        (Target::Sram, Some(args)) => args,
        (Target::Sram, None) => {
            bail!("{} cannot load its FPGA's SRAM with {}: flash it (drop --sram)", board.title, flash.program)
        }
    };
    Ok(std::iter::once(flash.program.clone()).chain(args.iter().map(|a| a.replace("{bitstream}", bitstream))).collect())
}

/// Runs `command`, telling `show` each phase and progress as it comes;
/// fails with the likely cause and the flasher's last words.
pub fn run(command: &[String], show: &mut dyn FnMut(Phase, Option<f32>)) -> Result<()> {
    let mut child = Command::new(&command[0])
        .args(&command[1..])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| anyhow::anyhow!("cannot run {} ({e}): install it (knights doctor says how)", command[0]))?;
    // The flashers write their progress to either stream: both are read,
    // stderr on a thread of its own.
    let mut stderr = child.stderr.take().expect("piped");
    let errors = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = stderr.read_to_end(&mut text);
        text
    });
    let mut stdout = child.stdout.take().expect("piped");
    let (mut reader, mut buffer) = (OutputReader::default(), [0u8; 512]);
    while let Ok(read @ 1..) = stdout.read(&mut buffer) {
        reader.read(&buffer[..read], show);
    }
    let status = child.wait()?;
    let mut errors = errors.join().unwrap_or_default();
    errors.push(b'\n');
    reader.read(&errors, show);
    if !status.success() && !done_all_the_same(&reader.said) {
        let tail: Vec<&str> = reader.said.lines().rev().take(3).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        let cause = likely_cause(&reader.said).unwrap_or("is the board connected and powered?");
        bail!("{} failed ({status}): {cause}; it said: {}", command.join(" "), tail.join(" / "));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The phases a recorded output shows, in order.
    fn phases(output: &str) -> Vec<(Phase, Option<f32>)> {
        let mut seen = Vec::new();
        let mut reader = OutputReader::default();
        reader.read(output.as_bytes(), &mut |phase, percent| seen.push((phase, percent)));
        seen
    }

    // Outputs as users recorded them (docs/builds.md names the sources).
    const ICEPROG: &str =
        "init..\ncdone: high\nreset..\ncdone: low\nflash ID: 0xEF 0x40 0x16 0x00\nfile size: 135100\n\
        erase 64kB sector at 0x000000..\nerase 64kB sector at 0x010000..\nprogramming..\n\
        addr 0x000000 0%\raddr 0x010000 48%\raddr 0x020000 97%\rdone.                 \nreading..\n\
        VERIFY OK             \ncdone: high\nBye.\n";
    const OPENFPGALOADER_FLASH: &str = "write to flash\nJtag frequency : requested 6.00MHz   -> real 6.00MHz  \n\
        Open file DONE\nParse file DONE\nEnable configuration: DONE\nSRAM erase: DONE\n\
        Erasing: [=====                    ] 10.00%\rErasing: [==================================================] 100.00%\nDone\n\
        Writing: [==================================================] 100.00%\nDone\nRefresh: DONE\n";
    const DFU_UTIL: &str = "Opening DFU capable USB device...\nID 1209:5af0\nRun-time device DFU version 0101\n\
        Copying data from PC to DFU device\nDownload\t[                         ]   0%            0 bytes\n\
        Download\t[=========================] 100%        15084 bytes\nDownload done.\n\
        state(8) = dfuMANIFEST-WAIT-RESET, status(0) = No error condition is present\nDone!\n";

    #[test]
    fn each_flasher_s_phases_and_progress_are_read_from_its_output() {
        use Phase::*;
        assert_eq!(
            phases(ICEPROG),
            [
                (Erase, None),
                (Write, None),
                (Write, Some(0.0)),
                (Write, Some(48.0)),
                (Write, Some(97.0)),
                (Verify, None),
                (Done, None)
            ]
        );
        assert_eq!(
            phases(OPENFPGALOADER_FLASH),
            [(Erase, None), (Erase, Some(10.0)), (Erase, Some(100.0)), (Write, Some(100.0)), (Done, None)]
        );
        assert_eq!(phases(DFU_UTIL), [(Write, Some(0.0)), (Write, Some(100.0)), (Done, None)]);
    }

    #[test]
    fn a_failure_names_its_likely_cause() {
        let cause = |output: &str| likely_cause(output).unwrap_or("none");
        let no_ice = "init..\nCan't find iCE FTDI USB device (vendor_id 0x0403, device_id 0x6010 or 0x6014).\nABORT.\n";
        assert!(cause(no_ice).contains("no board found, or no permission"));
        let permission =
            "unable to open ftdi device: -4 (usb_open() failed)\nJTAG init failed with: unable to open ftdi device\n";
        assert!(cause(permission).contains("no permission"));
        let unplugged =
            "unable to open ftdi device: -3 (device not found)\nJTAG init failed with: unable to open ftdi device.\n";
        assert!(cause(unplugged).contains("no board found: is it plugged in"));
        let dfu_access = "dfu-util: Cannot open DFU device 1209:5af0 found on devnum 7 (LIBUSB_ERROR_ACCESS)\n";
        assert!(cause(dfu_access).contains("no permission"));
        let no_dfu = "dfu-util: No DFU capable USB device available\n";
        assert!(cause(no_dfu).contains("button held"));
        let verify = "reading..\nFound difference between flash and file!\nABORT.\n";
        assert!(cause(verify).contains("read back differs"));
        assert_eq!(cause("something else\n"), "none");
        // The OrangeCrab's bootloader gone at once to run the bitstream.
        let gone = "Download\t[=========================] 100%        99405 bytes\nDownload done.\n\
            DFU state(7) = dfuMANIFEST, status(0) = No error condition is present\n\
            dfu-util: unable to read DFU status after completion (LIBUSB_ERROR_NO_DEVICE)\n";
        assert!(done_all_the_same(gone) && !done_all_the_same(no_dfu));
    }

    /// A flasher that fails is an error naming the cause; one that is not
    /// installed says how to install it.
    #[test]
    fn a_failing_flasher_is_an_error_with_its_cause() {
        let script = "echo \"Can't find iCE FTDI USB device (vendor_id 0x0403, device_id 0x6010 or 0x6014).\" >&2; echo ABORT. >&2; exit 2";
        let command: Vec<String> = ["sh", "-c", script].map(String::from).to_vec();
        let error = run(&command, &mut |_, _| {}).unwrap_err().to_string();
        assert!(error.contains("no board found, or no permission") && error.contains("ABORT."), "{error}");
        let missing = run(&["no-such-flasher".to_string()], &mut |_, _| {}).unwrap_err().to_string();
        assert!(missing.contains("knights doctor"), "{missing}");
    }
}
