//! End-to-end tests across the host, the simulator and the RTL live in
//! `tests/tests/`; this crate has no code of its own.
