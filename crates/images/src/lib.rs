//! Photos sent with a job: what is accepted, and how each is made safe to keep.
//!
//! A photo is judged by its bytes, decoded in full under limits, and stored
//! only as a fresh encoding of its pixels, so nothing a phone wrote beside them
//! (GPS position, camera serial, XMP, comments) reaches storage. The client's
//! file name is kept, sanitised, as metadata only. This module is pure: the
//! HTTP layer counts images, limits the body and names files in its errors.

mod animation;
mod complete;
mod detect;
mod encode;
mod gif_frames;
mod name;
mod png;
mod still;
mod stop;
#[cfg(test)]
mod tests;
mod weight;

pub use name::sanitize_file_name;
pub use stop::{RaiseOnDrop, Stop};
pub use weight::largest_weight;

/// The formats accepted, as shown to integrators in refusals.
pub const ACCEPTED: &str = "JPEG, PNG, WebP and GIF";

const MIB: usize = 1024 * 1024;

/// How much one submission's images may cost to decode and keep.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageLimits {
    /// Largest accepted file, in bytes; a phone photo is 2 to 6 MiB.
    pub max_file_bytes: usize,
    /// Largest accepted width × height. It bounds the memory a decode takes
    /// whatever the file size, which is what stops decompression bombs.
    pub max_pixels: u64,
    /// Most images in one job.
    pub max_images: usize,
}

impl Default for ImageLimits {
    /// 10 MiB, 40 megapixels (above any phone camera) and 5 images.
    fn default() -> Self {
        Self {
            max_file_bytes: 10 * MIB,
            max_pixels: 40_000_000,
            max_images: 5,
        }
    }
}

/// An accepted image format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageFormat {
    Jpeg,
    Png,
    WebP,
    Gif,
}

impl ImageFormat {
    /// The media type to store and serve the cleaned image with.
    pub fn content_type(self) -> &'static str {
        match self {
            Self::Jpeg => "image/jpeg",
            Self::Png => "image/png",
            Self::WebP => "image/webp",
            Self::Gif => "image/gif",
        }
    }

    /// The extension for a stored copy, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            Self::Jpeg => "jpg",
            Self::Png => "png",
            Self::WebP => "webp",
            Self::Gif => "gif",
        }
    }

    #[cfg(test)]
    fn to_image(self) -> image::ImageFormat {
        match self {
            Self::Jpeg => image::ImageFormat::Jpeg,
            Self::Png => image::ImageFormat::Png,
            Self::WebP => image::ImageFormat::WebP,
            Self::Gif => image::ImageFormat::Gif,
        }
    }
}

/// An image re-encoded from its pixels alone, ready to store.
#[derive(Clone, PartialEq, Eq)]
pub struct CleanImage {
    /// Same format as the upload: clients chose it, and it keeps sizes familiar.
    pub format: ImageFormat,
    /// Width after the EXIF orientation was applied.
    pub width: u32,
    /// Height after the EXIF orientation was applied.
    pub height: u32,
    /// The encoded file, free of metadata.
    pub bytes: Vec<u8>,
}

impl std::fmt::Debug for CleanImage {
    /// The byte count rather than the bytes, so a failing test stays readable.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CleanImage")
            .field("format", &self.format)
            .field("width", &self.width)
            .field("height", &self.height)
            .field("bytes", &format_args!("{} bytes", self.bytes.len()))
            .finish()
    }
}

/// Why a file was refused. Each text completes a sentence that the caller
/// starts with the file name, e.g. "`photo.heic`: is HEIC; accepted formats are
/// JPEG, PNG, WebP and GIF", and is safe to show to integrators.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImageError {
    #[error("is empty")]
    Empty,
    #[error("is larger than {}", human_bytes(*limit))]
    TooLarge { limit: usize },
    #[error("is {}; accepted formats are {ACCEPTED}", detected.unwrap_or("not a recognised format"))]
    Unsupported { detected: Option<&'static str> },
    #[error("is damaged or truncated and could not be read in full ({reason})")]
    Corrupt { reason: String },
    #[error("is {width}x{height} pixels; at most {limit} pixels are accepted")]
    TooManyPixels { width: u32, height: u32, limit: u64 },
    /// An animation whose frames, each counted at full size, add up to more
    /// than `limit` pixels: every frame is decoded and re-encoded, so its
    /// length costs as much as a larger picture would.
    #[error("is a {width}x{height} animation whose frames add up to more than {limit} pixels")]
    TooManyFrames { width: u32, height: u32, limit: u64 },
    /// Not a fault of the file: the [`Stop`] flag was raised (the request
    /// was abandoned) before the work was done.
    #[error("was not finished: the work on it was stopped")]
    Stopped,
}

/// Whole mebibytes when the limit is one, as configured limits usually are.
fn human_bytes(bytes: usize) -> String {
    match (bytes / MIB, bytes % MIB) {
        (mib, 0) if mib > 0 => format!("{mib} MiB"),
        _ => format!("{bytes} bytes"),
    }
}

