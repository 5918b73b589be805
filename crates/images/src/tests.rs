//! What `clean` accepts, refuses and strips, on images made here in memory.

mod budget;
mod fixtures;
mod names;

use std::io::Cursor;

use super::{clean, ImageError, ImageFormat, ImageLimits, ACCEPTED};
use fixtures::*;

fn clean_default(bytes: &[u8]) -> Result<super::CleanImage, ImageError> {
    clean(bytes, &ImageLimits::default())
}

fn exif_of(bytes: &[u8]) -> Result<exif::Exif, exif::Error> {
    exif::Reader::new().read_from_container(&mut Cursor::new(bytes))
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack
        .windows(needle.len())
        .any(|window| window == needle)
}

#[test]
fn a_jpeg_carrying_gps_exif_is_stored_without_any_exif() {
    let upload = with_exif_segment(&jpeg(16, 8), &exif_tiff(None, true));
    let sent = exif_of(&upload).expect("the upload carries EXIF");
    assert!(sent
        .get_field(exif::Tag::GPSLatitude, exif::In::PRIMARY)
        .is_some());

    let stored = clean_default(&upload).unwrap();

    assert!(
        exif_of(&stored.bytes).is_err(),
        "the stored copy still has EXIF"
    );
    assert!(!contains(&stored.bytes, b"Exif\0\0"));
    assert!(
        !contains(&stored.bytes, &[0xFF, 0xE1]),
        "an APP1 segment survived"
    );
    assert_eq!(
        (stored.format, stored.width, stored.height),
        (ImageFormat::Jpeg, 16, 8)
    );
}

#[test]
fn a_png_with_text_chunks_and_exif_is_stored_without_them() {
    let metadata = [
        png_chunk(b"tEXt", b"Comment\0taken at 12 Acacia Avenue"),
        png_chunk(
            b"zTXt",
            &[b"Author\0\0".as_slice(), &zlib_stored(b"Jo Bloggs")].concat(),
        ),
        png_chunk(b"iTXt", b"XML:com.adobe.xmp\0\0\0\0\0<x:xmpmeta/>"),
        png_chunk(b"eXIf", &exif_tiff(None, true)),
    ];
    let upload = with_png_chunks(&png(6, 4), &metadata);
    let sent = png_chunk_types(&upload);
    assert!(["tEXt", "zTXt", "iTXt", "eXIf"]
        .iter()
        .all(|t| sent.contains(&t.to_string())));

    let stored = clean_default(&upload).unwrap();

    let kept = png_chunk_types(&stored.bytes);
    for kind in ["tEXt", "zTXt", "iTXt", "eXIf", "iCCP"] {
        assert!(
            !kept.contains(&kind.to_string()),
            "{kind} survived: {kept:?}"
        );
    }
    assert!(!contains(&stored.bytes, b"Acacia"));
    assert_eq!((stored.width, stored.height), (6, 4));
}

#[test]
fn a_jpeg_cut_in_half_is_refused_as_corrupt() {
    let whole = jpeg(64, 48);
    let err = clean_default(&whole[..whole.len() / 2]).unwrap_err();
    assert!(matches!(err, ImageError::Corrupt { .. }), "{err:?}");
    assert!(err.to_string().contains("damaged or truncated"), "{err}");
}

#[test]
fn every_accepted_format_cut_short_is_refused_as_corrupt() {
    for whole in [jpeg(40, 30), png(40, 30), webp(40, 30), gif(40, 30, 2)] {
        for cut in [whole.len() / 2, whole.len() - 3] {
            let err = clean_default(&whole[..cut]).unwrap_err();
            assert!(
                matches!(err, ImageError::Corrupt { .. }),
                "cut at {cut}: {err:?}"
            );
        }
    }
}

#[test]
fn a_png_declaring_fifty_thousand_pixels_square_is_refused_before_decoding() {
    let err = clean_default(&png_claiming(50_000, 50_000)).unwrap_err();
    assert_eq!(
        err,
        ImageError::TooManyPixels {
            width: 50_000,
            height: 50_000,
            limit: 40_000_000
        }
    );
    assert_eq!(
        err.to_string(),
        "is 50000x50000 pixels; at most 40000000 pixels are accepted"
    );
}

#[test]
fn a_real_highly_compressed_png_over_the_pixel_limit_is_refused() {
    let mut bomb = Vec::new();
    image::DynamicImage::new_luma8(2000, 2000)
        .write_with_encoder(image::codecs::png::PngEncoder::new(&mut bomb))
        .unwrap();
    assert!(bomb.len() < 100_000, "{} bytes is no bomb", bomb.len());
    let limits = ImageLimits {
        max_pixels: 1_000_000,
        ..ImageLimits::default()
    };
    let err = clean(&bomb, &limits).unwrap_err();
    assert!(matches!(
        err,
        ImageError::TooManyPixels {
            width: 2000,
            height: 2000,
            ..
        }
    ));
}

