//! What a build makes: its options (a board's defaults, changed by the
//! user), checked against what the RTL and the board can do, and the plan
//! for the design's clock.

use std::path::{Path, PathBuf};

use super::pll;
use crate::device::error::UsageError;
use crate::fpga::boards::{Board, Build, Family};
use crate::fpga::build_report::{mhz, BUILD_ROOT};
use crate::fpga::EngineKind;
use crate::link::rates;

/// What to build for a board, and where; [`BuildOptions::for_board`] gives
/// its defaults. The design's clock is what the build asks for: a PLL makes
/// it when it is not the board's.
#[derive(Clone, Debug, PartialEq)]
pub struct BuildOptions {
    pub build: Build,
    pub out_dir: PathBuf,
    /// Run the tools even when the output directory holds this very build.
    pub rebuild: bool,
}

impl BuildOptions {
    /// The build the board's data describes, written to `build/NAME`.
    pub fn for_board(board: &Board) -> Self {
        BuildOptions { build: board.build, out_dir: Path::new(BUILD_ROOT).join(&board.name), rebuild: false }
    }
}

/// How the design's clock is made from the board's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ClockPlan {
    Direct,
    Ice40(pll::Ice40Pll),
    Ecp5(pll::Ecp5Pll),
}

impl ClockPlan {
    /// A plan for `want_hz` on `board`, or a usage error saying what can be made.
    pub fn new(board: &Board, want_hz: u64) -> Result<Self, UsageError> {
        if want_hz == board.part.clock.hz {
            return Ok(ClockPlan::Direct);
        }
        let plan = match board.part.family {
            Family::Ice40 => pll::ice40(board.part.clock.hz, want_hz).map(ClockPlan::Ice40),
            Family::Ecp5 => pll::ecp5(board.part.clock.hz, want_hz).map(ClockPlan::Ecp5),
        };
        let range = match board.part.family {
            Family::Ice40 => "16 to 275 MHz",
            Family::Ecp5 => "10 to 400 MHz",
        };
        plan.ok_or_else(|| {
            UsageError(format!(
                "no PLL setting makes {} MHz from the {}'s {} MHz clock: its PLL makes {range}, or use the board clock",
                mhz(want_hz as f64),
                board.part.title,
                mhz(board.part.clock.hz as f64)
            ))
        })
    }

    /// The design clock this plan gives, Hz.
    pub fn clock_hz(&self, board: &Board) -> u64 {
        match self {
            ClockPlan::Direct => board.part.clock.hz,
            ClockPlan::Ice40(p) => p.out_hz.round() as u64,
            ClockPlan::Ecp5(p) => p.out_hz.round() as u64,
        }
    }

    pub fn describe(&self, board: &Board) -> Option<String> {
        let from = mhz(board.part.clock.hz as f64);
        match self {
            ClockPlan::Direct => None,
            ClockPlan::Ice40(p) => Some(format!(
                "SB_PLL40_{} {from} -> {} MHz (DIVR {} DIVF {} DIVQ {})",
                if board.part.clock.pll_pad { "PAD" } else { "CORE" },
                mhz(p.out_hz),
                p.divr,
                p.divf,
                p.divq
            )),
            ClockPlan::Ecp5(p) => Some(format!(
                "EHXPLLL {from} -> {} MHz (CLKI_DIV {} CLKFB_DIV {} CLKOP_DIV {})",
                mhz(p.out_hz),
                p.clki_div,
                p.clkfb_div,
                p.clkop_div
            )),
        }
    }
}

/// Checks the options against what the RTL and the board can do.
pub fn check(board: &Board, options: &BuildOptions) -> Result<ClockPlan, UsageError> {
    let design = options.build.design;
    check_engines(design.engines)?;
    check_size(design.kind, design.max_width, design.max_height)?;
    check_baud(design.clock_hz, design.baud)?;
    let plan = ClockPlan::new(board, design.clock_hz)?;
    if let Some(why) = rates::unfit(design.clock_hz, design.baud, board.part.uart.max_baud) {
        let fastest = rates::fastest(design.clock_hz, board.part.uart.max_baud)
            .map_or_else(|| "none of the bridge's rates fits this clock".into(), |b| format!("{b} fits"));
        return Err(UsageError(format!("--baud {}: {why} ({fastest})", design.baud)));
    }
    Ok(plan)
}

pub(super) fn check_engines(engines: u16) -> Result<(), UsageError> {
    let max_engines = knights_rtl::platform::MAX_ENGINES as u16;
    if !(1..=max_engines).contains(&engines) {
        return Err(UsageError(format!("{engines} engines: a bitstream has 1 to {max_engines} engines")));
    }
    Ok(())
}

