//! Writing pixels back out. The encoders are given pixels and nothing else, so
//! the files they write carry no EXIF, XMP, ICC profile, text chunk or comment.

use image::codecs::jpeg::JpegEncoder;
use image::codecs::webp::WebPEncoder;
use image::DynamicImage;

use super::{corrupt, ImageError, ImageFormat};

/// High enough that a second generation of JPEG loss is hard to see, low
/// enough that a re-encoded phone photo stays about its original size.
const JPEG_QUALITY: u8 = 90;

/// The GIF quantiser's speed (1 best to 30 fastest) for frames of more than 256
/// colours; 10 is the `gif` crate's advice. Frames decoded from a GIF rarely
/// need it, since each brings at most 256 colours of its own.
pub(super) const GIF_SPEED: i32 = 10;

/// Encodes one JPEG or WebP picture in `format` (PNG and GIF have encoders
/// of their own, see `png` and `animation`). `image` converts the pixel
/// layout to one the encoder takes: JPEG loses alpha (JPEG has none).
///
/// WebP is written lossless because `image` 0.25 has no lossy WebP encoder:
/// pixels stay exact, but a lossy WebP photo can come out several times larger
/// than it was uploaded. The per-file limit applies to uploads, not to copies.
pub(super) fn still(picture: &DynamicImage, format: ImageFormat) -> Result<Vec<u8>, ImageError> {
    let mut out = Vec::new();
    match format {
        ImageFormat::Jpeg => {
            picture.write_with_encoder(JpegEncoder::new_with_quality(&mut out, JPEG_QUALITY))
        }
        ImageFormat::WebP => picture.write_with_encoder(WebPEncoder::new_lossless(&mut out)),
        ImageFormat::Png | ImageFormat::Gif => {
            unreachable!("PNG and GIF are encoded by their own modules")
        }
    }
    .map_err(|err| corrupt(&err))?;
    Ok(out)
}
