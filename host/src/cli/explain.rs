//! Errors as the CLI tells them: the library's message with the fix in terms
//! of this command line's flags, and the exit status.

use std::io;
use std::process::ExitCode;

use knights::device::error::{Capability, DeviceError, LinkError, PortError, RequestError, UsageError};
use knights::plan::ManifestError;

/// What the user sees of a failed command.
#[derive(Debug, PartialEq, Eq)]
pub struct Failure {
    pub message: String,
    /// The input was wrong (exit status 2), rather than something failing
    /// while running it (status 1).
    pub bad_input: bool,
}

impl Failure {
    pub fn exit_code(&self) -> ExitCode {
        ExitCode::from(if self.bad_input { 2 } else { 1 })
    }
}

impl From<anyhow::Error> for Failure {
    fn from(error: anyhow::Error) -> Self {
        match error.downcast::<DeviceError>() {
            Ok(error) => explain(&error),
            Err(error) => {
                // A plan's or result's file that is wrong is wrong input too.
                let bad_input =
                    error.downcast_ref::<UsageError>().is_some() || error.downcast_ref::<ManifestError>().is_some();
                Failure { bad_input, message: format!("{error:#}") }
            }
        }
    }
}

/// A device API error with the fix in this CLI's terms.
pub fn explain(error: &DeviceError) -> Failure {
    let said = chain(error);
    let message = match error {
        DeviceError::Request(RequestError::NoResults) => "--limit must be at least 1".into(),
        DeviceError::Request(RequestError::Engines { device, requested, available }) => {
            format!("--engines {requested}: {device} has 1 to {available} engines")
        }
        DeviceError::Request(RequestError::SplitTooDeep { level, max }) => format!(
            "--split-level {level}: the device hands out jobs at most {max} levels deep; use --split-level {max} or less"
        ),
        DeviceError::Request(RequestError::Unsupported(Capability::Warnsdorff)) => format!("{said}: use --order fixed or rebuild with it"),
        DeviceError::Request(RequestError::Unsupported(Capability::Pruning)) => {
            format!("{said}: use --no-prune or rebuild it with this version")
        }
        DeviceError::Port(PortError::NoPort) => {
            format!("{said}: connect the board, or name its port with --port (`knights ports` lists them)")
        }
        DeviceError::Port(PortError::NoBoardPort(_)) => {
            format!("{said}: name an adapter's port with --port (`knights ports` lists them)")
        }
        DeviceError::Port(PortError::SeveralPorts(_)) => format!("{said}: choose one with --port"),
        DeviceError::Port(PortError::OpenPort { source, .. }) => format!("{said}; {}", port_fix(source.kind())),
        DeviceError::Link(LinkError::Timeout { .. }) => format!("{said} (raise --timeout if it is just slow)"),
        DeviceError::Request(request) => match request_fix(request) {
            Some(fix) => format!("{said}: {fix}"),
            None => said,
        },
        _ => said,
    };
    Failure { message, bad_input: error.is_bad_request() }
}

/// What to do about a refused request, in this command line's options.
fn request_fix(error: &RequestError) -> Option<&'static str> {
    Some(match error {
        RequestError::BoardTooLarge { builds, .. } if !builds.is_empty() => {
            "choose one with --board NAME (knights boards lists them)"
        }
        RequestError::BoardTooLarge { cpu_takes_it: true, .. } => "use --device cpu",
        RequestError::WrongProblem { .. } => "use a device or board build for it (knights boards lists them)",
        RequestError::ConstellationsCountOnly { .. } => "count with --count, or leave out --constellations",
        RequestError::UniqueCountOnly => "use --unique with --count, and leave out --constellations",
        RequestError::NoConstellations { .. } => {
            "leave out --constellations, or use a build with the generator (knights boards lists them)"
        }
        RequestError::NoPrefixJobs { .. } => "run these jobs with --device cpu, or on a knight's-tour board",
        _ => return None,
    })
}

