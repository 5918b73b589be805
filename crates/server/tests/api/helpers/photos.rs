//! Images made by the tests: real photos, photos carrying metadata that must
//! not be kept, and files that must be refused.

use image::codecs::jpeg::JpegEncoder;
use image::codecs::png::PngEncoder;
use image::{ImageEncoder, RgbImage};
use std::io::Write;

/// The marker of an EXIF APP1 segment.
pub const EXIF_MARKER: &[u8] = b"Exif\0\0";

fn picture(width: u32, height: u32) -> RgbImage {
    RgbImage::from_fn(width, height, |x, y| {
        image::Rgb([
            (x * 7 % 256) as u8,
            (y * 5 % 256) as u8,
            ((x + y) % 256) as u8,
        ])
    })
}

/// A plain JPEG.
pub fn jpeg(width: u32, height: u32) -> Vec<u8> {
    let mut out = Vec::new();
    JpegEncoder::new_with_quality(&mut out, 85)
        .encode_image(&picture(width, height))
        .unwrap();
    out
}

/// A plain PNG.
pub fn png(width: u32, height: u32) -> Vec<u8> {
    let mut out = Vec::new();
    PngEncoder::new(&mut out)
        .write_image(
            picture(width, height).as_raw(),
            width,
            height,
            image::ExtendedColorType::Rgb8,
        )
        .unwrap();
    out
}

/// A PNG of noise, which compresses badly: about `3 * width * height` bytes.
pub fn noisy_png(width: u32, height: u32) -> Vec<u8> {
    let mut state = 0x2545_f491_u32;
    let noise = RgbImage::from_fn(width, height, |_, _| {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        let [a, b, c, _] = state.to_le_bytes();
        image::Rgb([a, b, c])
    });
    let mut out = Vec::new();
    PngEncoder::new(&mut out)
        .write_image(
            noise.as_raw(),
            width,
            height,
            image::ExtendedColorType::Rgb8,
        )
        .unwrap();
    out
}

/// A JPEG with an EXIF APP1 segment holding a GPS position, right after SOI,
/// as a phone camera writes it.
pub fn jpeg_with_gps(width: u32, height: u32) -> Vec<u8> {
    let plain = jpeg(width, height);
    let mut tiff: Vec<u8> = b"II\x2a\x00".to_vec();
    tiff.extend_from_slice(&8u32.to_le_bytes());
    // IFD0: one entry, the GPS IFD pointer (0x8825, LONG) to offset 26.
    tiff.extend_from_slice(&1u16.to_le_bytes());
    tiff.extend_from_slice(&[0x25, 0x88, 4, 0]);
    tiff.extend_from_slice(&1u32.to_le_bytes());
    tiff.extend_from_slice(&26u32.to_le_bytes());
    tiff.extend_from_slice(&0u32.to_le_bytes());
    // GPS IFD: GPSLatitudeRef "N" and GPSLatitude 51/1 30/1 7/1 at offset 56.
    tiff.extend_from_slice(&2u16.to_le_bytes());
    tiff.extend_from_slice(&[1, 0, 2, 0]);
    tiff.extend_from_slice(&2u32.to_le_bytes());
    tiff.extend_from_slice(b"N\0\0\0");
    tiff.extend_from_slice(&[2, 0, 5, 0]);
    tiff.extend_from_slice(&3u32.to_le_bytes());
    tiff.extend_from_slice(&56u32.to_le_bytes());
    tiff.extend_from_slice(&0u32.to_le_bytes());
    for value in [51u32, 30, 7] {
        tiff.extend_from_slice(&value.to_le_bytes());
        tiff.extend_from_slice(&1u32.to_le_bytes());
    }
    let mut payload = EXIF_MARKER.to_vec();
    payload.extend_from_slice(&tiff);
    let mut out = plain[..2].to_vec();
    out.extend_from_slice(&[0xFF, 0xE1]);
    out.extend_from_slice(&u16::try_from(payload.len() + 2).unwrap().to_be_bytes());
    out.extend_from_slice(&payload);
    out.extend_from_slice(&plain[2..]);
    out
}

/// A PNG chunk with its length and CRC.
fn chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let mut out = u32::try_from(data.len()).unwrap().to_be_bytes().to_vec();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let mut crc = crc32fast::Hasher::new();
    crc.update(kind);
    crc.update(data);
    out.extend_from_slice(&crc.finalize().to_be_bytes());
    out
}

/// A PNG with a `tEXt` chunk right after IHDR.
pub fn png_with_text(width: u32, height: u32, text: &str) -> Vec<u8> {
    let plain = png(width, height);
    let after_ihdr = 8 + 25;
    let mut data = b"Comment\0".to_vec();
    data.extend_from_slice(text.as_bytes());
    let mut out = plain[..after_ihdr].to_vec();
    out.extend_from_slice(&chunk(b"tEXt", &data));
    out.extend_from_slice(&plain[after_ihdr..]);
    out
}

/// A tiny PNG whose IHDR claims `side` x `side` pixels: a decompression bomb.
pub fn png_bomb(side: u32) -> Vec<u8> {
    let mut ihdr = side.to_be_bytes().to_vec();
    ihdr.extend_from_slice(&side.to_be_bytes());
    ihdr.extend_from_slice(&[8, 2, 0, 0, 0]);
    let mut zlib = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    zlib.write_all(&vec![0u8; 64 * 1024]).unwrap();
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    out.extend_from_slice(&chunk(b"IHDR", &ihdr));
    out.extend_from_slice(&chunk(b"IDAT", &zlib.finish().unwrap()));
    out.extend_from_slice(&chunk(b"IEND", &[]));
    out
}

/// Whether `needle` occurs in `haystack`.
pub fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack
        .windows(needle.len())
        .any(|window| window == needle)
}
