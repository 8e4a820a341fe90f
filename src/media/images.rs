//! The image rules: what is accepted, how much decoding may cost, and the clean copy that is
//! shown instead of what was uploaded.
//!
//! - The type comes from the bytes (magic numbers), never from a header or a file name; only
//!   JPEG, PNG, GIF and WebP pass. SVG (a script carrier) and everything else is refused.
//! - The dimensions are read from the header before any pixel is decoded, so a tiny file that
//!   claims 20000×20000 pixels is refused at once; decoding runs under `image::Limits`.
//! - Stills are decoded and encoded again (JPEG → JPEG, PNG → PNG, WebP → lossless WebP), which
//!   leaves EXIF (GPS position, camera serial), XMP, comments and ICC profiles behind. The EXIF
//!   orientation is applied to the pixels first so phone photos stay upright. Animated WebP keeps
//!   its first frame only.
//! - GIFs keep their animation: frames are copied as palette indices (no colour loss, no
//!   quantising) into a new file holding only the frames and the loop count, so comment and
//!   application extensions (XMP) are dropped. Frame count and total pixels are bounded.
//!
//! These are CPU-bound: call `clean` on a blocking thread.

use std::io::Cursor;
use std::num::NonZeroU64;

use image::{DynamicImage, ImageDecoder, ImageFormat, ImageReader, Limits};

use crate::error::{Error, Result};

/// One upload's largest size: 10 MiB.
pub const MAX_BYTES: usize = 10 * 1024 * 1024;
/// Largest image: 40 megapixels.
pub const MAX_PIXELS: u64 = 40_000_000;
/// Most memory a decoder may allocate for one image.
pub const MAX_ALLOC: u64 = 256 * 1024 * 1024;
/// An animated GIF's frames together: at most this many pixels and frames, so a small file of
/// thousands of frames cannot keep a core busy.
const MAX_GIF_TOTAL_PIXELS: u64 = 200_000_000;
const MAX_GIF_FRAMES: usize = 1000;

/// A checked image, encoded again without metadata.
#[derive(Debug)]
pub struct CleanImage {
    pub bytes: Vec<u8>,
    pub content_type: &'static str,
    pub width: u32,
    pub height: u32,
}

fn unsupported() -> Error {
    Error::bad_request("Only JPEG, PNG, GIF and WebP images can be uploaded")
}

fn unreadable() -> Error {
    Error::bad_request("The image could not be read; it may be damaged")
}

fn too_big() -> Error {
    Error::bad_request("The image is too large: at most 40 megapixels")
}

/// Checks an uploaded file and makes the copy that will be shown.
pub fn clean(bytes: &[u8]) -> Result<CleanImage> {
    if bytes.is_empty() {
        return Err(Error::bad_request("The file is empty"));
    }
    if bytes.len() > MAX_BYTES {
        return Err(Error::PayloadTooLarge("The image is larger than 10 MiB".into()));
    }
    let format = image::guess_format(bytes).map_err(|_| unsupported())?;
    if !matches!(format, ImageFormat::Jpeg | ImageFormat::Png | ImageFormat::Gif | ImageFormat::WebP) {
        return Err(unsupported());
    }
    let (width, height) = reader(bytes, format).into_dimensions().map_err(|e| decode_error(&e))?;
    check_dimensions(width, height)?;
    if format == ImageFormat::Gif {
        return clean_gif(bytes);
    }
    let mut decoder = reader(bytes, format).into_decoder().map_err(|e| decode_error(&e))?;
    let orientation = decoder.orientation().ok();
    let mut image = DynamicImage::from_decoder(decoder).map_err(|e| decode_error(&e))?;
    if let Some(orientation) = orientation {
        image.apply_orientation(orientation);
    }
    let (width, height) = (image.width(), image.height());
    let mut out = Cursor::new(Vec::new());
    let content_type = match format {
        ImageFormat::Jpeg => {
            let image = match image {
                DynamicImage::ImageLuma8(_) | DynamicImage::ImageRgb8(_) => image,
                other => DynamicImage::ImageRgb8(other.to_rgb8()),
            };
            let encoder = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 90);
            image.write_with_encoder(encoder).map_err(|e| encode_error(&e))?;
            "image/jpeg"
        }
        ImageFormat::Png => {
            image
                .write_with_encoder(image::codecs::png::PngEncoder::new(&mut out))
                .map_err(|e| encode_error(&e))?;
            "image/png"
        }
        _ => {
            let image = if image.color().has_alpha() {
                DynamicImage::ImageRgba8(image.to_rgba8())
            } else {
                DynamicImage::ImageRgb8(image.to_rgb8())
            };
            image
                .write_with_encoder(image::codecs::webp::WebPEncoder::new_lossless(&mut out))
                .map_err(|e| encode_error(&e))?;
            "image/webp"
        }
    };
    Ok(CleanImage { bytes: out.into_inner(), content_type, width, height })
}

