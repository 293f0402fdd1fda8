//! The frame check: CRC-16/CCITT-FALSE (polynomial 0x1021, initial value
//! 0xFFFF, no reflection, no final XOR) over sync, length, type and payload.

/// The CRC's initial value.
pub const INIT: u16 = 0xFFFF;

/// CRC-16/CCITT-FALSE of `bytes`.
pub fn crc16(bytes: &[u8]) -> u16 {
    let mut crc = INIT;
    for &byte in bytes {
        crc ^= u16::from(byte) << 8;
        for _ in 0..8 {
            crc = if crc & 0x8000 != 0 { crc << 1 ^ 0x1021 } else { crc << 1 };
        }
    }
    crc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_catalogued_check_value() {
        assert_eq!(crc16(b"123456789"), 0x29B1);
    }
}
