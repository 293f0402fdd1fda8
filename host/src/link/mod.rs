//! The link to a device at the far end of a [`Transport`] (a byte pipe:
//! [`transport`]): frames ([`proto`]) out and in over it ([`Link`]), and a
//! device reached that way ([`LinkedDevice`]: the simulated board or a real
//! one), which each problem's device trait runs its searches on, so the
//! simulated board and a real board over a serial port behave the same for
//! everything above.

pub mod linked;
pub mod proto;
pub mod rates;
pub mod transport;

use std::time::{Duration, Instant};

use crate::device::error::{DeviceError, Direction, LinkError};
use crate::device::LinkFigures;
pub use linked::{LinkedDevice, Results};
use proto::{Command, FrameDecoder, Identity, Response, VERSION};
use transport::Transport;

/// Payload bytes a frame can have: a tour on the largest board a build
/// takes (40x40), two bytes a square.
const MAX_PAYLOAD: usize = proto::TOUR_HEADER + 2 * 40 * 40;

/// How long the line may be quiet mid-frame before the bytes after the
/// frame's sync byte are searched for a whole frame (which would show that
/// sync byte to be noise).
const FRAME_GAP: Duration = Duration::from_millis(50);

/// IDENTIFY is sent again this many times at most when the device answers
/// it with an ERROR (see [`Link::identify`]), each after the line has been
/// quiet this long: longer than a device's frame timeout (10 ms).
const IDENTIFY_RETRIES: u32 = 3;
const DIRTY_LINE_QUIET: Duration = Duration::from_millis(30);

/// Frames over a transport.
pub struct Link<T: Transport> {
    transport: T,
    decoder: FrameDecoder,
    bytes_sent: u64,
    bytes_received: u64,
}

impl<T: Transport> Link<T> {
    pub fn new(transport: T) -> Self {
        Link { transport, decoder: FrameDecoder::new(MAX_PAYLOAD), bytes_sent: 0, bytes_received: 0 }
    }

    pub fn transport(&mut self) -> &mut T {
        &mut self.transport
    }

    /// The transport back, the link's state dropped.
    pub fn into_transport(self) -> T {
        self.transport
    }

    pub fn send(&mut self, command: &Command) -> Result<(), DeviceError> {
        let bytes = command.encode();
        self.transport.write_all(&bytes).map_err(|source| {
            DeviceError::Link(LinkError::Lost {
                device: self.transport.describe(),
                direction: Direction::Write,
                source,
            })
        })?;
        self.bytes_sent += bytes.len() as u64;
        Ok(())
    }

    /// The next response, or `None` when none came within `timeout`.
    pub fn receive(&mut self, timeout: Duration) -> Result<Option<Response>, DeviceError> {
        let deadline = Instant::now() + timeout;
        let mut buffer = [0u8; 1024];
        loop {
            if let Some(frame) = self.decoder.next_frame() {
                return Ok(Some(frame?));
            }
            let left = deadline.saturating_duration_since(Instant::now());
            // Wait in short slices while a frame is under way: a sync byte
            // from line noise, its length running past the frames after it,
            // is found out once the line goes quiet (the whole frames after
            // it are taken). A frame under way is never given up for a
            // pause: a pseudo-terminal bridge to a simulated board, or a USB
            // adapter, can pause mid-frame, and giving it up loses a result.
            // It gets the whole gap, deadline or not, and is kept past the
            // deadline for the next call.
            let in_frame = self.decoder.pending() > 0;
            let wait = if in_frame { FRAME_GAP } else { left.min(Duration::from_millis(100)) };
            let n = self.transport.read(&mut buffer, wait).map_err(|source| {
                DeviceError::Link(LinkError::Lost {
                    device: self.transport.describe(),
                    direction: Direction::Read,
                    source,
                })
            })?;
            self.bytes_received += n as u64;
            self.decoder.push(&buffer[..n]);
            if n == 0 {
                if in_frame && self.decoder.skip_noise_before_a_whole_frame() {
                    continue;
                }
                if left.is_zero() {
                    return Ok(None);
                }
            }
        }
    }