/// The largest board a build of `engine` takes must have an instance.
pub(super) fn check_size(engine: EngineKind, max_width: u16, max_height: u16) -> Result<(), UsageError> {
    match engine {
        EngineKind::Wide => check_area(max_width, max_height),
        EngineKind::Compact => check_compact_size(max_width, max_height),
        EngineKind::Interleaved => {
            let area = usize::from(max_width) * usize::from(max_height);
            let areas = knights_rtl::verilog::INTERLEAVED_AREAS;
            if !areas.contains(&area) {
                return Err(UsageError(format!(
                    "largest board {max_width}x{max_height}: the RTL has interleaved engines for boards of {} squares (e.g. 5x5, 6x6, 8x8)",
                    areas.map(|a| a.to_string()).join(", ")
                )));
            }
            Ok(())
        }
        EngineKind::Queens => {
            let sizes = knights_rtl::verilog::QUEENS_SIZES;
            if max_width != max_height || !sizes.contains(&usize::from(max_width)) {
                return Err(UsageError(format!(
                    "largest board {max_width}x{max_height}: the RTL has N-Queens solvers for N×N boards with N one of {}",
                    sizes.map(|n| n.to_string()).join(", ")
                )));
            }
            Ok(())
        }
    }
}

/// The largest board a build takes must have an engine instance.
pub(super) fn check_area(max_width: u16, max_height: u16) -> Result<(), UsageError> {
    let area = usize::from(max_width) * usize::from(max_height);
    if !knights_rtl::verilog::SUPPORTED_AREAS.contains(&area) {
        return Err(UsageError(format!(
            "largest board {max_width}x{max_height}: the RTL has engines for boards of {} squares (e.g. 6x6, 8x8, 12x12, 16x16)",
            knights_rtl::verilog::SUPPORTED_AREAS.map(|a| a.to_string()).join(", ")
        )));
    }
    Ok(())
}

/// The compact engine has instances for boards from 5x5 to 40x40 (and
/// rectangles between).
pub(super) fn check_compact_size(max_width: u16, max_height: u16) -> Result<(), UsageError> {
    let supported = (5..=40).contains(&max_width.min(max_height)) && max_width.max(max_height) <= 40;
    let instance =
        supported && knights_rtl::verilog::compact_widths_supported(usize::from(max_width), usize::from(max_height));
    if !instance {
        return Err(UsageError(format!(
            "largest board {max_width}x{max_height}: the RTL has compact engines for boards from 5x5 to 40x40"
        )));
    }
    Ok(())
}

pub(super) fn check_baud(clock_hz: u64, baud: u64) -> Result<(), UsageError> {
    let most = knights_rtl::platform::uart::MAX_CLOCKS_PER_BIT;
    if baud > 0 && rates::clocks_per_bit(clock_hz, baud) > most {
        return Err(UsageError(format!(
            "{baud} baud: the UART counts at most {most} clocks a bit ({} baud at least at {} MHz)",
            clock_hz.div_ceil(most),
            mhz(clock_hz as f64)
        )));
    }
    if baud == 0 || clock_hz / baud < 4 {
        return Err(UsageError(format!(
            "{baud} baud: the UART needs at least four clocks per bit ({} baud at most at {} MHz)",
            clock_hz / 4,
            mhz(clock_hz as f64)
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fpga::{boards, Design};

    #[test]
    fn options_outside_the_rtl_or_the_pll_are_usage_errors() {
        let board = boards::find("alchitry-cu").unwrap();
        let options = BuildOptions::for_board(&board);
        assert!(check(&board, &options).is_ok());
        let design = options.build.design;
        let with = |design: Design| {
            let mut options = options.clone();
            options.build.design = design;
            check(&board, &options)
        };
        let error = with(Design { max_width: 41, max_height: 7, ..design }).unwrap_err();
        assert!(error.0.contains("41x7") && error.0.contains("5x5 to 40x40"), "{error}");
        let error = with(Design { kind: EngineKind::Wide, max_width: 7, max_height: 7, ..design }).unwrap_err();
        assert!(error.0.contains("7x7") && error.0.contains("64"), "{error}");
        let error = with(Design { clock_hz: 10_000_000, ..design }).unwrap_err();
        assert!(error.0.contains("16 to 275 MHz"), "{error}");
        assert!(with(Design { engines: 4, ..design }).is_ok());
        let error = with(Design { engines: 0, ..design }).unwrap_err();
        assert!(error.0.contains("1 to 128 engines"), "{error}");
        let error = with(Design { baud: 10_000_000, ..design }).unwrap_err();
        assert!(error.0.contains("four clocks per bit"), "{error}");
        let error = with(Design { baud: 4_800, ..design }).unwrap_err();
        assert!(error.0.contains("at most 4095 clocks a bit"), "{error}");
        // The Alchitry Cu's 37.5 MHz: 3 Mbaud is 12.5 clocks a bit, 4% off.
        let error = with(Design { baud: 3_000_000, ..design }).unwrap_err();
        assert!(error.0.contains("--baud 3000000") && error.0.contains("(1500000 fits)"), "{error}");
    }

    #[test]
    fn every_board_default_build_is_possible() {
        for board in boards::all() {
            let plan = check(&board, &BuildOptions::for_board(&board)).unwrap();
            assert!(
                plan.clock_hz(&board).abs_diff(board.build.design.clock_hz) < board.build.design.clock_hz / 200,
                "{}",
                board.name
            );
        }
    }
}