/// Decides the type from the bytes (magic numbers, never the name), decodes
/// the whole image under `limits`, applies the EXIF orientation, and re-encodes
/// the pixels so that no metadata survives: EXIF (GPS included), XMP, IPTC,
/// PNG text chunks, comments, and the ICC colour profile too. Dropping ICC
/// means pictures are stored as sRGB without a profile, so wide-gamut phone
/// photos may look slightly less saturated; it is dropped anyway because a
/// profile can carry free text (device names) and arbitrary payloads.
///
/// Decoding in full is what catches truncated and corrupt files at upload
/// rather than when someone opens them. Animated GIFs keep their animation;
/// animated PNG and WebP keep their first frame. PNGs are stored with 8-bit
/// samples, whatever they came with. See [`ImageError`] for refusals.
///
/// The same as [`inspect`] then [`Inspected::clean`], for a caller with no
/// memory budget to take from and nothing to stop it.
pub fn clean(bytes: &[u8], limits: &ImageLimits) -> Result<CleanImage, ImageError> {
    inspect(bytes, limits)?.clean(bytes, limits, &Stop::default())
}

/// An image whose header was read and found acceptable, and what cleaning
/// it will cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Inspected {
    /// The format, from the bytes.
    pub format: ImageFormat,
    /// Width as stored in the file (before any EXIF orientation).
    pub width: u32,
    /// Height as stored in the file.
    pub height: u32,
    /// The most memory cleaning it holds at once, in bytes: its pixels in
    /// the layout actually decoded, the copies that turning it upright and
    /// re-encoding it make, and the new file at its largest possible size.
    /// Take this much from a memory budget before [`Inspected::clean`].
    pub weight: u64,
}

/// Everything [`clean`] refuses without decoding pixels: an empty file, one
/// over the byte limit, a format not accepted, a file cut short (JPEG, PNG),
/// dimensions over the pixel limit, an animation whose frames add up past
/// it. Cheap: headers and the file's structure only.
pub fn inspect(bytes: &[u8], limits: &ImageLimits) -> Result<Inspected, ImageError> {
    if bytes.is_empty() {
        return Err(ImageError::Empty);
    }
    if bytes.len() > limits.max_file_bytes {
        return Err(ImageError::TooLarge {
            limit: limits.max_file_bytes,
        });
    }
    let format = detect::accepted_format(bytes)?;
    let ((width, height), weight) = match format {
        ImageFormat::Png => {
            let header = png::inspect(bytes, limits)?;
            (header.dimensions(), header.weight())
        }
        ImageFormat::Gif => {
            let header = animation::inspect(bytes, limits)?;
            (header.dimensions(), header.weight())
        }
        ImageFormat::Jpeg | ImageFormat::WebP => {
            let header = still::inspect(bytes, format, limits)?;
            (header.dimensions(), header.weight())
        }
    };
    Ok(Inspected {
        format,
        width,
        height,
        weight,
    })
}

impl Inspected {
    /// Cleans `bytes`, the file this inspection was made of (see [`clean`]).
    /// The work looks at `stop` between steps (each GIF frame, each band of
    /// PNG rows, between decoding and encoding) and ends with
    /// [`ImageError::Stopped`] once it is raised.
    pub fn clean(
        &self,
        bytes: &[u8],
        limits: &ImageLimits,
        stop: &Stop,
    ) -> Result<CleanImage, ImageError> {
        stop.check()?;
        match self.format {
            ImageFormat::Png => png::clean(bytes, limits, stop),
            ImageFormat::Gif => animation::clean_gif(bytes, limits, stop),
            format => still::clean(bytes, format, limits, stop),
        }
    }
}

/// Refuses dimensions over the pixel limit, before any pixel is decoded.
fn check_pixels(width: u32, height: u32, limits: &ImageLimits) -> Result<(), ImageError> {
    if width == 0 || height == 0 {
        return Err(ImageError::Corrupt {
            reason: "it declares no pixels".into(),
        });
    }
    if u64::from(width) * u64::from(height) > limits.max_pixels {
        return Err(ImageError::TooManyPixels {
            width,
            height,
            limit: limits.max_pixels,
        });
    }
    Ok(())
}

/// Limits handed to `image`'s decoders for their own buffers: what the
/// image's weight allows, which they check their allocations against (those
/// that count them: GIF, WebP).
fn decoder_limits(weight: u64) -> image::Limits {
    let mut decoder = image::Limits::default();
    decoder.max_alloc = Some(weight);
    decoder
}

/// A decoder's complaint as a `Corrupt` reason: one line, bounded, and never
/// more than the decoder said about the bytes (we decode from memory, so no
/// path can appear in it).
fn corrupt(err: &impl std::fmt::Display) -> ImageError {
    let mut reason: String = err
        .to_string()
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(200)
        .collect();
    reason.truncate(reason.trim_end().len());
    ImageError::Corrupt { reason }
}

/// Maps a failure met while decoding pixels: running into the allocation limit
/// is a size problem, anything else a damaged file.
fn decode_failure(
    err: &image::ImageError,
    (width, height): (u32, u32),
    limits: &ImageLimits,
) -> ImageError {
    match err {
        image::ImageError::Limits(_) => ImageError::TooManyPixels {
            width,
            height,
            limit: limits.max_pixels,
        },
        other => corrupt(other),
    }
}
