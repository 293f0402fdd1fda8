//! Knight's tours in hardware: the two engine kinds and what they share.
//!
//! [`wide`]: a node every clock, the whole board judged in parallel (its
//! logic grows with the board's area). [`compact`]: the board and its stack
//! in block RAM, a few clocks a node (its logic grows with the stack's
//! depth, not the area). [`common`]: the blocks both use (SOLVE's
//! arguments, jobs as paths, the move choice, a tour streamed out, the
//! board's geometry). Each kind has a bank ([`wide::bank`],
//! [`compact::bank`]) that `crate::platform::Accelerator` takes.

pub mod common;
pub mod compact;
pub mod interleaved;
pub mod wide;
