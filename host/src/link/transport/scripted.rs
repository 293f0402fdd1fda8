//! A scripted device, for tests of the layers above the transport: each
//! command written is answered with the next batch of responses, whatever
//! the command was. It can lie in any way a test writes down, and it keeps
//! the kind of every command the host sent, for tests of what the host does
//! after a lie (an ABORT, to leave the device idle).

use std::collections::VecDeque;
use std::io;
use std::time::Duration;

use super::Transport;
use crate::link::proto::Response;

/// A knight's-tour build's IDENTITY for scripted devices: boards up to
/// `side` × `side`, `engines` engines of one search each, with Warnsdorff's
/// order and pruning, at 12 MHz and 115,200 baud. Tests change what they need.
#[cfg(test)]
pub(crate) fn tour_identity(side: u8, engines: u8) -> crate::link::proto::Identity {
    use crate::link::proto::{Identity, VERSION};
    Identity {
        version: VERSION,
        max_width: side,
        max_height: side,
        engines,
        clock_hz: 12_000_000,
        baud: 115_200,
        warnsdorff: true,
        prune: true,
        queens: false,
        constellations: false,
        interleaved: false,
        build_id: 0,
    }
}

pub struct Scripted {
    batches: VecDeque<Vec<Response>>,
    pending: Vec<u8>,
    commands: Vec<u8>,
}

impl Scripted {
    /// Answers the first command with `batches[0]`, the next with
    /// `batches[1]`, and so on; commands past the last get no answer.
    pub fn new(batches: Vec<Vec<Response>>) -> Self {
        Scripted { batches: batches.into(), pending: Vec::new(), commands: Vec::new() }
    }

    /// The kind of each command written so far (`proto::code`), in order.
    pub fn commands(&self) -> &[u8] {
        &self.commands
    }
}

impl Transport for Scripted {
    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        // (A frame: sync, a 16-bit length, then its kind.)
        self.commands.extend(bytes.get(3));
        for response in self.batches.pop_front().unwrap_or_default() {
            self.pending.extend(response.encode());
        }
        Ok(())
    }

    fn read(&mut self, buffer: &mut [u8], _timeout: Duration) -> io::Result<usize> {
        let n = buffer.len().min(self.pending.len());
        buffer[..n].copy_from_slice(&self.pending[..n]);
        self.pending.drain(..n);
        Ok(n)
    }

    fn describe(&self) -> String {
        "a scripted device".into()
    }
}
