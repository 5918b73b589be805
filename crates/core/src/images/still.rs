//! JPEG, PNG and WebP: one picture each, decoded in full and turned upright.

use std::io::Cursor;

use image::metadata::Orientation;
use image::{DynamicImage, ImageDecoder, ImageReader};

use super::{check_pixels, complete, corrupt, decode_failure, decoder_limits, encode};
use super::{CleanImage, ImageError, ImageFormat, ImageLimits};

/// Decodes `bytes`, already known to be `format`, and re-encodes its pixels.
/// Animated PNG and WebP keep their first frame only: the encoders `image`
/// offers for them write still pictures, and job photos are stills anyway.
pub(super) fn clean(
    bytes: &[u8],
    format: ImageFormat,
    limits: &ImageLimits,
) -> Result<CleanImage, ImageError> {
    match format {
        ImageFormat::Jpeg => complete::jpeg(bytes)?,
        ImageFormat::Png => complete::png(bytes)?,
        ImageFormat::WebP | ImageFormat::Gif => {}
    }
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format.to_image());
    reader.limits(decoder_limits(limits));
    let mut decoder = reader.into_decoder().map_err(|err| corrupt(&err))?;
    let dimensions = decoder.dimensions();
    check_pixels(dimensions.0, dimensions.1, limits)?;
    // A damaged EXIF block should not cost the homeowner their photo: the
    // metadata is about to be thrown away, only the pixels must be sound.
    let orientation = decoder.orientation().unwrap_or(Orientation::NoTransforms);
    let mut picture = DynamicImage::from_decoder(decoder)
        .map_err(|err| decode_failure(&err, dimensions, limits))?;
    picture.apply_orientation(orientation);
    Ok(CleanImage {
        format,
        width: picture.width(),
        height: picture.height(),
        bytes: encode::still(&picture, format)?,
    })
}
