//! Test fixtures: images made in the tests, byte for byte, for every area's tests.

use std::io::Cursor;

/// A small gradient PNG of any size.
pub fn png(width: u32, height: u32) -> Vec<u8> {
    let picture = image::RgbImage::from_fn(width, height, |x, y| image::Rgb([x as u8, y as u8, 90]));
    let mut out = Cursor::new(Vec::new());
    image::DynamicImage::ImageRgb8(picture).write_to(&mut out, image::ImageFormat::Png).unwrap();
    out.into_inner()
}

/// A photo-sized PNG that compresses like a photo (gradients and fine stripes), as phones and
/// screenshots give them: many times the bytes a display copy needs.
pub fn photo_png(width: u32, height: u32) -> Vec<u8> {
    let picture = image::RgbImage::from_fn(width, height, |x, y| {
        let stripe = if (x + y) / 7 % 2 == 0 { 25 } else { 0 };
        image::Rgb([(x * 230 / width) as u8 + stripe, (y * 200 / height) as u8, ((x ^ y) % 97) as u8 + 60])
    });
    let mut out = Cursor::new(Vec::new());
    image::DynamicImage::ImageRgb8(picture).write_to(&mut out, image::ImageFormat::Png).unwrap();
    out.into_inner()
}

/// Black and white noise as a greyscale PNG: about a bit a pixel, which a lossy display copy of
/// the same width cannot beat.
pub fn noise_png(width: u32, height: u32) -> Vec<u8> {
    let picture = image::GrayImage::from_fn(width, height, |x, y| {
        let odd = (x.wrapping_mul(2_654_435_761) ^ y.wrapping_mul(40_503)).count_ones() % 2 == 1;
        image::Luma([if odd { 255 } else { 0 }])
    });
    let mut out = Cursor::new(Vec::new());
    image::DynamicImage::ImageLuma8(picture).write_to(&mut out, image::ImageFormat::Png).unwrap();
    out.into_inner()
}

fn plain_jpeg() -> Vec<u8> {
    let picture = image::RgbImage::from_fn(48, 32, |x, y| image::Rgb([x as u8 * 4, y as u8 * 6, 120]));
    let mut out = Cursor::new(Vec::new());
    image::DynamicImage::ImageRgb8(picture).write_to(&mut out, image::ImageFormat::Jpeg).unwrap();
    out.into_inner()
}

/// A JPEG with an APP1 Exif segment whose IFD0 points at a GPS IFD (latitude N 52°31'12").
pub fn jpeg_with_gps() -> Vec<u8> {
    let jpeg = plain_jpeg();
    assert_eq!(&jpeg[..2], &[0xFF, 0xD8]);
    // TIFF, little endian: header (8), IFD0 with one entry (GPSInfo → offset 26), GPS IFD with
    // two entries (GPSLatitudeRef "N", GPSLatitude 3 rationals at offset 56).
    let mut tiff: Vec<u8> = Vec::new();
    tiff.extend_from_slice(b"II\x2A\x00");
    tiff.extend_from_slice(&8u32.to_le_bytes());
    // IFD0 at 8: count, entry (tag, type LONG, count 1, value = GPS IFD offset), next IFD
    tiff.extend_from_slice(&1u16.to_le_bytes());
    tiff.extend_from_slice(&0x8825u16.to_le_bytes());
    tiff.extend_from_slice(&4u16.to_le_bytes());
    tiff.extend_from_slice(&1u32.to_le_bytes());
    tiff.extend_from_slice(&26u32.to_le_bytes());
    tiff.extend_from_slice(&0u32.to_le_bytes());
    assert_eq!(tiff.len(), 26);
    // GPS IFD at 26: 2 entries
    tiff.extend_from_slice(&2u16.to_le_bytes());
    tiff.extend_from_slice(&1u16.to_le_bytes()); // GPSLatitudeRef, ASCII, 2, "N\0"
    tiff.extend_from_slice(&2u16.to_le_bytes());
    tiff.extend_from_slice(&2u32.to_le_bytes());
    tiff.extend_from_slice(b"N\0\0\0");
    tiff.extend_from_slice(&2u16.to_le_bytes()); // GPSLatitude, RATIONAL, 3, offset 56
    tiff.extend_from_slice(&5u16.to_le_bytes());
    tiff.extend_from_slice(&3u32.to_le_bytes());
    tiff.extend_from_slice(&56u32.to_le_bytes());
    tiff.extend_from_slice(&0u32.to_le_bytes());
    assert_eq!(tiff.len(), 56);
    for (num, den) in [(52u32, 1u32), (31, 1), (12, 1)] {
        tiff.extend_from_slice(&num.to_le_bytes());
        tiff.extend_from_slice(&den.to_le_bytes());
    }
    let mut app1 = b"Exif\0\0".to_vec();
    app1.extend_from_slice(&tiff);
    let mut out = vec![0xFF, 0xD8, 0xFF, 0xE1];
    out.extend_from_slice(&((app1.len() + 2) as u16).to_be_bytes());
    out.extend_from_slice(&app1);
    out.extend_from_slice(&jpeg[2..]);
    out
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

fn png_chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let mut body = kind.to_vec();
    body.extend_from_slice(data);
    out.extend_from_slice(&body);
    out.extend_from_slice(&crc32(&body).to_be_bytes());
}

/// A few hundred bytes claiming 20000×20000 RGBA pixels (1.6 GB once decoded).
pub fn png_bomb() -> Vec<u8> {
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&20_000u32.to_be_bytes());
    ihdr.extend_from_slice(&20_000u32.to_be_bytes());
    ihdr.extend_from_slice(&[8, 6, 0, 0, 0]);
    png_chunk(&mut out, b"IHDR", &ihdr);
    // A zlib stream of a few zero bytes (stored block); the rows it would need never come.
    png_chunk(&mut out, b"IDAT", &[0x78, 0x01, 0x01, 0x04, 0x00, 0xFB, 0xFF, 0, 0, 0, 0, 0, 0x04, 0x00, 0x01]);
    png_chunk(&mut out, b"IEND", &[]);
    out
}
