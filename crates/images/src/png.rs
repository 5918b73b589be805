//! PNG, through the `png` crate itself rather than `image`'s wrapper, for two
//! savings `image` does not offer.
//!
//! Samples are decoded to 8 bits: `image` keeps 16-bit samples, and then its
//! encoder copies the whole picture once more to put them in big-endian
//! order, so a 40-megapixel 16-bit RGBA PNG held 640 MB. Eight bits are what
//! every screen and browser shows, so the stored copy is 8-bit; palettes and
//! samples under 8 bits are expanded to 8 bits as `image` does.
//!
//! And a PNG that needs no turning (no EXIF orientation, the usual case) and
//! is not interlaced goes row by row from the decoder into the encoder, so no
//! whole picture is ever held; only the new file grows.

use std::io::{Cursor, Write};

use ::png::{BitDepth, ColorType, Decoder, Reader, StreamWriter, Transformations};
use image::metadata::Orientation;
use image::{DynamicImage, ImageBuffer};

use super::stop::Stop;
use super::weight::Still;
use super::{check_pixels, complete, corrupt, CleanImage, ImageError, ImageFormat, ImageLimits};

/// Rows decoded between two looks at the stop flag.
const ROWS_BETWEEN_CHECKS: u32 = 64;

/// What the header says, and what cleaning will cost.
pub(super) struct Header {
    width: u32,
    height: u32,
    color: ColorType,
    orientation: Orientation,
    streamed: bool,
}

impl Header {
    fn read(reader: &Reader<Cursor<&[u8]>>, limits: &ImageLimits) -> Result<Self, ImageError> {
        let info = reader.info();
        check_pixels(info.width, info.height, limits)?;
        // A damaged EXIF block should not cost the homeowner their photo:
        // the metadata is thrown away, only the pixels must be sound.
        let orientation = info
            .exif_metadata
            .as_deref()
            .and_then(Orientation::from_exif_chunk)
            .unwrap_or(Orientation::NoTransforms);
        Ok(Header {
            width: info.width,
            height: info.height,
            color: reader.output_color_type().0,
            orientation,
            streamed: orientation == Orientation::NoTransforms && !info.interlaced,
        })
    }

    /// The memory cleaning takes at its peak (see `weight`).
    pub(super) fn weight(&self) -> u64 {
        let pixels = u64::from(self.width) * u64::from(self.height);
        let samples = self.color.samples() as u64;
        Still {
            pixels,
            decoded_bytes_per_pixel: if self.streamed { 0 } else { samples },
            decoder_working: 0,
            rotates: rotates(self.orientation),
            encoder_copy: 0,
            encoded_raw: pixels * samples + u64::from(self.height),
            output_copies: 1,
            input_copy: 0,
        }
        .weight()
    }

    pub(super) fn dimensions(&self) -> (u32, u32) {
        (self.width, self.height)
    }
}

/// Whether turning a picture upright makes a rotated copy of it.
pub(super) fn rotates(orientation: Orientation) -> bool {
    matches!(
        orientation,
        Orientation::Rotate90
            | Orientation::Rotate270
            | Orientation::Rotate90FlipH
            | Orientation::Rotate270FlipH
    )
}

/// Reads the header and every chunk before the pixels, refusing a file cut
/// short or over the pixel limit.
pub(super) fn inspect(bytes: &[u8], limits: &ImageLimits) -> Result<Header, ImageError> {
    complete::png(bytes)?;
    Header::read(&reader(bytes, limits)?, limits)
}

