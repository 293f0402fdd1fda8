//! The DFU file suffix (USB DFU 1.1, appendix B) that `dfu-util` checks
//! before it downloads a file: what `dfu-suffix -v VID -p PID -a FILE` adds.

/// `image` with a DFU suffix for the USB device `vendor:product` appended.
pub fn with_suffix(image: &[u8], vendor: u16, product: u16) -> Vec<u8> {
    let mut file = image.to_vec();
    file.extend_from_slice(&0xFFFFu16.to_le_bytes()); // bcdDevice: any
    file.extend_from_slice(&product.to_le_bytes());
    file.extend_from_slice(&vendor.to_le_bytes());
    file.extend_from_slice(&0x0100u16.to_le_bytes()); // bcdDFU 1.0
    file.extend_from_slice(b"UFD");
    file.push(16); // suffix length
    let crc = crc32(&file);
    file.extend_from_slice(&crc.to_le_bytes());
    file
}

/// Parses `"1209:5af0"` (hex vendor and product ids).
pub fn parse_ids(text: &str) -> Option<(u16, u16)> {
    let (vendor, product) = text.split_once(':')?;
    Some((u16::from_str_radix(vendor, 16).ok()?, u16::from_str_radix(product, 16).ok()?))
}

/// The suffix's CRC: CRC-32 (reflected, polynomial 0xEDB88320, initial
/// value all ones) without the final inversion.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = u32::MAX;
    for &byte in bytes {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    crc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suffix_layout_and_crc() {
        let file = with_suffix(b"knights", 0x1209, 0x5af0);
        assert_eq!(file.len(), 7 + 16);
        assert_eq!(&file[7..19], &[0xff, 0xff, 0xf0, 0x5a, 0x09, 0x12, 0x00, 0x01, b'U', b'F', b'D', 16]);
        // The CRC of everything before it, as standard CRC-32 before its final inversion.
        assert_eq!(crc32(b"123456789"), !0xCBF4_3926);
        assert_eq!(u32::from_le_bytes(file[19..].try_into().unwrap()), crc32(&file[..19]));
    }

    /// The suffix is byte for byte what dfu-util's own `dfu-suffix` adds
    /// (scripts/setup.sh installs dfu-util with the flashers).
    #[test]
    fn matches_dfu_suffix() {
        let dir = std::env::temp_dir().join(format!("knights-dfu-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("image.bit");
        let image: Vec<u8> = (0..1000u32).map(|i| (i * 7 % 251) as u8).collect();
        std::fs::write(&path, &image).unwrap();
        let output = std::process::Command::new("dfu-suffix")
            .args(["-v", "1209", "-p", "5af0", "-a"])
            .arg(&path)
            .output()
            .expect("dfu-suffix: install dfu-util (bash scripts/setup.sh --deps-only)");
        assert!(output.status.success(), "dfu-suffix failed: {}", String::from_utf8_lossy(&output.stderr));
        assert_eq!(std::fs::read(&path).unwrap(), with_suffix(&image, 0x1209, 0x5af0));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn parses_usb_ids() {
        assert_eq!(parse_ids("1209:5af0"), Some((0x1209, 0x5af0)));
        assert_eq!(parse_ids("1209"), None);
        assert_eq!(parse_ids("12g9:0"), None);
    }
}
