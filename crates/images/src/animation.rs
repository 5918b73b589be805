//! GIF, the one accepted format whose animation is kept: frames are decoded and
//! re-encoded one at a time, so memory stays at one frame whatever the length
//! (beside the new file, which grows frame by frame).

use std::io::Cursor;

use image::codecs::gif::{GifDecoder, GifEncoder, Repeat};
use image::metadata::LoopCount;
use image::{AnimationDecoder, ImageDecoder};

use super::encode::GIF_SPEED;
use super::stop::Stop;
use super::{check_pixels, corrupt, decode_failure, decoder_limits, gif_frames, weight};
use super::{CleanImage, ImageError, ImageFormat, ImageLimits};

/// What the header and the block structure say.
pub(super) struct Header {
    width: u32,
    height: u32,
    frames: u64,
}

impl Header {
    /// The memory cleaning takes at its peak (see `weight`).
    pub(super) fn weight(&self) -> u64 {
        weight::gif(u64::from(self.width) * u64::from(self.height), self.frames)
    }

    pub(super) fn dimensions(&self) -> (u32, u32) {
        (self.width, self.height)
    }
}

/// Reads the canvas size and counts the frames. Each frame is counted at the
/// full canvas size against `max_pixels`, because that is what decoding and
/// re-encoding it costs; an animation over it is refused here, before any
/// frame is decoded.
pub(super) fn inspect(bytes: &[u8], limits: &ImageLimits) -> Result<Header, ImageError> {
    let decoder = GifDecoder::new(Cursor::new(bytes)).map_err(|err| corrupt(&err))?;
    let (width, height) = decoder.dimensions();
    check_pixels(width, height, limits)?;
    let frames = gif_frames::count(bytes);
    if frames.saturating_mul(u64::from(width) * u64::from(height)) > limits.max_pixels {
        return Err(ImageError::TooManyFrames {
            width,
            height,
            limit: limits.max_pixels,
        });
    }
    Ok(Header {
        width,
        height,
        frames,
    })
}

/// Decodes every frame of a GIF and writes them into a new GIF that keeps the
/// frames, their delays and the loop count, and drops comments and application
/// blocks such as XMP. `stop` is looked at before each frame.
pub(super) fn clean_gif(
    bytes: &[u8],
    limits: &ImageLimits,
    stop: &Stop,
) -> Result<CleanImage, ImageError> {
    let header = inspect(bytes, limits)?;
    let (width, height) = header.dimensions();
    let mut decoder = GifDecoder::new(Cursor::new(bytes)).map_err(|err| corrupt(&err))?;
    decoder
        .set_limits(decoder_limits(header.weight()))
        .map_err(|err| decode_failure(&err, (width, height), limits))?;
    let repeat = match decoder.loop_count() {
        LoopCount::Infinite => Repeat::Infinite,
        LoopCount::Finite(times) => Repeat::Finite(u16::try_from(times.get()).unwrap_or(u16::MAX)),
    };

    let mut out = Vec::new();
    let mut encoder = GifEncoder::new_with_speed(&mut out, GIF_SPEED);
    encoder.set_repeat(repeat).map_err(|err| corrupt(&err))?;
    let mut decoded = 0u64;
    let mut frames = decoder.into_frames();
    loop {
        stop.check()?;
        let Some(frame) = frames.next() else {
            break;
        };
        let frame = frame.map_err(|err| decode_failure(&err, (width, height), limits))?;
        decoded += 1;
        // The weight was taken for the frames counted; a decoder that finds
        // more than the structure shows must not go past it.
        if decoded > header.frames {
            return Err(ImageError::Corrupt {
                reason: "it has more frames than its structure shows".into(),
            });
        }
        encoder.encode_frame(frame).map_err(|err| corrupt(&err))?;
    }
    drop(encoder);
    if decoded == 0 {
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
