//! Knight's tours on every device: the [`device::TourDevice`] trait and its
//! CPU and linked implementations, a search [`query`] checked and answered
//! with validated tours, counts from every start square
//! ([`whole_board`]), the [`jobs`] a count is cut into, output
//! ([`render`]), [`estimate`] (counts too big to run) and the [`bench`].

pub mod bench;
pub mod device;
pub mod estimate;
pub mod jobs;
pub mod query;
pub mod render;
pub mod whole_board;

pub use device::{TourDevice, TourSink};
