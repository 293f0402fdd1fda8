//! CRC-16/CCITT-FALSE (polynomial 0x1021, initial value 0xFFFF, no bit
//! reflection), one byte per clock, as the link protocol uses it.

use rust_hdl::prelude::*;

/// The CRC after one more byte: combinational.
#[derive(LogicBlock, Default)]
pub struct Crc16Step {
    pub crc: Signal<In, Bits<16>>,
    pub octet: Signal<In, Bits<8>>,
    pub updated: Signal<Out, Bits<16>>,
    steps: [Signal<Local, Bits<16>>; 9],
}

impl Logic for Crc16Step {
    #[hdl_gen]
    fn update(&mut self) {
        self.steps[0].next = self.crc.val() ^ (bit_cast::<16, 8>(self.octet.val()) << 8);
        for i in 0..8 {
            self.steps[i + 1].next = self.steps[i].val() << 1;
            if self.steps[i].val().get_bit(15) {
                self.steps[i + 1].next = (self.steps[i].val() << 1) ^ 0x1021;
            }
        }
        self.updated.next = self.steps[8].val();
    }
}

/// The CRC's initial value.
pub const CRC_INIT: u64 = 0xFFFF;
