//! Deciding what a file is from its first bytes, never from its name or the
//! type the client declared: both are chosen by whoever sends the file.

use super::{ImageError, ImageFormat};

/// Signatures of formats the `image` crate does not name (or names only in part),
/// kept so that a refusal can say what was sent: "is HEIC" helps an integrator
/// whose app uploads iPhone photos far more than "unrecognised".
const NAMED_SIGNATURES: &[(usize, &[u8], &str)] = &[
    (4, b"ftypheic", "HEIC"),
    (4, b"ftypheix", "HEIC"),
    (4, b"ftyphevc", "HEIC"),
    (4, b"ftyphevx", "HEIC"),
    (4, b"ftypheim", "HEIC"),
    (4, b"ftypheis", "HEIC"),
    (4, b"ftypmif1", "HEIC"),
    (4, b"ftypmsf1", "HEIC"),
    (4, b"ftypavif", "AVIF"),
    (4, b"ftypavis", "AVIF"),
    (0, b"%PDF", "PDF"),
    (0, b"PK\x03\x04", "ZIP"),
    (0, &[0xFF, 0x0A], "JPEG XL"),
    (0, b"\0\0\0\x0CJXL ", "JPEG XL"),
];

/// The accepted format of `bytes`, or `Unsupported` naming what it is when that
/// can be told.
pub(super) fn accepted_format(bytes: &[u8]) -> Result<ImageFormat, ImageError> {
    let guessed = image::guess_format(bytes).ok();
    if let Some(format) = guessed.and_then(accepted) {
        return Ok(format);
    }
    Err(ImageError::Unsupported {
        detected: named(bytes)
            .or_else(|| is_text(bytes).then_some("text"))
            .or_else(|| guessed.and_then(other_image_name)),
    })
}

fn accepted(format: image::ImageFormat) -> Option<ImageFormat> {
    match format {
        image::ImageFormat::Jpeg => Some(ImageFormat::Jpeg),
        image::ImageFormat::Png => Some(ImageFormat::Png),
        image::ImageFormat::WebP => Some(ImageFormat::WebP),
        image::ImageFormat::Gif => Some(ImageFormat::Gif),
        _ => None,
    }
}

fn named(bytes: &[u8]) -> Option<&'static str> {
    NAMED_SIGNATURES
        .iter()
        .find(|(offset, magic, _)| {
            bytes
                .get(*offset..)
                .is_some_and(|rest| rest.starts_with(magic))
        })
        .map(|(_, _, name)| *name)
}

/// Text is checked before `image`'s own guess because that guess takes any file
/// starting with "BM" for a bitmap and "P1" to "P7" for Netpbm.
fn is_text(bytes: &[u8]) -> bool {
    !bytes.contains(&0) && std::str::from_utf8(bytes).is_ok()
}

fn other_image_name(format: image::ImageFormat) -> Option<&'static str> {
    Some(match format {
        image::ImageFormat::Tiff => "TIFF",
        image::ImageFormat::Bmp => "BMP",
        image::ImageFormat::Ico => "ICO",
        image::ImageFormat::Avif => "AVIF",
        image::ImageFormat::Dds => "DDS",
        image::ImageFormat::Hdr => "HDR",
        image::ImageFormat::OpenExr => "OpenEXR",
        image::ImageFormat::Qoi => "QOI",
        image::ImageFormat::Pnm => "PNM",
        image::ImageFormat::Farbfeld => "farbfeld",
        image::ImageFormat::Tga => "TGA",
        _ => return None,
    })
}
