//! UART bit rates: those the boards' USB bridges make, how closely a build's
//! clock divides one, the fastest a build can take, and the order the host
//! tries them in when nobody names the board's rate.
//!
//! The build's UART rounds its bit time to whole clocks, so its rate is off
//! the nominal one (115,101 baud for 115,200 at 62.5 MHz); the bridge's own
//! divisor adds its error. The receiver samples mid-bit and checks the stop
//! bit nine and a half bits after the start edge, which it finds to within a
//! clock: with eight clocks a bit or more, the two ends may differ by about
//! 3.5% before a byte is misread (simulated: 2% off works, 8% off fails).
//! A build keeps its own part of that to 1%.

/// Rates FTDI bridges make exactly, fastest first: the FT2232H (iCEBreaker,
/// Alchitry Cu) divides 12 MHz, the FT231X (ULX3S) and FT232R 3 MHz, by
/// n + k/8; 3, 2, 1.5 and 1 Mbaud come out exact on both, and 1 Mbaud on
/// the common CP2102N and CH340 adapters too. 115,200 (0.16% off on an
/// FTDI) is the rate of builds made before the faster links.
pub const BRIDGE_RATES: [u32; 10] =
    [12_000_000, 6_000_000, 4_000_000, 3_000_000, 2_000_000, 1_500_000, 1_000_000, 500_000, 250_000, 115_200];

/// The fewest clocks a bit a board's build takes (the simulated board's own
/// link runs at four, host and device exactly together).
pub const MIN_CLOCKS_PER_BIT: u64 = 8;

/// The most a build's divisor may put its rate off the nominal one.
pub const MAX_DIVISOR_ERROR: f64 = 0.01;

/// Clocks a bit at `clock_hz` for `baud` (rounded, as the build does; a
/// rate of 0 is taken as 1, for the error it makes).
pub fn clocks_per_bit(clock_hz: u64, baud: u64) -> u64 {
    knights_protocol::design::clocks_per_bit(clock_hz, baud.max(1))
}

/// How far a build at `clock_hz` puts `baud` off, as a fraction (positive:
/// fast).
pub fn divisor_error(clock_hz: u64, baud: u64) -> f64 {
    let clocks = clocks_per_bit(clock_hz, baud).max(1);
    (clock_hz / clocks) as f64 / baud as f64 - 1.0
}

/// Why a build at `clock_hz` cannot take `baud` over a bridge that goes up
/// to `bridge_max`, or `None` when it can.
pub fn unfit(clock_hz: u64, baud: u64, bridge_max: u64) -> Option<String> {
    let clocks = clocks_per_bit(clock_hz, baud);
    let error = divisor_error(clock_hz, baud);
    if baud > bridge_max {
        Some(format!("{baud} baud is past the board's USB bridge, which goes up to {bridge_max}"))
    } else if clocks < MIN_CLOCKS_PER_BIT {
        Some(format!(
            "{baud} baud gives the UART {clocks} clocks a bit at {} MHz: a board's build needs at least {MIN_CLOCKS_PER_BIT}",
            clock_hz as f64 / 1e6
        ))
    } else if error.abs() > MAX_DIVISOR_ERROR {
        Some(format!(
            "{baud} baud is {:+.2}% off at {} MHz ({clocks} clocks a bit): a build may be {:.0}% off at most",
            error * 100.0,
            clock_hz as f64 / 1e6,
            MAX_DIVISOR_ERROR * 100.0
        ))
    } else {
        None
    }
}

/// The fastest of [`BRIDGE_RATES`] a build at `clock_hz` can take over a
/// bridge that goes up to `bridge_max`.
pub fn fastest(clock_hz: u64, bridge_max: u64) -> Option<u32> {
    BRIDGE_RATES.into_iter().find(|&baud| unfit(clock_hz, u64::from(baud), bridge_max).is_none())
}

/// The rates to try on a port, in order: `likely` ones first (the rates of
/// the builds of the board the port belongs to), then the rest of
/// [`BRIDGE_RATES`] up to `bridge_max`, fastest first; each once.
pub fn try_order(likely: &[u32], bridge_max: u64) -> Vec<u32> {
    let mut order: Vec<u32> = Vec::new();
    let rest = BRIDGE_RATES.into_iter().filter(|&baud| u64::from(baud) <= bridge_max);
    for baud in likely.iter().copied().chain(rest) {
        if !order.contains(&baud) {
            order.push(baud);
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_divisor_error_is_the_rounded_bit_time_against_the_nominal_one() {
        // 62.5 MHz / 115,200 = 542.5 clocks: 543, 115,101 baud.
        assert_eq!(clocks_per_bit(62_500_000, 115_200), 543);
        assert!((divisor_error(62_500_000, 115_200) - (115_101.0 / 115_200.0 - 1.0)).abs() < 1e-12);
        assert_eq!(divisor_error(12_000_000, 3_000_000), 0.0);
        // 31.25 MHz at 3 Mbaud: 10.4 clocks, 10, 4.2% fast.
        assert!((divisor_error(31_250_000, 3_000_000) - 0.041_666).abs() < 1e-5);
    }

    #[test]
    fn a_rate_past_the_bridge_too_few_clocks_or_too_far_off_is_refused_saying_which() {
        let past = unfit(48_000_000, 6_000_000, 3_000_000).unwrap();
        assert!(past.contains("past the board's USB bridge"), "{past}");
        let short = unfit(12_000_000, 3_000_000, 12_000_000).unwrap();
        assert!(short.contains("4 clocks a bit"), "{short}");
        let off = unfit(31_250_000, 3_000_000, 3_000_000).unwrap();
        assert!(off.contains("+4.17% off"), "{off}");
        assert_eq!(unfit(62_500_000, 3_000_000, 3_000_000), None);
    }

    #[test]
    fn the_fastest_rate_is_the_first_bridge_rate_that_fits() {
        // 62.5 MHz: 3 Mbaud is 20.8 clocks, 21, 0.8% slow.
        assert_eq!(fastest(62_500_000, 3_000_000), Some(3_000_000));
        // 31.25 MHz: 3 and 2 Mbaud are too far off, 1.5 Mbaud 0.8%.
        assert_eq!(fastest(31_250_000, 3_000_000), Some(1_500_000));
        // 12 MHz over an FT2232H: 1.5 Mbaud is eight clocks.
        assert_eq!(fastest(12_000_000, 12_000_000), Some(1_500_000));
        assert_eq!(fastest(48_000_000, 12_000_000), Some(6_000_000));
        assert_eq!(fastest(1_000_000, 12_000_000), None);
    }

    #[test]
    fn the_try_order_puts_the_likely_rates_first_and_each_rate_once() {
        let order = try_order(&[1_500_000, 115_200, 1_500_000], 3_000_000);
        assert_eq!(order[..3], [1_500_000, 115_200, 3_000_000]);
        assert_eq!(order.len(), 7);
        assert!(order.iter().all(|&b| b <= 3_000_000));
    }
}
