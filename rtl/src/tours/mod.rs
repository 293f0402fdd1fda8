//! Knight's tours in hardware: the three engine kinds and what they share.
//!
//! [`wide`]: a node every clock, the whole board judged in parallel (its
//! logic grows with the board's area). [`compact`]: the board and its stack
//! in block RAM, a few clocks a node (its logic grows with the stack's
//! depth, not the area). [`interleaved`]: five searches sharing a pipelined
//! five-stage ring, a step every clock at a higher clock; it counts only.
//! [`common`]: the blocks they share (SOLVE's arguments, jobs as paths, the
//! move choice, a tour streamed out, the board's geometry). Each kind has a
//! bank ([`wide::bank`], [`compact::bank`], [`interleaved::bank`]) that
//! `crate::platform::Accelerator` takes.

pub mod common;
pub mod compact;
pub mod interleaved;
pub mod wide;
