//! The engine's emitted Verilog under Verilator, behind the host's `Device`
//! trait. Empty until the RTL engine lands.
