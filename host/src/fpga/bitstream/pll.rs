//! PLL settings for running the design at a clock other than the board's:
//! the divider search of `icepll` (iCE40 `SB_PLL40_CORE`) and `ecppll`
//! (ECP5 `EHXPLLL`), and the Verilog instance for each.
//!
//! Limits are the ones those tools use (Lattice iCE40 sysCLOCK PLL guide,
//! ECP5 sysCLOCK guide).

/// An iCE40 PLL in simple feedback mode: `out = in * (divf + 1) / ((divr + 1) * 2^divq)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ice40Pll {
    pub divr: u32,
    pub divf: u32,
    pub divq: u32,
    pub filter_range: u32,
    /// The frequency it makes, Hz.
    pub out_hz: f64,
}

/// An ECP5 PLL with CLKOP as feedback: `out = in * clkfb_div / clki_div`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ecp5Pll {
    pub clki_div: u32,
    pub clkfb_div: u32,
    pub clkop_div: u32,
    pub out_hz: f64,
}

/// The iCE40 PLL closest to `want_hz` from `in_hz`, if the PLL can take that
/// input and make an output within its range (16 to 275 MHz).
pub fn ice40(in_hz: u64, want_hz: u64) -> Option<Ice40Pll> {
    let (fin, want) = (in_hz as f64 / 1e6, want_hz as f64 / 1e6);
    if !(10.0..=133.0).contains(&fin) || !(16.0..=275.0).contains(&want) {
        return None;
    }
    let mut best: Option<Ice40Pll> = None;
    for divr in 0..16 {
        let pfd = fin / f64::from(divr + 1);
        if !(10.0..=133.0).contains(&pfd) {
            continue;
        }
        for divf in 0..128 {
            let vco = pfd * f64::from(divf + 1);
            if !(533.0..=1066.0).contains(&vco) {
                continue;
            }
            for divq in 1..7 {
                let out = vco / f64::from(1u32 << divq);
                if !(16.0..=275.0).contains(&out) {
                    continue;
                }
                if best.is_none_or(|b| (out - want).abs() < (b.out_hz / 1e6 - want).abs()) {
                    best =
                        Some(Ice40Pll { divr, divf, divq, filter_range: ice40_filter_range(pfd), out_hz: out * 1e6 });
                }
            }
        }
    }
    best
}

/// The loop filter setting for a phase-detector frequency (MHz), as icepll picks it.
fn ice40_filter_range(pfd_mhz: f64) -> u32 {
    match pfd_mhz {
        f if f < 17.0 => 1,
        f if f < 26.0 => 2,
        f if f < 44.0 => 3,
        f if f < 66.0 => 4,
        f if f < 101.0 => 5,
        _ => 6,
    }
}

/// The ECP5 PLL closest to `want_hz` from `in_hz` (input 8 to 400 MHz, output
/// 10 to 400 MHz).
pub fn ecp5(in_hz: u64, want_hz: u64) -> Option<Ecp5Pll> {
    let (fin, want) = (in_hz as f64 / 1e6, want_hz as f64 / 1e6);
    if !(8.0..=400.0).contains(&fin) || !(10.0..=400.0).contains(&want) {
        return None;
    }
    let mut best: Option<Ecp5Pll> = None;
    for clki_div in 1..=128 {
        let pfd = fin / f64::from(clki_div);
        if !(3.125..=400.0).contains(&pfd) {
            continue;
        }
        for clkfb_div in 1..=80 {
            let out = pfd * f64::from(clkfb_div);
            if !(10.0..=400.0).contains(&out) {
                continue;
            }
            for clkop_div in 1..=128 {
                let vco = out * f64::from(clkop_div);
                if !(400.0..=800.0).contains(&vco) {
                    continue;
                }
                if best.is_none_or(|b| (out - want).abs() < (b.out_hz / 1e6 - want).abs()) {
                    best = Some(Ecp5Pll { clki_div, clkfb_div, clkop_div, out_hz: out * 1e6 });
                }
            }
        }
    }
    best
}

impl Ice40Pll {
    /// The PLL from `input` to `output`: an `SB_PLL40_CORE` from a fabric
    /// clock, or, when `input` is the PLL's own pad (`pad`), an
    /// `SB_PLL40_PAD` that takes it there.
    pub fn verilog(&self, input: &str, output: &str, pad: bool) -> String {
        let (primitive, reference) = if pad { ("PAD", "PACKAGEPIN") } else { ("CORE", "REFERENCECLK") };
        format!(
            "    SB_PLL40_{primitive} #(\n\
             \x20       .FEEDBACK_PATH(\"SIMPLE\"),\n\
             \x20       .DIVR(4'd{}),\n\
             \x20       .DIVF(7'd{}),\n\
             \x20       .DIVQ(3'd{}),\n\
             \x20       .FILTER_RANGE(3'd{})\n\
             \x20   ) pll (\n\
             \x20       .{reference}({input}),\n\
             \x20       .PLLOUTGLOBAL({output}),\n\
             \x20       .RESETB(1'b1),\n\
             \x20       .BYPASS(1'b0)\n\
             \x20   );\n",
            self.divr, self.divf, self.divq, self.filter_range
        )
    }
}

