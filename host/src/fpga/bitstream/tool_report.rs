//! Figures read from the FPGA tools' outputs: nextpnr's report and log
//! (utilisation, Fmax) and yosys's cell statistics.

use anyhow::{Context, Result};
use serde::Deserialize;

use crate::fpga::build_report::Usage;

/// `utilization` from nextpnr's `--report` JSON.
pub(super) fn report_utilisation(text: &str) -> Result<Vec<(String, Usage)>> {
    #[derive(Deserialize)]
    struct Report {
        utilization: std::collections::BTreeMap<String, Usage>,
    }
    let report: Report = serde_json::from_str(text).context("nextpnr's report.json")?;
    Ok(report.utilization.into_iter().collect())
}

/// The worst clock in nextpnr's report: (achieved, constraint) in MHz.
pub(super) fn report_fmax(text: &str) -> Result<(f64, f64)> {
    #[derive(Deserialize)]
    struct Clock {
        achieved: f64,
        constraint: f64,
    }
    #[derive(Deserialize)]
    struct Report {
        fmax: std::collections::BTreeMap<String, Clock>,
    }
    let report: Report = serde_json::from_str(text).context("nextpnr's report.json")?;
    report
        .fmax
        .values()
        .map(|c| (c.achieved, c.constraint))
        .min_by(|a, b| (a.0 / a.1).total_cmp(&(b.0 / b.1)))
        .context("nextpnr's report has no clock: is the design clock connected?")
}

/// The "Device utilisation" lines of a nextpnr log (`  ICESTORM_LC:  6811/ 7680    88%`),
/// for when it stopped before writing its report.
pub(super) fn log_utilisation(log: &str) -> Vec<(String, Usage)> {
    log.lines()
        .filter_map(|line| {
            let line = line.trim_start_matches("Info:").trim();
            let (kind, rest) = line.split_once(':')?;
            let (used, rest) = rest.split_once('/')?;
            let available = rest.split_whitespace().next()?;
            if kind.contains(' ') {
                return None;
            }
            Some((kind.to_string(), Usage { used: used.trim().parse().ok()?, available: available.parse().ok()? }))
        })
        .collect()
}

/// Where nextpnr gave up, read from the first `ERROR:` line of its log.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum GaveUp {
    /// It found no legal place for some cell: the part is too full.
    Placing,
    /// It could not route every connection: the fabric is congested.
    Routing,
}

pub(super) fn nextpnr_gave_up(log: &str) -> Option<GaveUp> {
    let error = log.lines().find_map(|line| line.trim().strip_prefix("ERROR:"))?.to_ascii_lowercase();
    // (HeAP: "Unable to find legal placement for cell"; the annealer: "failed
    // to place cell"; the routers: "Failed to route", "routing failed".)
    if error.contains("placement") || error.contains("to place") {
        Some(GaveUp::Placing)
    } else if error.contains("rout") {
        Some(GaveUp::Routing)
    } else {
        None
    }
}

/// Cell counts from yosys's `stat -json`.
pub(super) fn stat_cells(text: &str) -> Result<Vec<(String, u64)>> {
    let stat: serde_json::Value = serde_json::from_str(text).context("yosys's stat.json")?;
    let cells = stat["design"]["num_cells_by_type"].as_object().context("stat.json has no design cell counts")?;
    Ok(cells.iter().map(|(k, v)| (k.clone(), v.as_u64().unwrap_or(0))).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_nextpnr_reports_and_logs() {
        let report = r#"{"fmax": {"a": {"achieved": 29.6, "constraint": 25}, "b": {"achieved": 120.0, "constraint": 100}},
            "utilization": {"ICESTORM_LC": {"available": 7680, "used": 6811}}}"#;
        assert_eq!(report_fmax(report).unwrap(), (29.6, 25.0), "the clock with the least slack");
        assert_eq!(report_utilisation(report).unwrap()[0].1, Usage { used: 6811, available: 7680 });
        let log = "Info: Device utilisation:\nInfo: \t         ICESTORM_LC:  9811/ 7680   127%\nInfo: \t        ICESTORM_RAM:     4/   32    12%\nInfo: Placed 12 cells\n";
        assert_eq!(
            log_utilisation(log),
            vec![
                ("ICESTORM_LC".to_string(), Usage { used: 9811, available: 7680 }),
                ("ICESTORM_RAM".to_string(), Usage { used: 4, available: 32 })
            ]
        );
        let stat = r#"{"design": {"num_cells_by_type": {"SB_LUT4": 4, "SB_DFF": 3, "SB_DFFE": 2}}}"#;
        assert_eq!(stat_cells(stat).unwrap().len(), 3);
    }

    #[test]
    fn tells_where_nextpnr_gave_up() {
        // (The end of the 85F's log when 96 queens searches with the last
        // three ranks counted at once took 85% of its cells.)
        let placing = "Info: \t        TRELLIS_COMB:   71452/  83640    85%\nInfo: Running main analytical placer.\n\
            ERROR: Unable to find legal placement for cell 'accelerator.engines$1.path.q_TRELLIS_FF_Q_16_DI_LUT4_Z' \
            of type 'TRELLIS_COMB' after 158074789 attempts, check constraints and utilisation.\n0 warnings, 1 error\n";
        assert_eq!(nextpnr_gave_up(placing), Some(GaveUp::Placing));
        assert_eq!(nextpnr_gave_up("ERROR: failed to place cell 'x' of type 'ICESTORM_LC'\n"), Some(GaveUp::Placing));
        assert_eq!(nextpnr_gave_up("Info: routing\nERROR: Failed to route arc 3 of net 'n'.\n"), Some(GaveUp::Routing));
        assert_eq!(nextpnr_gave_up("ERROR: Max frequency for clock 'c': 26.23 MHz (FAIL at 30.02 MHz)\n"), None);
        assert_eq!(nextpnr_gave_up("Info: Program finished normally.\n"), None);
    }
}
