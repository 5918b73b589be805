//! Counting a GIF's frames from its block structure, without decoding any:
//! every frame is decoded and re-encoded at the full canvas size, so the
//! count tells what the animation will cost before the work starts.

/// The image descriptors (frames) in `bytes`, a GIF whose signature was
/// recognised. Counting ends at the trailer, or where the data ends or stops
/// making sense; the decoder then finds any damage.
pub(super) fn count(bytes: &[u8]) -> u64 {
    const HEADER: usize = 13; // signature, screen size, flags, background, aspect
    let Some(&flags) = bytes.get(10) else {
        return 0;
    };
    let mut at = HEADER + color_table(flags);
    let mut frames = 0;
    loop {
        match bytes.get(at) {
            Some(0x2C) => {
                // Separator, position, size, then flags.
                let Some(&flags) = bytes.get(at + 9) else {
                    return frames;
                };
                frames += 1;
                // The descriptor, its colour table, the LZW minimum code size.
                match skip_sub_blocks(bytes, at + 10 + color_table(flags) + 1) {
                    Some(next) => at = next,
                    None => return frames,
                }
            }
            // An extension: its label, then sub-blocks.
            Some(0x21) => match skip_sub_blocks(bytes, at + 2) {
                Some(next) => at = next,
                None => return frames,
            },
            // The trailer, the end of the data, or a byte no block starts with.
            _ => return frames,
        }
    }
}

/// Bytes of the colour table that `flags` (of the screen or of an image)
/// announce.
fn color_table(flags: u8) -> usize {
    if flags & 0x80 == 0 {
        0
    } else {
        3 << ((flags & 0x07) + 1)
    }
}

/// The offset after the sub-blocks starting at `at` and their terminator,
/// or `None` when the data ends first.
fn skip_sub_blocks(bytes: &[u8], mut at: usize) -> Option<usize> {
    loop {
        let size = usize::from(*bytes.get(at)?);
        at += 1 + size;
        if size == 0 {
            return Some(at);
        }
    }
}
