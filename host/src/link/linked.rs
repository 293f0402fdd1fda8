//! A device reached over a [`Link`]: connected and identified, told which
//! engines to use and where to split, and one conversation per search
//! ([`LinkedDevice::converse`]) whose results each problem's device trait
//! decodes (`crate::tours::device`, `crate::queens::device`).

use std::collections::HashMap;
use std::time::Duration;

use super::proto::{code, Command, ErrorCode, Identity, Response};
use super::transport::{SerialTransport, Transport};
use super::Link;
use crate::device::error::{DeviceError, LinkError, RequestError};
use crate::device::{Device, EngineFigures, Problem, Report};
use knights_model::{Flow, Status};

/// A device reached over a link: the simulated board or a real one.
pub struct LinkedDevice<T: Transport> {
    name: &'static str,
    link: Link<T>,
    identity: Identity,
    /// How long the device may stay silent during a search.
    timeout: Duration,
    /// The split level to ask for; `None` picks one for the device's engines.
    split: Option<u8>,
    /// Engines to use; `None` uses all.
    engines: Option<u8>,
    /// The rate the link's time is modeled at: the port's, or for the
    /// simulated board the build's (its own fast UART is no board's).
    line_baud: u64,
}

/// How long a rate is given to answer IDENTIFY when the host looks for the
/// rate a board talks at (its answer takes 2 ms at 115,200 baud).
const RATE_PROBE: Duration = Duration::from_millis(300);

impl<T: Transport> LinkedDevice<T> {
    /// Connects and identifies the device; `name` is how `--device` calls it.
    /// A search left running by an earlier session (one stopped with
    /// Ctrl-C, say) is aborted, so the device starts idle.
    pub fn connect(name: &'static str, transport: T, timeout: Duration) -> Result<Self, DeviceError> {
        let mut link = Link::new(transport);
        let identity = link.identify(timeout)?;
        Self::identified(name, link, identity, timeout)
    }

    /// The device on `link`, which answered IDENTIFY with `identity`, made
    /// idle.
    fn identified(
        name: &'static str,
        link: Link<T>,
        identity: Identity,
        timeout: Duration,
    ) -> Result<Self, DeviceError> {
        let line_baud = u64::from(identity.baud);
        let mut device = LinkedDevice { name, link, identity, timeout, split: None, engines: None, line_baud };
        device.link.send(&Command::Status)?;
        loop {
            match device.next()? {
                Response::Progress { searching: false, .. } => break,
                Response::Progress { searching: true, .. } => {
                    device.link.send(&Command::Abort)?;
                    device.drain_until_done()?;
                    break;
                }
                _ => continue,
            }
        }
        Ok(device)
    }

    pub fn identity(&self) -> Identity {
        self.identity
    }

    /// Models the link's time at `baud` (the simulated board's build's rate,
    /// not its fast simulated UART's).
    pub fn set_line_baud(&mut self, baud: u64) {
        self.line_baud = baud;
    }

    pub fn link(&mut self) -> &mut Link<T> {
        &mut self.link
    }

    /// Fixes the split level of the following searches (0: engine 0 alone,
    /// in the reference's order); `None` picks one for the engine count.
    pub fn set_split(&mut self, level: Option<u8>) {
        self.split = level;
    }

    /// Uses only the first `engines` engines of the device (`None`: all).
    pub fn set_engines(&mut self, engines: Option<u8>) -> Result<(), DeviceError> {
        if let Some(n) = engines {
            if n == 0 || n > self.identity.engines {
                return Err(DeviceError::Request(RequestError::Engines {
                    device: self.describe(),
                    requested: n,
                    available: self.identity.engines,
                }));
            }
        }
        self.engines = engines;
        Ok(())
    }

    /// Engines a split search runs on.
    pub fn engines(&self) -> u8 {
        self.engines.unwrap_or(self.identity.engines)
    }

    /// The split level set by [`Self::set_split`], if any.
    pub fn split(&self) -> Option<u8> {
        self.split
    }

    /// The engines asked for by [`Self::set_engines`] (0: all), as a
    /// command gives them.
    pub fn engines_asked(&self) -> u8 {
        self.engines.unwrap_or(0)
    }

    /// The device as its transport describes it, for messages.
    pub fn describe(&self) -> String {
        self.link.transport.describe()
    }

