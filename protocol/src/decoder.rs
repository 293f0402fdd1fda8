//! Finding frames in a byte stream that may carry noise.

use alloc::vec::Vec;

use crate::codec::{Malformed, Response, OVERHEAD};
use crate::crc::crc16;
use crate::SYNC;

/// Bytes before a sync byte are skipped, and a candidate frame whose length
/// is impossible or whose CRC fails is dropped by skipping its sync byte and
/// searching on.
#[derive(Clone, Debug)]
pub struct FrameDecoder {
    buffer: Vec<u8>,
    max_payload: usize,
    skipped: u64,
}

impl FrameDecoder {
    /// A decoder for frames of at most `max_payload` payload bytes.
    pub fn new(max_payload: usize) -> Self {
        FrameDecoder { buffer: Vec::new(), max_payload, skipped: 0 }
    }

    pub fn push(&mut self, bytes: &[u8]) {
        self.buffer.extend_from_slice(bytes);
    }

    /// Bytes dropped so far as noise.
    pub fn skipped(&self) -> u64 {
        self.skipped
    }

    /// Bytes held for a frame not complete yet.
    pub fn pending(&self) -> usize {
        self.buffer.len()
    }

    /// Gives up on an incomplete frame at the front (its sync byte was
    /// noise, or the rest of it will not come) and searches on.
    pub fn drop_incomplete(&mut self) {
        if !self.buffer.is_empty() {
            self.skip(1);
        }
    }

    /// For a quiet line with an incomplete frame at the front: if a whole
    /// frame with a good CRC starts at a later sync byte, the front's sync
    /// byte was noise (a frame under way holds no whole frame), so the bytes
    /// before that frame are dropped and `true` returned. Otherwise the front
    /// may be a frame whose rest is only late (a pseudo-terminal or a USB
    /// adapter can pause mid-frame), and it is kept.
    pub fn skip_noise_before_a_whole_frame(&mut self) -> bool {
        let later = (1..self.buffer.len()).find(|&start| self.whole_frame_at(start));
        if let Some(start) = later {
            self.skip(start);
        }
        later.is_some()
    }

    /// Whether a whole frame with a good CRC starts at `start`.
    fn whole_frame_at(&self, start: usize) -> bool {
        let bytes = &self.buffer[start..];
        if bytes.len() < 4 || bytes[0] != SYNC {
            return false;
        }
        let length = usize::from(u16::from_le_bytes([bytes[1], bytes[2]]));
        let end = length + OVERHEAD;
        if length > self.max_payload || bytes.len() < end {
            return false;
        }
        crc16(&bytes[..end - 2]) == u16::from_le_bytes([bytes[end - 2], bytes[end - 1]])
    }

    fn skip(&mut self, count: usize) {
        self.buffer.drain(..count);
        self.skipped += count as u64;
    }

    /// The next complete frame, if one is in the buffer.
    pub fn next_frame(&mut self) -> Option<Result<Response, Malformed>> {
        loop {
            let sync = self.buffer.iter().position(|&b| b == SYNC).unwrap_or(self.buffer.len());
            self.skip(sync);
            if self.buffer.len() < 4 {
                return None;
            }
            let length = usize::from(u16::from_le_bytes([self.buffer[1], self.buffer[2]]));
            if length > self.max_payload {
                self.skip(1);
                continue;
            }
            let end = length + OVERHEAD;
            if self.buffer.len() < end {
                return None;
            }
            let crc = u16::from_le_bytes([self.buffer[end - 2], self.buffer[end - 1]]);
            if crc16(&self.buffer[..end - 2]) != crc {
                self.skip(1);
                continue;
            }
            let response = Response::parse(self.buffer[3], &self.buffer[4..end - 2]);
            self.buffer.drain(..end);
            return Some(response);
        }
    }
}