    /// Asks the device what it is, skipping what an earlier session left on
    /// the line. A frame an earlier host left half-sent (killed while
    /// writing) swallows the first IDENTIFY, which the device then answers
    /// with an ERROR: the line is let go quiet past the device's frame
    /// timeout and IDENTIFY sent again, a few times at most.
    pub fn identify(&mut self, timeout: Duration) -> Result<Identity, DeviceError> {
        self.send(&Command::Identify)?;
        let deadline = Instant::now() + timeout;
        let (mut retries, mut errors, mut last_error) = (0, 0, None);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let response = self.receive(left)?;
            if let Some(Response::Error { code, .. }) = response {
                (errors, last_error) = (errors + 1, Some(code));
            }
            match response {
                Some(Response::Error { .. }) if retries < IDENTIFY_RETRIES => {
                    retries += 1;
                    while self.receive(DIRTY_LINE_QUIET)?.is_some() {}
                    self.send(&Command::Identify)?;
                }
                Some(Response::Identity(identity)) => {
                    if identity.version != VERSION {
                        return Err(DeviceError::Link(LinkError::Version {
                            device: self.transport.describe(),
                            version: identity.version,
                            host: VERSION,
                        }));
                    }
                    return Ok(identity);
                }
                Some(_) => continue,
                None => {
                    let device = self.transport.describe();
                    return Err(match last_error {
                        Some(last) => DeviceError::Link(LinkError::DirtyLine { device, errors, last }),
                        None => DeviceError::Link(LinkError::NoAnswer { device, timeout }),
                    });
                }
            }
        }
    }

    /// What crossed the link so far; its time is modeled at `baud`.
    pub fn figures(&self, clock_hz: u64, baud: u64) -> LinkFigures {
        LinkFigures {
            clock_hz,
            baud,
            bytes_sent: self.bytes_sent,
            bytes_received: self.bytes_received,
            bytes_skipped: self.decoder.skipped(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::proto::{code, ErrorCode};
    use crate::link::transport::scripted::{tour_identity, Scripted};

    /// A device whose bytes come in bursts, the line quiet between them:
    /// each read takes the next burst, and an empty burst is a read that
    /// waited its whole timeout for nothing.
    struct Bursts(std::collections::VecDeque<Vec<u8>>);

    impl Transport for Bursts {
        fn write_all(&mut self, _: &[u8]) -> std::io::Result<()> {
            Ok(())
        }

        fn read(&mut self, buffer: &mut [u8], _: Duration) -> std::io::Result<usize> {
            let burst = self.0.pop_front().unwrap_or_default();
            buffer[..burst.len()].copy_from_slice(&burst);
            Ok(burst.len())
        }

        fn describe(&self) -> String {
            "bursts".into()
        }
    }

    #[test]
    fn a_frame_that_pauses_is_kept_and_noise_before_a_frame_is_dropped() {
        let tour = Response::Tour { sequence: 1, engine: 0, job: 0, squares: vec![0, 10, 17] };
        let bytes = tour.encode();
        // The tour's first bytes, the line quiet three times over, its rest
        // (as a pseudo-terminal bridge to a simulated board under load).
        let bursts = vec![bytes[..5].to_vec(), vec![], vec![], vec![], bytes[5..].to_vec()];
        let mut link = Link::new(Bursts(bursts.into()));
        assert_eq!(link.receive(Duration::from_secs(1)).unwrap(), Some(tour));
        // A sync byte from noise whose length runs past the ACK after it:
        // the ACK is taken once the line goes quiet.
        let ack = Response::Ack { command: 2 };
        let mut stray = vec![proto::SYNC, 200, 0];
        stray.extend(ack.encode());
        let mut link = Link::new(Bursts(vec![stray, vec![]].into()));
        assert_eq!(link.receive(Duration::from_secs(1)).unwrap(), Some(ack));
        assert_eq!(link.figures(0, 0).bytes_skipped, 3);
        // A frame that never ends is no answer by the deadline, not a hang.
        let mut link = Link::new(Bursts(vec![bytes[..5].to_vec()].into()));
        assert_eq!(link.receive(Duration::ZERO).unwrap(), None);
    }

    #[test]
    fn a_device_that_answers_identify_only_with_errors_is_a_dirty_line() {
        let error = || Response::Error { code: ErrorCode::BadCrc, command: code::IDENTIFY };
        // IDENTIFY and its three retries, each answered with an ERROR.
        let mut link = Link::new(Scripted::new(vec![vec![error()]; 4]));
        match link.identify(Duration::from_millis(300)).unwrap_err() {
            DeviceError::Link(LinkError::DirtyLine { errors: 4, last: ErrorCode::BadCrc, .. }) => {}
            other => panic!("{other}"),
        }
        // An ERROR first (a half-sent frame swallowed IDENTIFY), then the answer.
        let identity = tour_identity(5, 1);
        let mut link = Link::new(Scripted::new(vec![vec![error()], vec![Response::Identity(identity)]]));
        assert_eq!(link.identify(Duration::from_millis(300)).unwrap(), identity);

        // A bitstream of another protocol version is refused, with the fix.
        let old = Identity { version: VERSION - 1, ..identity };
        let mut link = Link::new(Scripted::new(vec![vec![Response::Identity(old)]]));
        let error = link.identify(Duration::from_millis(300)).unwrap_err();
        assert!(
            matches!(error, DeviceError::Link(LinkError::Version { version, host: VERSION, .. }) if version == VERSION - 1)
        );
        assert!(error.to_string().contains("flash a bitstream built from this version"), "{error}");
    }
}
