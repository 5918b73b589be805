//! GIF, the one accepted format whose animation is kept: frames are decoded and
//! re-encoded one at a time, so memory stays at one frame whatever the length.

use std::io::Cursor;

use image::codecs::gif::{GifDecoder, GifEncoder, Repeat};
use image::metadata::LoopCount;
use image::{AnimationDecoder, ImageDecoder};

use super::encode::GIF_SPEED;
use super::{check_pixels, corrupt, decode_failure, decoder_limits};
use super::{CleanImage, ImageError, ImageFormat, ImageLimits};

/// Decodes every frame of a GIF and writes them into a new GIF that keeps the
/// frames, their delays and the loop count, and drops comments and application
/// blocks such as XMP. Each frame is counted at the full canvas size against
/// `max_pixels`, because that is what decoding and re-encoding it costs.
pub(super) fn clean_gif(bytes: &[u8], limits: &ImageLimits) -> Result<CleanImage, ImageError> {
    let mut decoder = GifDecoder::new(Cursor::new(bytes)).map_err(|err| corrupt(&err))?;
    let (width, height) = decoder.dimensions();
    check_pixels(width, height, limits)?;
    decoder
        .set_limits(decoder_limits(limits))
        .map_err(|err| decode_failure(&err, (width, height), limits))?;
    let repeat = match decoder.loop_count() {
        LoopCount::Infinite => Repeat::Infinite,
        LoopCount::Finite(times) => Repeat::Finite(u16::try_from(times.get()).unwrap_or(u16::MAX)),
    };

    let mut out = Vec::new();
    let mut encoder = GifEncoder::new_with_speed(&mut out, GIF_SPEED);
    encoder.set_repeat(repeat).map_err(|err| corrupt(&err))?;
    let frame_pixels = u64::from(width) * u64::from(height);
    let mut decoded_pixels = 0u64;
    for frame in decoder.into_frames() {
        let frame = frame.map_err(|err| decode_failure(&err, (width, height), limits))?;
        decoded_pixels += frame_pixels;
        if decoded_pixels > limits.max_pixels {
            return Err(ImageError::TooManyFrames {
                width,
                height,
                limit: limits.max_pixels,
            });
        }
        encoder.encode_frame(frame).map_err(|err| corrupt(&err))?;
    }
    drop(encoder);
    if decoded_pixels == 0 {
        return Err(ImageError::Corrupt {
            reason: "it has no frames".into(),
        });
    }
    Ok(CleanImage {
        format: ImageFormat::Gif,
        width,
        height,
        bytes: out,
    })
}
