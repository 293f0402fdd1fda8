//! The top level a board runs: the [`Platform`] (UART link, commands, job
//! queue, totals, result arbiter, answers) with an engine kind's
//! [`EngineBank`] in its sockets. Every engine kind (the knight's-tour
//! engines, the N-Queens solvers) has a bank; this one top joins any of them
//! to the platform, so the pins, the LEDs and the wiring are written once.

use rust_hdl::core::ast::{VerilogExpression, VerilogLiteral, VerilogLoop, VerilogStatement};
use rust_hdl::prelude::*;

use super::{BuildIdentity, EnginePort, LinkSettings, Platform};

/// An engine kind's engines, as the accelerator sees them: a clock, one
/// [`EnginePort`] per engine (engine 0 the walker) and what IDENTITY says
/// about them. The ports must be the bank's field named `ports` and the
/// clock its field `clock`: the accelerator's Verilog names them so.
pub trait EngineBank: Block {
    /// What IDENTITY says about the engines.
    fn identity(&self) -> BuildIdentity;
    /// The bank's `clock` field.
    fn clock(&mut self) -> &mut Signal<In, Clock>;
    /// The bank's `ports` field: one per engine.
    fn ports(&mut self) -> &mut [EnginePort];
}

/// The serial-linked accelerator: the platform and a bank of engines.
#[derive(LogicBlock)]
pub struct Accelerator<B: EngineBank> {
    pub clock: Signal<In, Clock>,
    /// Serial data from the host.
    pub uart_rx: Signal<In, bool>,
    /// Serial data to the host.
    pub uart_tx: Signal<Out, bool>,
    /// A search is running (until its DONE frame is out).
    pub led_busy: Signal<Out, bool>,
    /// The current or last search has found a result.
    pub led_found: Signal<Out, bool>,
    platform: Platform,
    bank: B,
}

impl<B: EngineBank> Accelerator<B> {
    pub fn new(mut bank: B, link: LinkSettings) -> Self {
        let engines = bank.ports().len();
        Accelerator {
            clock: Default::default(),
            uart_rx: Default::default(),
            uart_tx: Default::default(),
            led_busy: Default::default(),
            led_found: Default::default(),
            platform: Platform::new(engines, bank.identity(), link),
            bank,
        }
    }
}

// Written out, not with `#[hdl_gen]`: a kernel reaches a block's signals by
// field, and a generic bank has no fields the compiler knows of. `update`
// (rust-hdl's simulation), `connect` and `hdl` (the Verilog) say the same
// wiring three times; the accelerator tests simulate it both ways.
impl<B: EngineBank> Logic for Accelerator<B> {
    fn update(&mut self) {
        self.platform.clock.next = self.clock.val();
        self.bank.clock().next = self.clock.val();
        self.platform.uart_rx.next = self.uart_rx.val();
        self.uart_tx.next = self.platform.uart_tx.val();
        self.led_busy.next = self.platform.led_busy.val();
        self.led_found.next = self.platform.led_found.val();
        for (port, socket) in self.bank.ports().iter_mut().zip(self.platform.engines.iter_mut()) {
            EnginePort::join(port, socket);
        }
    }

    fn connect(&mut self) {
        self.platform.clock.connect();
        self.bank.clock().connect();
        self.platform.uart_rx.connect();
        self.uart_tx.connect();
        self.led_busy.connect();
        self.led_found.connect();
        for (port, socket) in self.bank.ports().iter_mut().zip(self.platform.engines.iter_mut()) {
            logic::logic_connect_join_fn(port, socket);
        }
    }

    fn hdl(&self) -> Verilog {
        let assign = |target: &str, source: &str| {
            VerilogStatement::Assignment(
                VerilogExpression::Signal(target.into()),
                VerilogExpression::Signal(source.into()),
            )
        };
        let joins = VerilogLoop {
            index: "i".into(),
            from: VerilogLiteral::from(0),
            to: VerilogLiteral::from(self.platform.engines.len()),
            block: vec![VerilogStatement::Link(EnginePort::join_hdl("", "bank$ports[i]", "platform$engines[i]"))],
        };
        Verilog::Combinatorial(vec![
            assign("platform$clock", "clock"),
            assign("bank$clock", "clock"),
            assign("platform$uart_rx", "uart_rx"),
            assign("uart_tx", "platform$uart_tx"),
            assign("led_busy", "platform$led_busy"),
            assign("led_found", "platform$led_found"),
            VerilogStatement::Loop(joins),
        ])
    }
}