/// Decodes the PNG and writes its pixels into a new one (see the module).
pub(super) fn clean(
    bytes: &[u8],
    limits: &ImageLimits,
    stop: &Stop,
) -> Result<CleanImage, ImageError> {
    let mut reader = reader(bytes, limits)?;
    let header = Header::read(&reader, limits)?;
    let bytes = if header.streamed {
        encode(header.width, header.height, header.color, |out| {
            let mut rows = 0u32;
            while let Some(row) = reader.next_row().map_err(|err| corrupt(&err))? {
                out.write_all(row.data()).map_err(|err| corrupt(&err))?;
                rows += 1;
                if rows.is_multiple_of(ROWS_BETWEEN_CHECKS) {
                    stop.check()?;
                }
            }
            Ok(())
        })?
    } else {
        let size = reader
            .output_buffer_size()
            .ok_or_else(|| too_many(&header, limits))?;
        let mut pixels = vec![0; size];
        reader
            .next_frame(&mut pixels)
            .map_err(|err| corrupt(&err))?;
        stop.check()?;
        let mut picture = picture(header.width, header.height, header.color, pixels)?;
        picture.apply_orientation(header.orientation);
        stop.check()?;
        encode(picture.width(), picture.height(), header.color, |out| {
            out.write_all(picture.as_bytes())
                .map_err(|err| corrupt(&err))
        })?
    };
    let (width, height) = if rotates(header.orientation) {
        (header.height, header.width)
    } else {
        (header.width, header.height)
    };
    Ok(CleanImage {
        format: ImageFormat::Png,
        width,
        height,
        bytes,
    })
}

/// A reader past the header, giving 8-bit samples: palettes and samples of
/// fewer bits expanded, 16-bit samples cut to their high byte. Its own
/// allocations (metadata chunks, a compressed ICC profile inflated, its row
/// buffers) are bounded by the largest file accepted and 4 MiB more.
fn reader<'a>(
    bytes: &'a [u8],
    limits: &ImageLimits,
) -> Result<Reader<Cursor<&'a [u8]>>, ImageError> {
    let bound = ::png::Limits {
        bytes: limits.max_file_bytes + 4 * 1024 * 1024,
    };
    let mut decoder = Decoder::new_with_limits(Cursor::new(bytes), bound);
    decoder.set_transformations(Transformations::EXPAND | Transformations::STRIP_16);
    decoder.read_info().map_err(|err| corrupt(&err))
}

/// A new 8-bit PNG with `image`'s default settings (balanced deflate,
/// adaptive filters), whose rows `fill` writes in order: each is filtered and
/// compressed as it comes, so only the new file grows.
fn encode(
    width: u32,
    height: u32,
    color: ColorType,
    fill: impl FnOnce(&mut StreamWriter<'_, &mut Vec<u8>>) -> Result<(), ImageError>,
) -> Result<Vec<u8>, ImageError> {
    let mut out = Vec::new();
    let mut encoder = ::png::Encoder::new(&mut out, width, height);
    encoder.set_color(color);
    encoder.set_depth(BitDepth::Eight);
    encoder.set_compression(::png::Compression::Balanced);
    encoder.set_filter(::png::Filter::Adaptive);
    let mut writer = encoder.write_header().map_err(|err| corrupt(&err))?;
    let mut rows = writer.stream_writer().map_err(|err| corrupt(&err))?;
    fill(&mut rows)?;
    rows.finish().map_err(|err| corrupt(&err))?;
    writer.finish().map_err(|err| corrupt(&err))?;
    Ok(out)
}

/// The decoded pixels as a picture `image` can turn upright.
fn picture(
    width: u32,
    height: u32,
    color: ColorType,
    pixels: Vec<u8>,
) -> Result<DynamicImage, ImageError> {
    let picture = match color {
        ColorType::Grayscale => {
            ImageBuffer::from_raw(width, height, pixels).map(DynamicImage::ImageLuma8)
        }
        ColorType::GrayscaleAlpha => {
            ImageBuffer::from_raw(width, height, pixels).map(DynamicImage::ImageLumaA8)
        }
        ColorType::Rgb => ImageBuffer::from_raw(width, height, pixels).map(DynamicImage::ImageRgb8),
        ColorType::Rgba => {
            ImageBuffer::from_raw(width, height, pixels).map(DynamicImage::ImageRgba8)
        }
        // EXPAND turns palettes into RGB or RGBA.
        ColorType::Indexed => None,
    };
    picture.ok_or_else(|| ImageError::Corrupt {
        reason: "its pixels do not match its header".into(),
    })
}

fn too_many(header: &Header, limits: &ImageLimits) -> ImageError {
    ImageError::TooManyPixels {
        width: header.width,
        height: header.height,
        limit: limits.max_pixels,
    }
}
