//! JPEG and WebP: one picture each, decoded in full and turned upright.

use std::io::Cursor;

use image::codecs::jpeg::JpegDecoder;
use image::codecs::webp::WebPDecoder;
use image::metadata::Orientation;
use image::{DynamicImage, ImageDecoder};

use super::png::rotates;
use super::stop::Stop;
use super::weight::{self, Still};
use super::{check_pixels, complete, corrupt, decode_failure, decoder_limits, encode};
use super::{CleanImage, ImageError, ImageFormat, ImageLimits};

/// What the header says, and what cleaning will cost.
pub(super) struct Header {
    format: ImageFormat,
    width: u32,
    height: u32,
    cost: Still,
}

impl Header {
    /// The memory cleaning takes at its peak (see `weight`).
    pub(super) fn weight(&self) -> u64 {
        self.cost.weight()
    }

    pub(super) fn dimensions(&self) -> (u32, u32) {
        (self.width, self.height)
    }
}

/// A decoder of either format, past its header.
enum Decoder<'a> {
    Jpeg(JpegDecoder<Cursor<&'a [u8]>>, complete::JpegScans),
    WebP(WebPDecoder<Cursor<&'a [u8]>>),
}

impl<'a> Decoder<'a> {
    /// Refuses a JPEG cut short, then reads the header.
    fn open(bytes: &'a [u8], format: ImageFormat) -> Result<Self, ImageError> {
        let cursor = Cursor::new(bytes);
        match format {
            ImageFormat::Jpeg => {
                let scans = complete::jpeg(bytes)?;
                let decoder = JpegDecoder::new(cursor).map_err(|err| corrupt(&err))?;
                Ok(Decoder::Jpeg(decoder, scans))
            }
            ImageFormat::WebP => Ok(Decoder::WebP(
                WebPDecoder::new(cursor).map_err(|err| corrupt(&err))?,
            )),
            ImageFormat::Png | ImageFormat::Gif => {
                unreachable!("PNG and GIF have modules of their own")
            }
        }
    }

    fn decoder(&mut self) -> &mut dyn ImageDecoder {
        match self {
            Decoder::Jpeg(decoder, _) => decoder,
            Decoder::WebP(decoder) => decoder,
        }
    }

    /// Reads what the cost depends on, refusing dimensions over the limit.
    fn header(
        &mut self,
        bytes: &[u8],
        format: ImageFormat,
        limits: &ImageLimits,
    ) -> Result<(Header, Orientation), ImageError> {
        let decoder = self.decoder();
        let (width, height) = decoder.dimensions();
        check_pixels(width, height, limits)?;
        // A damaged EXIF block should not cost the homeowner their photo: the
        // metadata is about to be thrown away, only the pixels must be sound.
        let orientation = decoder.orientation().unwrap_or(Orientation::NoTransforms);
        let color = decoder.color_type();
        let pixels = u64::from(width) * u64::from(height);
        let decoded = u64::from(color.bytes_per_pixel());
        let cost = match self {
            Decoder::Jpeg(_, scans) => {
                // JPEG has no alpha: the encoder copies an RGBA or grey-alpha
                // picture without it first (the decoder gives such only for
                // rare Adobe files).
                let kept = if color.has_alpha() {
                    decoded - 1
                } else {
                    decoded
                };
                Still {
                    pixels,
                    decoded_bytes_per_pixel: decoded,
                    decoder_working: if scans.scans > 1 {
                        weight::jpeg_coefficients(pixels, u64::from(scans.components))
                    } else {
                        0
                    },
                    rotates: rotates(orientation),
                    encoder_copy: if color.has_alpha() { pixels * kept } else { 0 },
                    encoded_raw: pixels * kept,
                    output_copies: 1,
                    input_copy: bytes.len() as u64,
                }
            }
            Decoder::WebP(_) => weight::webp(pixels, decoded, rotates(orientation)),
        };
        let header = Header {
            format,
            width,
            height,
            cost,
        };
        Ok((header, orientation))
    }
}

/// Reads the header of `bytes`, already known to be `format`, refusing a
/// JPEG cut short or a picture over the pixel limit.
pub(super) fn inspect(
    bytes: &[u8],
    format: ImageFormat,
    limits: &ImageLimits,
) -> Result<Header, ImageError> {
    let mut decoder = Decoder::open(bytes, format)?;
    Ok(decoder.header(bytes, format, limits)?.0)
}

/// Decodes `bytes`, already known to be `format`, and re-encodes its pixels.
/// Animated WebP keeps its first frame only: the encoder `image` offers
/// writes still pictures, and job photos are stills anyway.
pub(super) fn clean(
    bytes: &[u8],
    format: ImageFormat,
    limits: &ImageLimits,
    stop: &Stop,
) -> Result<CleanImage, ImageError> {
    let mut decoder = Decoder::open(bytes, format)?;
    let (header, orientation) = decoder.header(bytes, format, limits)?;
    let dimensions = header.dimensions();
    let picture = match decoder {
        Decoder::Jpeg(mut decoder, _) => {
            decoder
                .set_limits(decoder_limits(header.weight()))
                .map_err(|err| decode_failure(&err, dimensions, limits))?;
            DynamicImage::from_decoder(decoder)
        }
        Decoder::WebP(mut decoder) => {
            decoder
                .set_limits(decoder_limits(header.weight()))
                .map_err(|err| decode_failure(&err, dimensions, limits))?;
            DynamicImage::from_decoder(decoder)
        }
    };
    let mut picture = picture.map_err(|err| decode_failure(&err, dimensions, limits))?;
    stop.check()?;
    picture.apply_orientation(orientation);
    stop.check()?;
    Ok(CleanImage {
        format: header.format,
        width: picture.width(),
        height: picture.height(),
        bytes: encode::still(&picture, format)?,
    })
}