#[test]
fn gif_and_webp_headers_declaring_huge_canvases_are_refused() {
    let mut gif_bomb = gif(4, 4, 1);
    gif_bomb[6..10].copy_from_slice(&[0xFF; 4]);
    let err = clean_default(&gif_bomb).unwrap_err();
    assert!(matches!(
        err,
        ImageError::TooManyPixels {
            width: 65535,
            height: 65535,
            ..
        }
    ));

    let mut webp_bomb = webp(4, 4);
    assert_eq!(&webp_bomb[12..16], b"VP8L");
    let header = u32::from_le_bytes(webp_bomb[21..25].try_into().unwrap());
    let huge = (header & !0x0FFF_FFFF) | 0x3FFE | (0x3FFE << 14);
    webp_bomb[21..25].copy_from_slice(&huge.to_le_bytes());
    let err = clean_default(&webp_bomb).unwrap_err();
    assert!(matches!(
        err,
        ImageError::TooManyPixels {
            width: 16383,
            height: 16383,
            ..
        }
    ));
}

#[test]
fn a_text_file_named_like_a_jpeg_is_refused_as_text() {
    let err = clean_default(b"hello, I am not a picture\n").unwrap_err();
    assert_eq!(
        err,
        ImageError::Unsupported {
            detected: Some("text")
        }
    );
    assert_eq!(
        err.to_string(),
        format!("is text; accepted formats are {ACCEPTED}")
    );
}

#[test]
fn a_heic_photo_is_refused_with_the_accepted_formats() {
    let mut heic = vec![0, 0, 0, 0x18];
    heic.extend(b"ftypheic\0\0\0\0mif1heic");
    heic.extend([0u8; 64]);
    let err = clean_default(&heic).unwrap_err();
    assert_eq!(
        err,
        ImageError::Unsupported {
            detected: Some("HEIC")
        }
    );
    assert_eq!(
        err.to_string(),
        "is HEIC; accepted formats are JPEG, PNG, WebP and GIF"
    );
}

#[test]
fn other_formats_are_named_when_they_can_be_told() {
    let cases: [(&[u8], Option<&str>); 5] = [
        (b"%PDF-1.7\n%\xE2\xE3\xCF\xD3\n", Some("PDF")),
        (b"BM\x3a\0\0\0\0\0\0\0\x36\0\0\0", Some("BMP")),
        (b"II*\0\x08\0\0\0\0\0", Some("TIFF")),
        (b"\0\0\0\x1cftypavif\0\0\0\0", Some("AVIF")),
        (b"\x00\x01\x02\xFE\xFD", None),
    ];
    for (bytes, detected) in cases {
        assert_eq!(
            clean_default(bytes).unwrap_err(),
            ImageError::Unsupported { detected }
        );
    }
}

#[test]
fn each_accepted_format_round_trips_with_its_size_and_type() {
    let uploads = [
        (jpeg(7, 5), ImageFormat::Jpeg, "image/jpeg"),
        (png(7, 5), ImageFormat::Png, "image/png"),
        (webp(7, 5), ImageFormat::WebP, "image/webp"),
        (gif(7, 5, 1), ImageFormat::Gif, "image/gif"),
    ];
    for (upload, format, content_type) in uploads {
        let stored = clean_default(&upload).unwrap();
        assert_eq!((stored.format, stored.width, stored.height), (format, 7, 5));
        assert_eq!(stored.format.content_type(), content_type);
        let again = image::load_from_memory(&stored.bytes).unwrap();
        assert_eq!((again.width(), again.height()), (7, 5), "{format:?}");
        assert_eq!(
            image::guess_format(&stored.bytes).unwrap(),
            format.to_image()
        );
    }
}

#[test]
fn an_animated_gif_keeps_all_its_frames() {
    let stored = clean_default(&gif(10, 10, 3)).unwrap();
    assert_eq!(gif_frame_count(&stored.bytes), 3);
}

#[test]
fn an_animation_whose_frames_add_up_past_the_pixel_limit_is_refused() {
    let limits = ImageLimits {
        max_pixels: 250,
        ..ImageLimits::default()
    };
    let err = clean(&gif(10, 10, 3), &limits).unwrap_err();
    assert_eq!(
        err,
        ImageError::TooManyFrames {
            width: 10,
            height: 10,
            limit: 250
        }
    );
}

#[test]
fn a_jpeg_with_exif_orientation_six_is_stored_upright() {
    let upload = with_exif_segment(&jpeg(4, 2), &exif_tiff(Some(6), false));
    let stored = clean_default(&upload).unwrap();
    assert_eq!((stored.width, stored.height), (2, 4));
    assert!(exif_of(&stored.bytes).is_err());
}

#[test]
fn a_file_over_the_byte_limit_is_too_large_and_an_empty_one_is_empty() {
    let limits = ImageLimits {
        max_file_bytes: 1024,
        ..ImageLimits::default()
    };
    let err = clean(&jpeg(64, 64), &limits).unwrap_err();
    assert_eq!(err, ImageError::TooLarge { limit: 1024 });
    assert_eq!(clean_default(&[]).unwrap_err(), ImageError::Empty);
    let default_limit = ImageError::TooLarge {
        limit: ImageLimits::default().max_file_bytes,
    };
    assert_eq!(default_limit.to_string(), "is larger than 10 MiB");
}
