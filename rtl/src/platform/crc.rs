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
pub const CRC_INIT: u64 = knights_protocol::crc::INIT as u64;

#[cfg(test)]
mod tests {
    use super::*;

    /// CRC-16/CCITT-FALSE bit by bit, as the catalogue defines it.
    fn crc16(bytes: &[u8]) -> u16 {
        let mut crc = CRC_INIT as u16;
        for &byte in bytes {
            crc ^= u16::from(byte) << 8;
            for _ in 0..8 {
                crc = if crc & 0x8000 != 0 { crc << 1 ^ 0x1021 } else { crc << 1 };
            }
        }
        crc
    }

    /// The CRC of `bytes` through the block, one step per byte.
    fn hardware_crc(uut: &mut Crc16Step, bytes: &[u8]) -> u16 {
        let mut crc = CRC_INIT;
        for &byte in bytes {
            uut.crc.next = crc.into();
            uut.octet.next = u64::from(byte).into();
            assert!(simulate(uut, 100), "settles");
            crc = uut.updated.val().index() as u64;
        }
        crc as u16
    }

    #[test]
    fn gives_the_catalogued_check_value() {
        let mut uut = Crc16Step::default();
        uut.connect_all();
        // The check value of CRC-16/CCITT-FALSE (docs/protocol.md).
        assert_eq!(crc16(b"123456789"), 0x29B1);
        assert_eq!(hardware_crc(&mut uut, b"123456789"), 0x29B1);
    }

    #[test]
    fn every_octet_steps_as_the_reference() {
        let mut uut = Crc16Step::default();
        uut.connect_all();
        for byte in 0..=255u8 {
            // After a prefix, so the CRC going in is not always the initial value.
            let bytes = [0xA5, byte.wrapping_mul(37), byte];
            assert_eq!(hardware_crc(&mut uut, &bytes), crc16(&bytes), "{bytes:02x?}");
        }
    }
}
