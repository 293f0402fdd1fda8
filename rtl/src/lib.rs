//! The knight's tour backtracking engine in rust-hdl. Empty until the RTL
//! engine lands; the CPU reference in `knights::search` is its specification.