impl Ecp5Pll {
    /// An `EHXPLLL` from `input` to `output`, fed back from its own output.
    pub fn verilog(&self, input: &str, output: &str, in_hz: u64) -> String {
        format!(
            "    (* FREQUENCY_PIN_CLKI=\"{fin}\" *)\n\
             \x20   (* FREQUENCY_PIN_CLKOP=\"{fout}\" *)\n\
             \x20   (* ICP_CURRENT=\"12\" *) (* LPF_RESISTOR=\"8\" *) (* MFG_ENABLE_FILTEROPAMP=\"1\" *) (* MFG_GMCREF_SEL=\"2\" *)\n\
             \x20   EHXPLLL #(\n\
             \x20       .PLLRST_ENA(\"DISABLED\"),\n\
             \x20       .INTFB_WAKE(\"DISABLED\"),\n\
             \x20       .STDBY_ENABLE(\"DISABLED\"),\n\
             \x20       .DPHASE_SOURCE(\"DISABLED\"),\n\
             \x20       .OUTDIVIDER_MUXA(\"DIVA\"),\n\
             \x20       .CLKI_DIV({}),\n\
             \x20       .CLKOP_ENABLE(\"ENABLED\"),\n\
             \x20       .CLKOP_DIV({}),\n\
             \x20       .CLKOP_CPHASE({}),\n\
             \x20       .CLKOP_FPHASE(0),\n\
             \x20       .FEEDBK_PATH(\"CLKOP\"),\n\
             \x20       .CLKFB_DIV({})\n\
             \x20   ) pll (\n\
             \x20       .RST(1'b0),\n\
             \x20       .STDBY(1'b0),\n\
             \x20       .CLKI({input}),\n\
             \x20       .CLKOP({output}),\n\
             \x20       .CLKFB({output}),\n\
             \x20       .PHASESEL0(1'b0),\n\
             \x20       .PHASESEL1(1'b0),\n\
             \x20       .PHASEDIR(1'b1),\n\
             \x20       .PHASESTEP(1'b1),\n\
             \x20       .PHASELOADREG(1'b1),\n\
             \x20       .PLLWAKESYNC(1'b0),\n\
             \x20       .ENCLKOP(1'b0)\n\
             \x20   );\n",
            self.clki_div,
            self.clkop_div,
            (self.clkop_div - 1) / 2,
            self.clkfb_div,
            fin = in_hz as f64 / 1e6,
            fout = self.out_hz / 1e6,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ice40_settings_stay_in_range_and_hit_round_frequencies() {
        // 100 MHz (Alchitry Cu) down to 25 MHz: exact.
        let pll = ice40(100_000_000, 25_000_000).unwrap();
        assert_eq!(pll.out_hz, 25e6);
        let pfd = 100.0 / f64::from(pll.divr + 1);
        let vco = pfd * f64::from(pll.divf + 1);
        assert!((10.0..=133.0).contains(&pfd) && (533.0..=1066.0).contains(&vco), "{pll:?}");
        assert_eq!(vco / f64::from(1 << pll.divq), 25.0);
        // icepll's answer for 12 -> 48 MHz.
        let pll = ice40(12_000_000, 48_000_000).unwrap();
        assert_eq!((pll.divr, pll.divf, pll.divq, pll.filter_range), (0, 63, 4, 1));
        // Below the PLL's 16 MHz output minimum there is no setting.
        assert_eq!(ice40(100_000_000, 12_000_000), None);
        assert_eq!(ice40(5_000_000, 25_000_000), None);
    }

    #[test]
    fn ecp5_settings_stay_in_range_and_hit_round_frequencies() {
        for (fin, fout) in [(25, 50), (25, 20), (48, 30), (25, 10), (12, 16)] {
            let pll = ecp5(fin * 1_000_000, fout * 1_000_000).unwrap();
            assert!((pll.out_hz - fout as f64 * 1e6).abs() < 1.0, "{fin} -> {fout}: {pll:?}");
            let pfd = fin as f64 / f64::from(pll.clki_div);
            let vco = pll.out_hz / 1e6 * f64::from(pll.clkop_div);
            assert!(pfd >= 3.125 && (400.0..=800.0).contains(&vco), "{pll:?}");
            assert_eq!(pfd * f64::from(pll.clkfb_div), pll.out_hz / 1e6);
        }
        assert_eq!(ecp5(25_000_000, 5_000_000), None);
    }

    #[test]
    fn verilog_names_the_clocks() {
        let text = ice40(100_000_000, 25_000_000).unwrap().verilog("clock_pin", "engine_clock", false);
        assert!(text.contains("SB_PLL40_CORE") && text.contains(".REFERENCECLK(clock_pin)"));
        assert!(text.contains(".PLLOUTGLOBAL(engine_clock)"));
        let text = ice40(12_000_000, 30_000_000).unwrap().verilog("clock_pin", "engine_clock", true);
        assert!(text.contains("SB_PLL40_PAD") && text.contains(".PACKAGEPIN(clock_pin)"));
        let text = ecp5(25_000_000, 50_000_000).unwrap().verilog("clock_pin", "engine_clock", 25_000_000);
        assert!(text.contains("EHXPLLL") && text.contains(".CLKFB(engine_clock)"));
    }
}