    /// Waits for the next response of a running search.
    fn next(&mut self) -> Result<Response, DeviceError> {
        self.link
            .receive(self.timeout)?
            .ok_or_else(|| DeviceError::Link(LinkError::Timeout { device: self.describe(), timeout: self.timeout }))
    }
}

impl<T: Transport> Device for LinkedDevice<T> {
    fn name(&self) -> &'static str {
        self.name
    }

    fn build_id(&self) -> Option<u32> {
        Some(self.identity.build_id)
    }
}

/// Where a search's results go: tours or solutions, as their sinks take
/// them.
pub trait Results {
    fn result(&mut self, items: &[u8]) -> Result<(), DeviceError>;
    fn progress(&mut self, nodes: u64, results: u64) -> Flow;
}

impl<T: Transport> LinkedDevice<T> {
    /// The problem this device's build solves.
    pub fn problem(&self) -> Problem {
        if self.identity.queens {
            Problem::Queens
        } else {
            Problem::Tours
        }
    }

    /// Fails unless the build solves `asked`.
    pub fn expect(&self, asked: Problem) -> Result<(), DeviceError> {
        if self.problem() == asked {
            Ok(())
        } else {
            Err(DeviceError::Request(RequestError::WrongProblem {
                device: self.describe(),
                build: self.problem(),
                asked,
            }))
        }
    }

    /// One search on the device: the command, its ACK, the results (each
    /// checked for its sequence number and job tags) and the DONE.
    pub fn converse(
        &mut self,
        command: Command,
        split: u8,
        prefix_items: usize,
        results: &mut dyn Results,
    ) -> Result<Report, DeviceError> {
        let start = self.link.figures(0, self.line_baud);
        let code = command.code();
        self.link.send(&command)?;
        // Answers to earlier commands may still be on the way; ours is the
        // first ACK or ERROR about this command.
        loop {
            match self.next()? {
                Response::Ack { command } if command == code => break,
                Response::Error { code: ErrorCode::Busy, command } if command == code => {
                    return Err(DeviceError::Link(LinkError::Busy { device: self.describe() }))
                }
                Response::Error { code, command } => {
                    return Err(DeviceError::Link(LinkError::Refused { device: self.describe(), code, command }))
                }
                _ => continue,
            }
        }
        let mut received = 0u64;
        let mut stopping = false;
        let mut tags = JobTags::new(split, prefix_items, self.identity.engines);
        loop {
            match self.next()? {
                Response::Tour { sequence, engine, job, squares } => {
                    received += 1;
                    if u64::from(sequence) != received & 0xFFFF_FFFF {
                        return Err(DeviceError::Link(LinkError::ResultsLost {
                            device: self.describe(),
                            number: received,
                            sequence,
                        }));
                    }
                    if let Err(problem) = tags.check(engine, job, &squares) {
                        return Err(DeviceError::Link(LinkError::MixedStreams {
                            device: self.describe(),
                            number: received,
                            problem,
                        }));
                    }
                    if let Err(error) = results.result(&squares) {
                        // Leave the device idle for the next search.
                        self.link.send(&Command::Abort)?;
                        let _ = self.drain_until_done();
                        return Err(error);
                    }
                }
                Response::Progress { searching: true, counters } => {
                    if !stopping && results.progress(counters.nodes, counters.tours) == Flow::Stop {
                        self.link.send(&Command::Abort)?;
                        stopping = true;
                    }
                }
                Response::Done { status, counters } => {
                    let status = match status {
                        code::STATUS_FOUND => Status::Found,
                        code::STATUS_EXHAUSTED => Status::Exhausted,
                        code::STATUS_ABORTED => Status::Aborted,
                        status => {
                            return Err(DeviceError::Link(LinkError::UnknownStatus { device: self.describe(), status }))
                        }
                    };
                    let figures = self.link.figures(u64::from(self.identity.clock_hz), self.line_baud).since(start);
                    return Ok(Report {
                        found: counters.tours,
                        nodes: counters.nodes,
                        status,
                        cycles: Some(counters.cycles),
                        engines: Some(EngineFigures {
                            engines: self.engines(),
                            split_level: split,
                            engine_cycles: counters.engine_cycles,
                        }),
                        link: Some(figures),
                    });
                }
                Response::Error { code, .. } => {
                    return Err(DeviceError::Link(LinkError::Failed { device: self.describe(), code }))
                }
                Response::Ack { .. } | Response::Identity(_) | Response::Progress { .. } => {}
            }
        }
    }
}

