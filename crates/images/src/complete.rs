//! The one check `image` does not make for us: that a file is all there.
//!
//! `image` reads JPEG with zune-jpeg in its lenient mode, which paints missing
//! scan data grey instead of failing, so a photo cut off in transit would be
//! stored half grey; and its PNG decoder stops reading after the pixel data,
//! so a PNG cut in its last chunks passes. Walking each file's structure to
//! its end marker tells a complete file from a cut one without decoding.

use super::ImageError;

const EOI: u8 = 0xD9;
const SOS: u8 = 0xDA;

/// What the walk through a JPEG's segments saw on the way, which decides how
/// much its decoder keeps (see `weight`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct JpegScans {
    /// Components of the frame (1 grey, 3 colour, 4 CMYK), from its header.
    pub components: u8,
    /// Scans (start-of-scan segments): more than one means every coefficient
    /// is kept until the last (progressive, or a scan per component).
    pub scans: u32,
}

/// Succeeds when the segments, scans included, run through to an end-of-image
/// marker. Bytes after it are ignored, as every decoder does: some cameras
/// append data there, and it is not copied since the pixels are re-encoded.
pub(super) fn jpeg(bytes: &[u8]) -> Result<JpegScans, ImageError> {
    let mut seen = JpegScans::default();
    let mut at = 2; // after the start-of-image marker, which detection saw
    loop {
        // Like libjpeg, tolerate stray bytes and fill bytes before a marker.
        at += bytes
            .get(at..)
            .ok_or_else(cut)?
            .iter()
            .position(|&b| b == 0xFF)
            .ok_or_else(cut)?;
        while bytes.get(at + 1) == Some(&0xFF) {
            at += 1;
        }
        let marker = *bytes.get(at + 1).ok_or_else(cut)?;
        at += 2;
        match marker {
            EOI => return Ok(seen),
            // Restart markers and TEM stand alone; a zero is stuffing, not a marker.
            0x00 | 0x01 | 0xD0..=0xD7 => {}
            _ => {
                let length = bytes.get(at..at + 2).ok_or_else(cut)?;
                if is_start_of_frame(marker) {
                    // Length, precision, height and width come before the count.
                    seen.components = seen.components.max(*bytes.get(at + 7).ok_or_else(cut)?);
                }
                at += usize::from(u16::from_be_bytes([length[0], length[1]]));
                if marker == SOS {
                    seen.scans += 1;
                    at = end_of_scan(bytes, at)?;
                }
            }
        }
    }
}

/// SOF0 to SOF15, but for the DHT, JPG and DAC markers that share the range.
fn is_start_of_frame(marker: u8) -> bool {
    matches!(marker, 0xC0..=0xCF) && !matches!(marker, 0xC4 | 0xC8 | 0xCC)
}

/// The offset of the first marker after entropy-coded data starting at `from`,
/// skipping stuffed zeros and restart markers, which belong to the scan.
fn end_of_scan(bytes: &[u8], from: usize) -> Result<usize, ImageError> {
    let scan = bytes.get(from..).ok_or_else(cut)?;
    scan.windows(2)
        .position(|pair| pair[0] == 0xFF && !matches!(pair[1], 0x00 | 0xD0..=0xD7 | 0xFF))
        .map(|offset| from + offset)
        .ok_or_else(cut)
}

/// Succeeds when the chunks run through to an IEND chunk. Their CRCs are left
/// to the decoder, which checks those of every chunk it reads.
pub(super) fn png(bytes: &[u8]) -> Result<(), ImageError> {
    let mut at = 8; // after the signature, which detection saw
    loop {
        let header = bytes.get(at..at + 8).ok_or_else(cut_png)?;
        if &header[4..] == b"IEND" {
            // Its CRC too, or a file cut in the last four bytes would pass.
            return bytes.get(at..at + 12).map(drop).ok_or_else(cut_png);
        }
        let length = u32::from_be_bytes([header[0], header[1], header[2], header[3]]);
        at = at.checked_add(12 + length as usize).ok_or_else(cut_png)?;
    }
}

fn cut() -> ImageError {
    ImageError::Corrupt {
        reason: "the JPEG ends before its end-of-image marker".into(),
    }
}

fn cut_png() -> ImageError {
    ImageError::Corrupt {
        reason: "the PNG ends before its IEND chunk".into(),
    }
}
