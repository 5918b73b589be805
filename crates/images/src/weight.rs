//! What cleaning one image costs in memory, known from its header before any
//! pixel is decoded: the weight a caller takes from a memory budget first.
//!
//! Cleaning goes through phases (decode, turn upright, encode), and the
//! weight is the largest of them, each counted from what the decoders and
//! encoders of `image`, `png` and `gif` allocate for the layout at hand
//! (read from their source, then checked against the peak resident memory of
//! a process cleaning one image of each kind: see BENCHMARKS.md). Encoded
//! output is counted at its bound, not its likely size: a weight must hold
//! for the worst image an attacker can make within the limits.

use super::ImageLimits;

const MIB: u64 = 1024 * 1024;

/// Line buffers, Huffman and quantiser tables, deflate windows, the
/// encoders' own state: what every image costs beyond its pixels.
const MARGIN: u64 = 2 * MIB;

/// An encoder's output for `raw` bytes of pixels, at most: deflate (PNG) and
/// VP8L (WebP) store incompressible data at slightly over its size, and
/// Huffman codes longer than a byte can cost an eighth more; JPEG at quality
/// 90 stays below the raw size.
fn output_bound(raw: u64) -> u64 {
    raw + raw / 8 + 64 * 1024
}

/// What a still picture (JPEG, PNG, WebP) holds in each phase of cleaning.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Still {
    /// Width × height.
    pub pixels: u64,
    /// Bytes a pixel of the whole decoded picture takes; 0 when rows go
    /// straight from the decoder to the encoder and no whole picture is kept.
    pub decoded_bytes_per_pixel: u64,
    /// Bytes the decoder holds beside its output while decoding (a JPEG's
    /// coefficients, a WebP's YUV planes or RGBA frame).
    pub decoder_working: u64,
    /// Whether turning it upright makes a rotated copy (90° and 270° turns;
    /// flips and half turns are made in place).
    pub rotates: bool,
    /// Bytes the encoder copies the pixels into before encoding them (WebP's
    /// RGBA copy, JPEG's copy without alpha).
    pub encoder_copy: u64,
    /// Raw bytes of the pixels the encoder compresses, which bound its output.
    pub encoded_raw: u64,
    /// How many times the encoded output is held at once (WebP builds it in
    /// a buffer of its own, then copies it out).
    pub output_copies: u64,
    /// The upload as copied by the decoder (JPEG reads it into a buffer).
    pub input_copy: u64,
}

impl Still {
    /// The largest of the phases, in bytes.
    pub(super) fn weight(&self) -> u64 {
        let decoded = self.pixels * self.decoded_bytes_per_pixel;
        let decode = decoded + self.decoder_working;
        let turn = if self.rotates { 2 * decoded } else { 0 };
        let encode =
            decoded + self.encoder_copy + self.output_copies * output_bound(self.encoded_raw);
        MARGIN + self.input_copy + decode.max(turn).max(encode)
    }
}

/// What a GIF holds: per frame, the canvas kept between frames, the frame
/// as decoded, the frame composited onto the canvas (all RGBA), and its
/// palette indices (one byte a pixel); and the new GIF as it grows, frame by
/// frame, each at most 12-bit LZW codes, one per pixel.
pub(super) fn gif(canvas_pixels: u64, frames: u64) -> u64 {
    const PER_CANVAS_PIXEL: u64 = 3 * 4 + 1;
    let encoded = frames * canvas_pixels;
    MARGIN + PER_CANVAS_PIXEL * canvas_pixels + encoded * 3 / 2 + encoded / 64
}