/// What to try when a serial port does not open.
fn port_fix(kind: serialport::ErrorKind) -> &'static str {
    match kind {
        serialport::ErrorKind::NoDevice => {
            "check the cable and the name (knights lists candidates with --device board)"
        }
        serialport::ErrorKind::Io(io::ErrorKind::NotFound) => "no such port: check the name and the cable",
        serialport::ErrorKind::Io(io::ErrorKind::PermissionDenied) => {
            "permission denied: add yourself to the dialout group (or uucp) and log in again"
        }
        _ => "is another program using the port?",
    }
}

/// An error and its causes, as `cause: cause's cause: ...`.
fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn fixes_name_the_flags_and_bad_requests_exit_2() {
        let device = || "/dev/ttyUSB1 at 115200 baud".to_string();
        for (error, expected, bad_input) in [
            (DeviceError::Request(RequestError::NoResults), "--limit must be at least 1", true),
            (
                DeviceError::Request(RequestError::Engines { device: device(), requested: 9, available: 4 }),
                "--engines 9: /dev/ttyUSB1 at 115200 baud has 1 to 4 engines",
                true,
            ),
            (
                DeviceError::Request(RequestError::SplitTooDeep { level: 17, max: 16 }),
                "use --split-level 16 or less",
                true,
            ),
            (
                DeviceError::Request(RequestError::Unsupported(Capability::Warnsdorff)),
                "without Warnsdorff's rule: use --order fixed",
                true,
            ),
            (
                DeviceError::Request(RequestError::Unsupported(Capability::Pruning)),
                "without dead-end pruning: use --no-prune",
                true,
            ),
            (
                DeviceError::Port(PortError::NoPort),
                "no board's USB serial port found: connect the board, or name its port with --port",
                false,
            ),
            (
                DeviceError::Port(PortError::SeveralPorts(vec!["/dev/ttyUSB0".into(), device()])),
                "choose one with --port",
                false,
            ),
            (
                DeviceError::Request(RequestError::ConstellationsCountOnly { n: 3 }),
                "not N = 3 or a first-K search: count with --count, or leave out --constellations",
                true,
            ),
            (
                DeviceError::Link(LinkError::Timeout { device: device(), timeout: Duration::from_secs(5) }),
                "sent nothing for 5.0 s during a search: it may have been reset or unplugged (raise --timeout",
                false,
            ),
        ] {
            let failure = explain(&error);
            assert!(failure.message.contains(expected), "{}", failure.message);
            assert_eq!(failure.bad_input, bad_input, "{}", failure.message);
        }
    }

    #[test]
    fn a_port_that_does_not_open_gets_the_cause_and_the_fix() {
        let source = serialport::Error::new(serialport::ErrorKind::Io(io::ErrorKind::PermissionDenied), "denied");
        let failure = explain(&DeviceError::Port(PortError::OpenPort { path: "/dev/ttyACM0".into(), source }));
        assert_eq!(failure.message, "cannot open serial port /dev/ttyACM0: denied; permission denied: add yourself to the dialout group (or uucp) and log in again");
    }

    #[test]
    fn errors_through_anyhow_keep_their_kind() {
        let failure = Failure::from(anyhow::Error::from(DeviceError::Request(RequestError::NoResults)));
        assert_eq!(failure, Failure { message: "--limit must be at least 1".into(), bad_input: true });
        let usage = Failure::from(anyhow::Error::from(UsageError("--baud 0: too slow".into())));
        assert!(usage.bad_input && usage.message == "--baud 0: too slow");
        let failure = Failure::from(anyhow::anyhow!("no bitstream at x.bin"));
        assert!(!failure.bad_input);
        let lost = DeviceError::Link(LinkError::Lost {
            device: "the board".into(),
            direction: knights::device::error::Direction::Write,
            source: io::Error::other("gone"),
        });
        assert_eq!(explain(&lost).message, "cannot write to the board: was the board unplugged?: gone");
    }
}
