//! The device a search runs on, as `--device`, `--port` and their options
//! name it.

use std::io::Write;
use std::time::Duration;

use anyhow::Result;
use knights::device::error::UsageError;
use knights::device::{CpuDevice, Problem};
use knights::link::transport::{self, PortRole, SerialTransport, UsbSerial};
use knights::link::LinkedDevice;
use knights::plan::AnyDevice;
use knights::queens::QueensDevice;
use knights::tours::TourDevice;

use super::args::{DeviceArgs, DeviceKind, ListFormat};

impl DeviceArgs {
    /// Connects to the device for knight's tours; its errors are explained
    /// by the caller.
    pub fn open_tours(&self) -> Result<Box<dyn TourDevice + Send>> {
        Ok(self.open_for(Problem::Tours)?)
    }

    /// Connects to every device given, for a knight's-tour count.
    pub fn open_all_tours(&self) -> Result<Vec<Box<dyn TourDevice + Send>>> {
        Ok(self.open_all(Problem::Tours)?.into_iter().map(|device| device as Box<dyn TourDevice + Send>).collect())
    }

    /// Connects to the device for N-Queens.
    pub fn open_queens(&self) -> Result<Box<dyn QueensDevice + Send>> {
        Ok(self.open_for(Problem::Queens)?)
    }

    /// Connects to every device given, for an N-Queens count.
    pub fn open_all_queens(&self) -> Result<Vec<Box<dyn QueensDevice + Send>>> {
        Ok(self.open_all(Problem::Queens)?.into_iter().map(|device| device as Box<dyn QueensDevice + Send>).collect())
    }

    /// Connects to the one device for `problem`: the default simulated
    /// board is that problem's.
    pub fn open_for(&self, problem: Problem) -> Result<Box<dyn AnyDevice + Send>> {
        let mut devices = self.open_all(problem)?;
        if devices.len() > 1 {
            return Err(UsageError(format!(
                "{} devices were given, but this search runs on one: several devices share the jobs of `knights count` and `knights queens --count`",
                devices.len()
            ))
            .into());
        }
        Ok(devices.remove(0))
    }

    /// Connects to every device given (`--port` several times,
    /// `--all-ports`, `--boards N`), for a count whose jobs they share.
    pub fn open_all(&self, problem: Problem) -> Result<Vec<Box<dyn AnyDevice + Send>>> {
        let ports_given = !self.port.is_empty() || self.all_ports;
        let kind = match (self.device, ports_given) {
            (None, true) | (Some(DeviceKind::Board), _) => DeviceKind::Board,
            (Some(kind), true) => {
                return Err(UsageError(format!(
                    "--port and --all-ports name boards' serial ports, but --device is {kind:?}: drop one of them"
                ))
                .into())
            }
            (kind, false) => kind.unwrap_or(DeviceKind::Sim),
        };
        if kind == DeviceKind::Cpu && (self.split_level.is_some() || self.engines.is_some()) {
            return Err(UsageError(
                "--split-level and --engines are for the sim and board devices; the CPU uses --threads".into(),
            )
            .into());
        }
        if (self.board.is_some() || self.trace.is_some() || self.boards > 1) && kind != DeviceKind::Sim {
            return Err(UsageError(format!(
                "--board, --boards and --trace are for the simulated board, but the device is {}: use --device sim (flashed boards are reached with --port)",
                format!("{kind:?}").to_lowercase()
            ))
            .into());
        }
        if self.trace.is_some() && self.boards > 1 {
            return Err(
                UsageError("--trace writes one board's waveform: use it with one simulated board".into()).into()
            );
        }
        let seconds = self.timeout.unwrap_or(if kind == DeviceKind::Sim { 60.0 } else { 5.0 });
        if !(seconds > 0.0 && seconds.is_finite()) {
            return Err(UsageError("--timeout must be a positive number of seconds".into()).into());
        }
        let timeout = Duration::from_secs_f64(seconds);
        Ok(match kind {
            DeviceKind::Cpu => {
                let mut cpu = CpuDevice::all_cores();
                if let Some(threads) = self.threads {
                    cpu.threads = usize::from(threads);
                }
                vec![Box::new(cpu)]
            }
            DeviceKind::Sim => (0..self.boards).map(|_| self.simulated(problem, timeout)).collect::<Result<_>>()?,
            DeviceKind::Board => {
                let paths = match (self.all_ports, self.port.is_empty()) {
                    (true, _) => transport::boards_uarts(&SerialTransport::usb_ports()?, &port_role)?,
                    (false, true) => vec![transport::choose_port(&SerialTransport::usb_ports()?, &port_role)?],
                    (false, false) => self.port.clone(),
                };
                let mut boards: Vec<Box<dyn AnyDevice + Send>> = Vec::new();
                for path in paths {
                    let mut board = match self.baud {
                        Some(baud) => {
                            let mut board =
                                LinkedDevice::connect("board", SerialTransport::open(&path, baud)?, timeout)?;
                            board.set_line_baud(u64::from(baud));
                            board
                        }
                        None => LinkedDevice::open_finding_rate("board", &path, &rates_to_try(&path), timeout)?,
                    };
                    board.set_split(self.split_level);
                    board.set_engines(self.engines)?;
                    boards.push(Box::new(board));
                }
                boards
            }
        })
    }