/// The weight of the costliest image `limits` admit: any budget must hold
/// at least this much, or such an image could never be cleaned.
pub fn largest_weight(limits: &ImageLimits) -> u64 {
    let pixels = limits.max_pixels;
    let input = limits.max_file_bytes as u64;
    let png = Still {
        pixels,
        decoded_bytes_per_pixel: 4,
        decoder_working: 0,
        rotates: true,
        encoder_copy: 0,
        encoded_raw: pixels * 4,
        output_copies: 1,
        input_copy: 0,
    };
    let jpeg = Still {
        pixels,
        decoded_bytes_per_pixel: 3,
        decoder_working: jpeg_coefficients(pixels, 4),
        rotates: true,
        encoder_copy: 0,
        encoded_raw: pixels * 3,
        output_copies: 1,
        input_copy: input,
    };
    [
        png.weight(),
        jpeg.weight(),
        webp(pixels, 4, true).weight(),
        gif(pixels, 1),
    ]
    .into_iter()
    .max()
    .unwrap_or(0)
}

/// A JPEG whose scans do not each hold every component (progressive, or
/// baseline with a scan per component) is decoded by keeping every
/// coefficient of every component (two bytes each) until the last scan.
pub(super) fn jpeg_coefficients(pixels: u64, components: u64) -> u64 {
    // Each component is padded to whole 8x8 blocks; a tenth covers it for
    // any picture wider and taller than 80 pixels, and MARGIN the rest.
    let coefficients = pixels * components * 2;
    coefficients + coefficients / 10
}

/// A WebP: decoded to RGB or RGBA (`decoded_bytes_per_pixel`), through
/// YUV planes and an alpha plane (lossy) or an RGBA buffer (lossless, and
/// each animation frame beside its canvas); encoded lossless from an RGBA
/// copy into a buffer of its own, then copied out.
pub(super) fn webp(pixels: u64, decoded_bytes_per_pixel: u64, rotates: bool) -> Still {
    Still {
        pixels,
        decoded_bytes_per_pixel,
        decoder_working: pixels * 8,
        rotates,
        encoder_copy: pixels * 4,
        encoded_raw: pixels * 4,
        output_copies: 2,
        input_copy: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PIXELS: u64 = 1_000_000;

    fn rgb_jpeg() -> Still {
        Still {
            pixels: PIXELS,
            decoded_bytes_per_pixel: 3,
            decoder_working: 0,
            rotates: false,
            encoder_copy: 0,
            encoded_raw: PIXELS * 3,
            output_copies: 1,
            input_copy: 0,
        }
    }

    #[test]
    fn a_still_weighs_its_pixels_and_its_output_at_its_bound() {
        assert_eq!(
            rgb_jpeg().weight(),
            MARGIN + PIXELS * 3 + output_bound(PIXELS * 3)
        );
    }

    #[test]
    fn a_quarter_turn_weighs_the_larger_of_two_copies_and_encoding() {
        let turned = Still {
            rotates: true,
            ..rgb_jpeg()
        };
        assert_eq!(turned.weight(), rgb_jpeg().weight());
        let streamed_png = Still {
            decoded_bytes_per_pixel: 0,
            ..rgb_jpeg()
        };
        assert_eq!(streamed_png.weight(), MARGIN + output_bound(PIXELS * 3));
        let no_output = Still {
            rotates: true,
            encoded_raw: 0,
            ..rgb_jpeg()
        };
        assert_eq!(no_output.weight(), MARGIN + 2 * PIXELS * 3);
    }

    #[test]
    fn a_jpeg_of_several_scans_weighs_its_coefficients_beside_its_pixels() {
        let progressive = Still {
            decoder_working: jpeg_coefficients(PIXELS, 3),
            ..rgb_jpeg()
        };
        assert!(progressive.weight() >= MARGIN + PIXELS * 3 + PIXELS * 3 * 2);
    }

    #[test]
    fn the_largest_weight_grows_with_the_pixel_limit_and_holds_a_webp_at_it() {
        let small = ImageLimits {
            max_pixels: 1_000_000,
            ..ImageLimits::default()
        };
        let large = ImageLimits::default();
        assert!(largest_weight(&large) > largest_weight(&small));
        assert!(largest_weight(&large) >= webp(large.max_pixels, 4, true).weight());
    }
}
