//! Images made in memory by the tests, with the metadata and damage they need.

use std::io::Cursor;

use image::codecs::gif::{GifEncoder, Repeat};
use image::codecs::jpeg::JpegEncoder;
use image::codecs::png::PngEncoder;
use image::codecs::webp::WebPEncoder;
use image::{DynamicImage, Frame, ImageEncoder, RgbImage, RgbaImage};

/// A picture with enough detail that every encoding of it has some substance.
pub fn picture(width: u32, height: u32) -> RgbImage {
    RgbImage::from_fn(width, height, |x, y| {
        image::Rgb([
            (x * 37 % 256) as u8,
            (y * 59 % 256) as u8,
            ((x ^ y) * 11 % 256) as u8,
        ])
    })
}

pub fn jpeg(width: u32, height: u32) -> Vec<u8> {
    let mut out = Vec::new();
    DynamicImage::ImageRgb8(picture(width, height))
        .write_with_encoder(JpegEncoder::new_with_quality(&mut out, 85))
        .unwrap();
    out
}

pub fn png(width: u32, height: u32) -> Vec<u8> {
    let mut out = Vec::new();
    let rgba = DynamicImage::ImageRgb8(picture(width, height)).to_rgba8();
    PngEncoder::new(&mut out)
        .write_image(&rgba, width, height, image::ExtendedColorType::Rgba8)
        .unwrap();
    out
}

pub fn webp(width: u32, height: u32) -> Vec<u8> {
    let mut out = Vec::new();
    DynamicImage::ImageRgb8(picture(width, height))
        .write_with_encoder(WebPEncoder::new_lossless(&mut out))
        .unwrap();
    out
}

/// An animated GIF whose frames differ, so none can be merged away.
pub fn gif(width: u32, height: u32, frames: u8) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut encoder = GifEncoder::new(&mut out);
        encoder.set_repeat(Repeat::Infinite).unwrap();
        for n in 0..frames {
            let shade = RgbaImage::from_pixel(width, height, image::Rgba([n * 40, 90, 200, 255]));
            encoder.encode_frame(Frame::new(shade)).unwrap();
        }
    }
    out
}

/// The frames of a GIF, decoded again.
pub fn gif_frame_count(bytes: &[u8]) -> usize {
    use image::AnimationDecoder;
    let decoder = image::codecs::gif::GifDecoder::new(Cursor::new(bytes)).unwrap();
    decoder.into_frames().count()
}

/// A little-endian TIFF block as EXIF carries it: IFD0 with an optional
/// orientation and, when `gps`, a pointer to a GPS IFD holding a latitude.
pub fn exif_tiff(orientation: Option<u16>, gps: bool) -> Vec<u8> {
    let mut entries: Vec<[u8; 12]> = Vec::new();
    let ifd0_len = 2 + 12 * (usize::from(orientation.is_some()) + usize::from(gps)) + 4;
    let gps_ifd = 8 + ifd0_len as u32;
    if let Some(value) = orientation {
        entries.push(entry(0x0112, 3, 1, u32::from(value)));
    }
    if gps {
        entries.push(entry(0x8825, 4, 1, gps_ifd));
    }
    let mut tiff = b"II*\0\x08\0\0\0".to_vec();
    push_ifd(&mut tiff, &entries);
    if gps {
        let latitude_at = gps_ifd + 2 + 2 * 12 + 4;
        let latitude_ref = u32::from_le_bytes(*b"N\0\0\0");
        push_ifd(
            &mut tiff,
            &[
                entry(0x0001, 2, 2, latitude_ref),
                entry(0x0002, 5, 3, latitude_at),
            ],
        );
        for (numerator, denominator) in [(51u32, 1u32), (30, 1), (2634, 100)] {
            tiff.extend(numerator.to_le_bytes());
            tiff.extend(denominator.to_le_bytes());
        }
    }
    tiff
}

fn entry(tag: u16, kind: u16, count: u32, value: u32) -> [u8; 12] {
    let mut bytes = [0; 12];
    bytes[0..2].copy_from_slice(&tag.to_le_bytes());
    bytes[2..4].copy_from_slice(&kind.to_le_bytes());
    bytes[4..8].copy_from_slice(&count.to_le_bytes());
    bytes[8..12].copy_from_slice(&value.to_le_bytes());
    bytes
}

fn push_ifd(tiff: &mut Vec<u8>, entries: &[[u8; 12]]) {
    tiff.extend((entries.len() as u16).to_le_bytes());
    entries.iter().for_each(|e| tiff.extend(e));
    tiff.extend(0u32.to_le_bytes());
}

/// `jpeg` with an APP1 "Exif" segment spliced in right after the SOI marker.
pub fn with_exif_segment(jpeg: &[u8], tiff: &[u8]) -> Vec<u8> {
    let length = u16::try_from(2 + 6 + tiff.len()).unwrap();
    let mut out = jpeg[..2].to_vec();
    out.extend([0xFF, 0xE1]);
    out.extend(length.to_be_bytes());
    out.extend(b"Exif\0\0");
    out.extend(tiff);
    out.extend(&jpeg[2..]);
    out
}

/// A PNG chunk: length, type, data and the CRC of type and data.
pub fn png_chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let mut crc = crc32fast::Hasher::new();
    crc.update(kind);
    crc.update(data);
    let mut chunk = u32::try_from(data.len()).unwrap().to_be_bytes().to_vec();
    chunk.extend(kind);
    chunk.extend(data);
    chunk.extend(crc.finalize().to_be_bytes());
    chunk
}

/// `png` with `chunks` inserted after IHDR (8 bytes of signature, 25 of IHDR).
pub fn with_png_chunks(png: &[u8], chunks: &[Vec<u8>]) -> Vec<u8> {
    let mut out = png[..33].to_vec();
    chunks.iter().for_each(|chunk| out.extend(chunk));
    out.extend(&png[33..]);
    out
}

/// The chunk types of a PNG, in order.
pub fn png_chunk_types(png: &[u8]) -> Vec<String> {
    let mut types = Vec::new();
    let mut at = 8;
    while at + 8 <= png.len() {
        let length = u32::from_be_bytes(png[at..at + 4].try_into().unwrap()) as usize;
        types.push(String::from_utf8_lossy(&png[at + 4..at + 8]).into_owned());
        at += 12 + length;
    }
    types
}

/// `text` as a zlib stream of one stored deflate block, as zTXt and iTXt hold.
pub fn zlib_stored(text: &[u8]) -> Vec<u8> {
    let length = u16::try_from(text.len()).unwrap();
    let mut out = vec![0x78, 0x01, 0x01];
    out.extend(length.to_le_bytes());
    out.extend((!length).to_le_bytes());
    out.extend(text);
    let (mut a, mut b) = (1u32, 0u32);
    for &byte in text {
        a = (a + u32::from(byte)) % 65521;
        b = (b + a) % 65521;
    }
    out.extend(((b << 16) | a).to_be_bytes());
    out
}

/// A PNG whose IHDR claims `width` x `height`, with its CRC fixed so that only
/// the size gives it away: a decompression bomb's header, without the bomb.
pub fn png_claiming(width: u32, height: u32) -> Vec<u8> {
    let mut bytes = png(4, 4);
    bytes[16..20].copy_from_slice(&width.to_be_bytes());
    bytes[20..24].copy_from_slice(&height.to_be_bytes());
    let crc = crc32fast::hash(&bytes[12..29]);
    bytes[29..33].copy_from_slice(&crc.to_be_bytes());
    bytes
}
