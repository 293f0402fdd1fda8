//! Emitting the engine as Verilog for a chosen largest board.

use rust_hdl::prelude::*;

use crate::engine::Engine;

/// The engine's Verilog (top module `top`) for boards up to
/// `max_width` × `max_height`, or `None` when that area is not one the crate
/// instantiates (the engine's widths are compile-time parameters).
pub fn engine_verilog(max_width: usize, max_height: usize) -> Option<String> {
    macro_rules! areas {
        ($(($squares:literal, $bits:literal)),*) => {
            match max_width * max_height {
                $($squares => Some(emit(Engine::<$squares, $bits>::new(max_width, max_height))),)*
                _ => None,
            }
        };
    }
    areas!((12, 4), (16, 4), (20, 5), (25, 5), (30, 5), (36, 6), (48, 6), (64, 6), (100, 7), (144, 8), (256, 8))
}

/// Board areas with an engine instance: a build's `max_width * max_height`
/// must be one of these.
pub const SUPPORTED_AREAS: [usize; 11] = [12, 16, 20, 25, 30, 36, 48, 64, 100, 144, 256];

fn emit<T: Block>(mut engine: T) -> String {
    engine.connect_all();
    generate_verilog(&engine)
}
