//! What every search shares, whatever it searches: when it stops
//! ([`Goal`]), why it stopped ([`Status`]) and whether it goes on after a
//! callback ([`Flow`]).

use serde::{Deserialize, Serialize};

/// When a search stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Stop after this many results (at least 1).
    First(u64),
    /// Search the whole tree.
    CountAll,
}

/// Why a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// The requested number of results was found.
    Found,
    /// The whole tree was searched.
    Exhausted,
    /// The observer asked to stop.
    Aborted,
}

/// Whether a search goes on after a callback.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Stop,
}
