//! What inspecting an image says it will cost, 16-bit PNGs kept at 8 bits,
//! and work that stops when asked.

use super::fixtures::*;
use crate::{clean, inspect, largest_weight, ImageError, ImageFormat, ImageLimits, Stop};

/// A PNG of `bits` bits a sample, RGBA, each pixel's samples their high
/// byte `x`, `y`, `x ^ y` and 255 (low bytes 0x5A at 16 bits).
fn rgba_png(width: u32, height: u32, bits: ::png::BitDepth) -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = ::png::Encoder::new(&mut out, width, height);
    encoder.set_color(::png::ColorType::Rgba);
    encoder.set_depth(bits);
    let mut data = Vec::new();
    for y in 0..height {
        for x in 0..width {
            for sample in [x as u8, y as u8, (x ^ y) as u8, 255] {
                data.push(sample);
                if bits == ::png::BitDepth::Sixteen {
                    data.push(0x5A);
                }
            }
        }
    }
    let mut writer = encoder.write_header().unwrap();
    writer.write_image_data(&data).unwrap();
    writer.finish().unwrap();
    out
}

fn weight(bytes: &[u8]) -> u64 {
    inspect(bytes, &ImageLimits::default()).unwrap().weight
}

#[test]
fn a_16_bit_rgba_png_is_stored_with_8_bit_samples_holding_the_high_bytes() {
    let upload = rgba_png(40, 30, ::png::BitDepth::Sixteen);

    let stored = clean(&upload, &ImageLimits::default()).unwrap();

    assert_eq!(
        (stored.format, stored.width, stored.height),
        (ImageFormat::Png, 40, 30)
    );
    let mut reader = ::png::Decoder::new(std::io::Cursor::new(&stored.bytes))
        .read_info()
        .unwrap();
    assert_eq!(
        reader.output_color_type(),
        (::png::ColorType::Rgba, ::png::BitDepth::Eight)
    );
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    reader.next_frame(&mut pixels).unwrap();
    let at = |x: usize, y: usize| &pixels[(y * 40 + x) * 4..][..4];
    assert_eq!(at(7, 3), [7, 3, 7 ^ 3, 255]);
    assert_eq!(at(39, 29), [39, 29, 39 ^ 29, 255]);
}

#[test]
fn a_16_bit_png_weighs_no_more_than_the_same_picture_at_8_bits() {
    let wide = rgba_png(300, 200, ::png::BitDepth::Sixteen);
    let narrow = rgba_png(300, 200, ::png::BitDepth::Eight);
    assert_eq!(weight(&wide), weight(&narrow));
}

#[test]
fn a_png_that_needs_turning_weighs_a_second_copy_of_its_pixels_more() {
    let (width, height) = (300u64, 200u64);
    let upright = rgba_png(300, 200, ::png::BitDepth::Eight);
    let turned = with_png_chunks(&upright, &[png_chunk(b"eXIf", &exif_tiff(Some(6), false))]);
    // Upright, rows go straight from decoder to encoder; turned, the whole
    // picture is decoded and then copied turned.
    assert!(
        weight(&turned) >= weight(&upright) + width * height * 4,
        "{} vs {}",
        weight(&turned),
        weight(&upright)
    );

    let stored = clean(&turned, &ImageLimits::default()).unwrap();
    assert_eq!((stored.width, stored.height), (200, 300));
}

#[test]
fn a_gif_weighs_more_with_each_frame_it_holds() {
    assert!(weight(&gif(40, 30, 6)) > weight(&gif(40, 30, 3)));
    assert!(weight(&gif(40, 30, 3)) > weight(&gif(40, 30, 1)));
}

#[test]
fn an_animation_over_the_pixel_limit_is_refused_from_its_structure_alone() {
    let limits = ImageLimits {
        max_pixels: 250,
        ..ImageLimits::default()
    };
    assert_eq!(
        inspect(&gif(10, 10, 3), &limits).unwrap_err(),
        ImageError::TooManyFrames {
            width: 10,
            height: 10,
            limit: 250
        }
    );
    assert!(inspect(&gif(10, 10, 2), &limits).is_ok());
}

#[test]
fn no_image_the_limits_admit_weighs_more_than_the_largest_weight() {
    let limits = ImageLimits {
        max_pixels: 200 * 160,
        ..ImageLimits::default()
    };
    let turned_png = with_png_chunks(
        &rgba_png(200, 160, ::png::BitDepth::Sixteen),
        &[png_chunk(b"eXIf", &exif_tiff(Some(8), false))],
    );
    let turned_jpeg = with_exif_segment(&jpeg(200, 160), &exif_tiff(Some(6), false));
    let largest = largest_weight(&limits);
    for upload in [
        turned_png,
        turned_jpeg,
        webp(200, 160),
        gif(200, 160, 1),
        gif(100, 80, 4),
    ] {
        let inspected = inspect(&upload, &limits).unwrap();
        assert!(inspected.weight <= largest, "{inspected:?} over {largest}");
    }
}

#[test]
fn a_raised_flag_stops_the_work_before_it_starts() {
    let stop = Stop::default();
    stop.raise();
    for upload in [jpeg(8, 8), png(8, 8), webp(8, 8), gif(8, 8, 2)] {
        let inspected = inspect(&upload, &ImageLimits::default()).unwrap();
        assert_eq!(
            inspected.clean(&upload, &ImageLimits::default(), &stop),
            Err(ImageError::Stopped)
        );
    }
}

#[test]
fn a_gif_stops_between_frames_once_its_flag_is_raised() {
    let upload = gif(20, 20, 5);
    let inspected = inspect(&upload, &ImageLimits::default()).unwrap();

    // One check before the work, then one before each frame: raised at the
    // third, the work stops after its first frame, not after all five.
    let stop = Stop::raised_at_check(3);
    let outcome = inspected.clean(&upload, &ImageLimits::default(), &stop);
    assert_eq!(outcome, Err(ImageError::Stopped));
    assert_eq!(stop.checks(), 3);

    let down = Stop::default();
    let whole = inspected
        .clean(&upload, &ImageLimits::default(), &down)
        .unwrap();
    assert_eq!(gif_frame_count(&whole.bytes), 5);
    assert_eq!(
        down.checks(),
        1 + 5 + 1,
        "before the work, each frame, the end"
    );
}

#[test]
fn a_tall_png_stops_between_bands_of_rows_once_its_flag_is_raised() {
    let upload = rgba_png(4, 1000, ::png::BitDepth::Eight);
    let inspected = inspect(&upload, &ImageLimits::default()).unwrap();
    let stop = Stop::raised_at_check(3);
    let outcome = inspected.clean(&upload, &ImageLimits::default(), &stop);
    assert_eq!(outcome, Err(ImageError::Stopped));
    assert_eq!(
        stop.checks(),
        3,
        "before the work, after 64 rows, after 128"
    );
}