fn reader(bytes: &[u8], format: ImageFormat) -> ImageReader<Cursor<&[u8]>> {
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    let mut limits = Limits::default();
    limits.max_image_width = Some(65_535);
    limits.max_image_height = Some(65_535);
    limits.max_alloc = Some(MAX_ALLOC);
    reader.limits(limits);
    reader
}

fn check_dimensions(width: u32, height: u32) -> Result<()> {
    if width == 0 || height == 0 {
        return Err(unreadable());
    }
    if u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(too_big());
    }
    Ok(())
}

fn decode_error(e: &image::ImageError) -> Error {
    match e {
        image::ImageError::Limits(_) => {
            Error::bad_request("The image would need too much memory to decode")
        }
        image::ImageError::Unsupported(_) => unsupported(),
        _ => unreadable(),
    }
}

fn encode_error(e: &image::ImageError) -> Error {
    tracing::warn!(error = %e, "re-encoding an image failed");
    unreadable()
}

/// Copies a GIF's frames (as palette indices) into a new file without its extensions.
fn clean_gif(bytes: &[u8]) -> Result<CleanImage> {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    // One byte per pixel in indexed mode: a frame larger than the pixel limit is refused
    // before its buffer is allocated.
    options.set_memory_limit(gif::MemoryLimit::Bytes(NonZeroU64::new(MAX_PIXELS).expect("non-zero")));
    options.check_frame_consistency(true);
    let mut decoder = options.read_info(Cursor::new(bytes)).map_err(|_| unreadable())?;
    let (width, height) = (decoder.width(), decoder.height());
    check_dimensions(u32::from(width), u32::from(height))?;
    let global_palette = decoder.global_palette().map(<[u8]>::to_vec).unwrap_or_default();

    let mut encoder: Option<gif::Encoder<Vec<u8>>> = None;
    let mut frames = 0usize;
    let mut total_pixels = 0u64;
    while let Some(frame) = decoder.read_next_frame().map_err(|_| unreadable())? {
        frames += 1;
        total_pixels += u64::from(frame.width) * u64::from(frame.height);
        if frames > MAX_GIF_FRAMES || total_pixels > MAX_GIF_TOTAL_PIXELS {
            return Err(Error::bad_request("The animated GIF is too long"));
        }
        if frame.width == 0 || frame.height == 0 {
            // It draws nothing, and the encoder writes an empty frame as data that no decoder
            // (not even ours, on the next read) accepts: leave it out (found by fuzzing).
            continue;
        }
        let mut frame = frame.clone();
        // The decoder hands out rows in display order; write them that way.
        frame.interlaced = false;
        if frame.palette.is_none() && global_palette.is_empty() {
            return Err(unreadable());
        }
        if encoder.is_none() {
            // The loop count is known once the first frame's extensions have been read.
            let mut new = gif::Encoder::new(Vec::new(), width, height, &global_palette).map_err(|_| unreadable())?;
            new.set_repeat(decoder.repeat()).map_err(|_| unreadable())?;
            encoder = Some(new);
        }
        let encoder = encoder.as_mut().expect("made above");
        encoder.write_frame(&frame).map_err(|_| unreadable())?;
    }
    let encoder = encoder.ok_or_else(unreadable)?;
    let bytes = encoder.into_inner().map_err(|_| unreadable())?;
    Ok(CleanImage { bytes, content_type: "image/gif", width: u32::from(width), height: u32::from(height) })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encode(image: DynamicImage, format: ImageFormat) -> Vec<u8> {
        let mut out = Cursor::new(Vec::new());
        image.write_to(&mut out, format).unwrap();
        out.into_inner()
    }

    /// Found by fuzzing (fuzz/fuzz_targets/image_clean.rs): a GIF of empty frames whose clean
    /// copy could not be read again.
    const FUZZ_GIF_CLEAN_COPY: &[u8] = &[71, 73, 70, 56, 55, 97, 255, 177, 1, 0, 216, 254, 255, 177, 91, 255, 177, 181, 0, 33, 255, 0, 44, 255, 17, 0, 0, 0, 0, 0, 0, 83, 1, 1, 1, 1, 201, 1, 1, 0, 33, 255, 0, 33, 255, 0, 59, 44, 255, 17, 0, 0, 0, 0, 0, 0, 83, 1, 1, 1, 1, 201, 1, 1, 0, 44, 255, 16, 255, 247, 1, 255, 177, 0, 0, 80, 52, 0, 226, 0];

    #[test]
    fn image_check_handles_an_empty_gif_frame() {
        // Its only frames are empty: nothing to show, refused as damaged (it used to pass and
        // give a copy that could not be read).
        assert!(matches!(clean(FUZZ_GIF_CLEAN_COPY), Err(Error::BadRequest(_))));
    }

    #[test]
    fn stills_keep_their_type_and_size() {
        let picture = DynamicImage::ImageRgb8(image::RgbImage::from_pixel(30, 20, image::Rgb([200, 10, 10])));
        for (format, content_type) in [
            (ImageFormat::Jpeg, "image/jpeg"),
            (ImageFormat::Png, "image/png"),
            (ImageFormat::WebP, "image/webp"),
        ] {
            let clean = clean(&encode(picture.clone(), format)).unwrap();
            assert_eq!(clean.content_type, content_type);
            assert_eq!((clean.width, clean.height), (30, 20));
            assert_eq!(image::guess_format(&clean.bytes).unwrap(), format);
        }
    }

    #[test]
    fn animated_gifs_keep_every_frame() {
        let mut out = Vec::new();
        {
            let mut encoder = gif::Encoder::new(&mut out, 4, 4, &[0, 0, 0, 255, 255, 255]).unwrap();
            encoder.set_repeat(gif::Repeat::Infinite).unwrap();
            for i in 0..3u8 {
                let frame = gif::Frame { width: 4, height: 4, buffer: vec![i % 2; 16].into(), delay: 10, ..Default::default() };
                encoder.write_frame(&frame).unwrap();
            }
        }
        let clean = clean(&out).unwrap();
        assert_eq!(clean.content_type, "image/gif");
        let mut decoder = gif::DecodeOptions::new().read_info(Cursor::new(&clean.bytes)).unwrap();
        let mut frames = 0;
        while decoder.read_next_frame().unwrap().is_some() {
            frames += 1;
        }
        assert_eq!(frames, 3);
        assert_eq!(decoder.repeat(), gif::Repeat::Infinite);
    }

    #[test]
    fn other_types_are_refused() {
        for bytes in [
            &b"just some text"[..],
            &b"<svg xmlns=\"http://www.w3.org/2000/svg\"></svg>"[..],
            &b"BM\x00\x00"[..],
        ] {
            assert!(matches!(clean(bytes), Err(Error::BadRequest(_))));
        }
        assert!(matches!(clean(b""), Err(Error::BadRequest(_))));
    }

    #[test]
    fn damaged_images_are_a_bad_request() {
        let mut png = encode(DynamicImage::ImageRgb8(image::RgbImage::new(8, 8)), ImageFormat::Png);
        png.truncate(png.len() / 2);
        assert!(matches!(clean(&png), Err(Error::BadRequest(_))));
    }
}