impl<T: Transport> LinkedDevice<T> {
    fn drain_until_done(&mut self) -> Result<(), DeviceError> {
        loop {
            if let Response::Done { .. } = self.next()? {
                return Ok(());
            }
        }
    }
}

/// Checks the engine and job tags of a search's tours: every tour of a job
/// starts with that job's path down to the split level, and no two jobs share
/// one, so tours from different engines cannot have been mixed up.
struct JobTags {
    split: u8,
    /// Items of a result that are its job's path.
    prefix_items: usize,
    engines: u8,
    paths: HashMap<u32, Vec<u8>>,
    jobs: HashMap<Vec<u8>, u32>,
}

impl JobTags {
    fn new(split: u8, prefix_items: usize, engines: u8) -> Self {
        JobTags { split, prefix_items, engines, paths: HashMap::new(), jobs: HashMap::new() }
    }

    fn check(&mut self, engine: u8, job: u32, squares: &[u8]) -> Result<(), String> {
        if engine >= self.engines {
            return Err(format!("it names engine {engine}, and the device has {}", self.engines));
        }
        if self.split == 0 && (engine != 0 || job != 0) {
            return Err(format!("an unsplit search ran on engine 0 alone, yet it names engine {engine} job {job}"));
        }
        let Some(path) = squares.get(..self.prefix_items) else {
            return Err(format!("{} items are shorter than the split level {}", squares.len(), self.split));
        };
        let known_path = self.paths.entry(job).or_insert_with(|| path.to_vec());
        let known_job = *self.jobs.entry(path.to_vec()).or_insert(job);
        if known_path.as_slice() != path || known_job != job {
            return Err(format!(
                "job {job} (engine {engine}) does not match the path earlier tours of its job took: streams were mixed"
            ));
        }
        Ok(())
    }
}

impl LinkedDevice<SerialTransport> {
    /// Opens the port at `path` and finds the rate its board talks at:
    /// IDENTIFY at each of `rates` in turn (the port's rate changed in place,
    /// its control lines untouched), the first that answers kept. A port that
    /// fails to open or vanishes is an error at once.
    pub fn open_finding_rate(
        name: &'static str,
        path: &str,
        rates: &[u32],
        timeout: Duration,
    ) -> Result<Self, DeviceError> {
        let mut transport = SerialTransport::open(path, rates.first().copied().unwrap_or(115_200))?;
        for &baud in rates {
            transport.set_baud(baud)?;
            let mut link = Link::new(transport);
            match link.identify(RATE_PROBE) {
                Ok(identity) => {
                    let mut device = Self::identified(name, link, identity, timeout)?;
                    device.set_line_baud(u64::from(baud));
                    return Ok(device);
                }
                Err(lost @ DeviceError::Link(LinkError::Lost { .. })) => return Err(lost),
                // Silence, ERROR frames or garbage: not this rate.
                Err(_) => transport = link.into_transport(),
            }
        }
        Err(DeviceError::Link(LinkError::NoRate { device: path.to_string(), tried: rates.to_vec() }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn job_tags_catch_mixed_streams() {
        let mut tags = JobTags::new(2, 3, 4);
        assert!(tags.check(1, 7, &[0, 10, 20, 3]).is_ok());
        assert!(tags.check(2, 7, &[0, 10, 20, 5]).is_ok(), "a job's tours share its path");
        assert!(tags.check(0, 8, &[0, 10, 22, 3]).is_ok());
        assert!(tags.check(1, 7, &[0, 10, 22, 9]).is_err(), "job 7 took another path");
        assert!(tags.check(3, 9, &[0, 10, 20, 9]).is_err(), "that path is job 7's");
        assert!(tags.check(4, 1, &[0, 10, 21]).is_err(), "no engine 4");
        assert!(tags.check(0, 1, &[0, 10]).is_err(), "shorter than the split level");
        let mut unsplit = JobTags::new(0, 1, 4);
        assert!(unsplit.check(0, 0, &[0, 10]).is_ok());
        assert!(unsplit.check(1, 0, &[0, 10]).is_err());
    }
}