    #[cfg(feature = "sim")]
    fn simulated(&self, problem: Problem, timeout: Duration) -> Result<Box<dyn AnyDevice + Send>> {
        use knights::link::transport::SimTransport;
        let transport = match (problem, &self.board, &self.trace) {
            (Problem::Tours, None, None) => SimTransport::new(),
            (problem, board, trace) => SimTransport::on(simulated_board(problem, board.as_deref(), trace.as_deref())?),
        };
        let mut sim = LinkedDevice::connect("sim", transport, timeout)?;
        // The link's time at the build's rate, not the simulated UART's.
        if let Some(baud) = self.baud.map(u64::from).or_else(|| self.board.as_deref().and_then(build_baud)) {
            sim.set_line_baud(baud);
        }
        sim.set_split(self.split_level);
        sim.set_engines(self.engines)?;
        Ok(Box::new(sim))
    }

    #[cfg(not(feature = "sim"))]
    fn simulated(&self, _problem: Problem, _timeout: Duration) -> Result<Box<dyn AnyDevice + Send>> {
        Err(UsageError(format!(
            "the simulated board (the default device) {}: use --device cpu, or --port for a board",
            super::missing_feature("sim")
        ))
        .into())
    }
}

/// `knights ports`: every USB serial port, its identity and which board's
/// it likely is, the one `--device board` takes without --port marked;
/// with `probe`, what each board's UART (and, with `probe_unknown`, each
/// other port) answers to IDENTIFY.
pub fn ports(
    probe: bool,
    probe_unknown: bool,
    baud: Option<u32>,
    format: ListFormat,
    out: &mut dyn Write,
) -> Result<()> {
    let ports = SerialTransport::usb_ports()?;
    let chosen = transport::choose_port(&ports, &port_role).ok();
    let mut listed = Vec::new();
    for port in &ports {
        let role = port_role(port);
        let asked = probe && (matches!(role, PortRole::Uart(_)) || (probe_unknown && role == PortRole::Unknown));
        let answer = asked.then(|| {
            let rates = baud.map_or_else(|| rates_to_try(&port.path), |baud| vec![baud]);
            LinkedDevice::open_finding_rate("board", &port.path, &rates, Duration::from_secs(2)).map_or_else(
                |error| format!("no knights build answered ({error})"),
                |board| {
                    let id = board.identity();
                    format!(
                        "a knights {:?} build: {} engines, boards up to {}x{}, {} MHz, {} baud; {}",
                        board.problem(),
                        id.engines,
                        id.max_width,
                        id.max_height,
                        id.clock_hz as f64 / 1e6,
                        id.baud,
                        super::reports::which_build(id.build_id)
                    )
                },
            )
        });
        listed.push((port, role, answer));
    }
    match format {
        ListFormat::Json => {
            let json: Vec<serde_json::Value> = listed
                .iter()
                .map(|(port, role, answer)| {
                    let (kind, board) = match role {
                        PortRole::Uart(board) => ("uart", Some(board.clone())),
                        PortRole::NotUart(what) => ("other", Some(what.clone())),
                        PortRole::Unknown => ("unknown", None),
                    };
                    serde_json::json!({
                        "port": port,
                        "role": kind,
                        "board": board,
                        "chosen": chosen.as_deref() == Some(&port.path),
                        "probe": answer,
                    })
                })
                .collect();
            writeln!(out, "{}", serde_json::to_string_pretty(&json)?)?;
        }
        ListFormat::Text if listed.is_empty() => writeln!(out, "no USB serial port found")?,
        ListFormat::Text => {
            for (port, role, answer) in &listed {
                let mark = if chosen.as_deref() == Some(&port.path) { "* " } else { "  " };
                writeln!(out, "{mark}{}", port_line(port, role))?;
                if let Some(answer) = answer {
                    writeln!(out, "    {answer}")?;
                }
            }
            if chosen.is_some() {
                writeln!(out, "(* the port --device board takes without --port)")?;
            }
        }
    }
    Ok(())
}

