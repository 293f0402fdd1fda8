//! N-Queens on every device: the [`device::QueensDevice`] trait and its CPU
//! and linked implementations, a [`query`] checked and answered with
//! validated solutions (counts with the mirror, from constellations,
//! unique), the [`jobs`] a count is cut into, output ([`render`]) and the
//! [`bench`].

pub mod bench;
pub mod device;
pub mod jobs;
pub mod query;
pub mod render;

pub use device::{QueensDevice, QueensSink};