/// `knights doctor`: every check's finding, each problem with its fix; an
/// error when there is a problem.
pub fn doctor(format: ListFormat, out: &mut dyn Write) -> Result<()> {
    use knights::doctor::{examine, Level};
    #[cfg(all(feature = "sim", feature = "fpga"))]
    let cache = Some(knights::fpga::board_sim::cache_root());
    #[cfg(not(all(feature = "sim", feature = "fpga")))]
    let cache: Option<std::path::PathBuf> = None;
    let ports = SerialTransport::usb_ports()
        .map(|ports| ports.iter().map(|port| port_line(port, &port_role(port))).collect())
        .map_err(|error| error.to_string());
    let findings = examine(cache.as_deref(), ports);
    match format {
        ListFormat::Json => writeln!(out, "{}", serde_json::to_string_pretty(&findings)?)?,
        ListFormat::Text => {
            for finding in &findings {
                let level = match finding.level {
                    Level::Ok => "ok",
                    Level::Note => "note",
                    Level::Problem => "PROBLEM",
                };
                writeln!(out, "{level:<8} {}: {}", finding.what, finding.detail)?;
                if let Some(fix) = &finding.fix {
                    writeln!(out, "         fix: {fix}")?;
                }
            }
        }
    }
    let problems = findings.iter().filter(|f| f.level == Level::Problem).count();
    if problems > 0 {
        anyhow::bail!(
            "{problems} problem{} found: fix {} as shown, then run knights doctor again",
            if problems == 1 { "" } else { "s" },
            if problems == 1 { "it" } else { "them" }
        );
    }
    Ok(())
}

/// The rates to try on the port at `path`, by the board it is (a port the
/// system does not list, a pseudo-terminal say, is no known board's).
fn rates_to_try(path: &str) -> Vec<u32> {
    #[cfg(feature = "fpga")]
    {
        let port = SerialTransport::usb_ports().ok().and_then(|ports| ports.into_iter().find(|p| p.path == path));
        knights::fpga::ports::rates_to_try(&port.map_or(PortRole::Unknown, |p| port_role(&p)))
    }
    #[cfg(not(feature = "fpga"))]
    {
        let _ = path;
        knights::link::rates::try_order(&[], u64::MAX)
    }
}

/// The baud rate of the board file's build `name` (the simulated board's
/// line is modeled at it).
#[cfg(feature = "sim")]
fn build_baud(name: &str) -> Option<u64> {
    #[cfg(feature = "fpga")]
    return knights::fpga::boards::find(name).ok().map(|board| board.build.design.baud);
    #[cfg(not(feature = "fpga"))]
    {
        let _ = name;
        None
    }
}

/// A port's line in `knights ports`.
fn port_line(port: &UsbSerial, role: &PortRole) -> String {
    #[cfg(feature = "fpga")]
    return knights::fpga::ports::describe(port, role);
    #[cfg(not(feature = "fpga"))]
    {
        let _ = role;
        port.describe()
    }
}

/// Which board a USB serial port is, by its identity: from the boards'
/// files with the FPGA flow, else no port is known (the one port present is
/// taken).
pub(super) fn port_role(port: &UsbSerial) -> PortRole {
    #[cfg(feature = "fpga")]
    return knights::fpga::ports::role(port);
    #[cfg(not(feature = "fpga"))]
    {
        let _ = port;
        PortRole::Unknown
    }
}

/// The default simulated knight's-tour board, as `--device sim` opens it.
#[cfg(feature = "sim")]
pub(super) fn default_simulated() -> Result<Box<dyn TourDevice + Send>> {
    let transport = knights::link::transport::SimTransport::new();
    Ok(Box::new(LinkedDevice::connect("sim", transport, Duration::from_secs(60))?))
}

#[cfg(not(feature = "sim"))]
pub(super) fn default_simulated() -> Result<Box<dyn TourDevice + Send>> {
    Err(UsageError(format!("the simulated board {}: drop --on-sim", super::missing_feature("sim"))).into())
}

/// A simulated board of the build called `board` (or the default build for
/// `problem`), writing a waveform to `trace` if given.
#[cfg(all(feature = "sim", feature = "fpga"))]
pub(super) fn simulated_board(
    problem: Problem,
    board: Option<&str>,
    trace: Option<&std::path::Path>,
) -> Result<knights_sim::SimulatedBoard> {
    let say = &mut |line: &str| eprintln!("{line}");
    let model = match (board, problem) {
        (Some(name), _) => knights::fpga::board_sim::model(&knights::fpga::boards::find(name)?, trace.is_some(), say)?,
        (None, Problem::Tours) => knights::fpga::board_sim::default_traced(say)?,
        (None, Problem::Queens) => knights::fpga::board_sim::default_queens(trace.is_some(), say)?,
    };
    let mut simulated = knights_sim::SimulatedBoard::on(model);
    if let Some(path) = trace {
        simulated.trace_to(path).map_err(|reason| anyhow::anyhow!("--trace {}: {reason}", path.display()))?;
    }
    Ok(simulated)
}

#[cfg(all(feature = "sim", not(feature = "fpga")))]
pub(super) fn simulated_board(
    _: Problem,
    _: Option<&str>,
    _: Option<&std::path::Path>,
) -> Result<knights_sim::SimulatedBoard> {
    Err(UsageError(format!(
        "--board, --trace and the simulated N-Queens board (models made at run time) {}",
        super::missing_feature("fpga")
    ))
    .into())
}
