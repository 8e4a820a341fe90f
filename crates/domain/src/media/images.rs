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
//! - Stills also get display copies ("variants", see `VARIANT_WIDTHS`): narrower, and lossy WebP
//!   (with its alpha plane where there is real transparency), because feeds show images ~300–600
//!   CSS px wide and the originals are often several times that size and bytes.
//!
//! These are CPU-bound: call `clean` on a blocking thread.

use std::io::Cursor;
use std::num::NonZeroU64;

use bytes::Bytes;
use image::imageops::FilterType;
use image::{DynamicImage, ImageDecoder, ImageFormat, ImageReader, Limits};

use murmur_core::error::{Error, Result};

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

/// Widths of the display copies, smallest first: 320 for the 2×2 grid on phones (~160 CSS px
/// at 1.75–2×), 640 for one image on phones (~330 CSS px) and on desktops (~590 CSS px at 1×),
/// 1280 for desktops at 2×. The web app names them in `srcset`; `/objects/{id}/{width}` serves
/// them. Width, not the longest side, because the feed's boxes have a fixed width and crop the
/// height (`object-cover`).
pub const VARIANT_WIDTHS: [u32; 3] = [320, 640, 1280];
/// libwebp's quality for display copies: its default (`cwebp -q 75`). On photos at 640 px the
/// copies take a fifth to a half of the bytes of the `image` crate's JPEG at 80, with no
/// difference to the eye at display size (docs/media.md).
const VARIANT_WEBP_QUALITY: f32 = 75.0;

/// A checked image, encoded again without metadata.
#[derive(Debug)]
pub struct CleanImage {
    pub bytes: Vec<u8>,
    pub content_type: &'static str,
    pub width: u32,
    pub height: u32,
    /// Display copies, one per width of `VARIANT_WIDTHS` that is worth having (see `variants`).
    pub variants: Vec<Variant>,
}

/// A display copy: the image at most `width` px wide (narrower images keep their width), as
/// lossy WebP.
#[derive(Debug, Clone)]
pub struct Variant {
    /// The width it was made for (one of `VARIANT_WIDTHS`), which names it.
    pub width: u32,
    pub bytes: Bytes,
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
            write_jpeg(&image, &mut out, 90).map_err(|e| encode_error(&e))?;
            "image/jpeg"
        }
        ImageFormat::Png => {
            image.write_with_encoder(image::codecs::png::PngEncoder::new(&mut out)).map_err(|e| encode_error(&e))?;
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
    let bytes = out.into_inner();
    let variants = variants(&image, bytes.len());
    Ok(CleanImage { bytes, content_type, width, height, variants })
}

/// The display copies of a still worth keeping: for each of `VARIANT_WIDTHS`, the image scaled
/// down to that width (or as wide as it is), kept only when it is smaller in bytes than the
/// clean copy (`original_len`), which is served wherever a copy is missing. Copies of the same
/// width share their bytes. A copy that cannot be encoded is left out: the image still works.
fn variants(image: &DynamicImage, original_len: usize) -> Vec<Variant> {
    let transparent = has_transparency(image);
    let mut made: Vec<Variant> = Vec::new();
    // Largest first, each scaled from the one before: cheaper than scaling the full image three
    // times, and the same to the eye for these ratios.
    let mut source: Option<DynamicImage> = None;
    let mut previous: Option<(u32, Option<Bytes>)> = None;
    for &size in VARIANT_WIDTHS.iter().rev() {
        let current = source.as_ref().unwrap_or(image);
        let target = size.min(image.width());
        let bytes = match &previous {
            Some((width, bytes)) if *width == target => bytes.clone(),
            _ => {
                let scaled = if target == current.width() {
                    current.clone()
                } else {
                    let height = scaled_height(image.width(), image.height(), target);
                    current.resize_exact(target, height, FilterType::CatmullRom)
                };
                let bytes = encode_variant(&scaled, transparent).filter(|b| b.len() < original_len).map(Bytes::from);
                source = Some(scaled);
                bytes
            }
        };
        if let Some(bytes) = &bytes {
            made.push(Variant { width: size, bytes: bytes.clone() });
        }
        previous = Some((target, bytes));
    }
    made.reverse();
    made
}

/// `height` scaled as `width` becomes `target`, at least 1 px.
fn scaled_height(width: u32, height: u32, target: u32) -> u32 {
    let scaled = (u64::from(height) * u64::from(target) + u64::from(width) / 2) / u64::from(width);
    u32::try_from(scaled.max(1)).unwrap_or(u32::MAX)
}

/// Whether any pixel is see-through: many PNGs carry an alpha channel that is opaque
/// everywhere, and those can be JPEGs.
fn has_transparency(image: &DynamicImage) -> bool {
    if !image.color().has_alpha() {
        return false;
    }
    match image {
        DynamicImage::ImageLumaA8(pixels) => pixels.pixels().any(|p| p.0[1] < u8::MAX),
        DynamicImage::ImageRgba8(pixels) => pixels.pixels().any(|p| p.0[3] < u8::MAX),
        other => other.to_rgba8().pixels().any(|p| p.0[3] < u8::MAX),
    }
}

/// Lossy WebP, with an alpha plane only where a pixel is see-through: lossy is fine at display
/// size, and every browser the web app supports shows WebP. libwebp's encoder only ever sees
/// pixels the `image` crate decoded; no uploaded byte reaches C code.
fn encode_variant(image: &DynamicImage, transparent: bool) -> Option<Vec<u8>> {
    let (pixels, layout) = if transparent {
        (image.to_rgba8().into_raw(), webp::PixelLayout::Rgba)
    } else {
        (image.to_rgb8().into_raw(), webp::PixelLayout::Rgb)
    };
    match webp::Encoder::new(&pixels, layout, image.width(), image.height()).encode_simple(false, VARIANT_WEBP_QUALITY)
    {
        Ok(bytes) => Some(bytes.to_vec()),
        Err(error) => {
            tracing::warn!(?error, "encoding a display copy failed; the original is served instead");
            None
        }
    }
}

/// JPEG at `quality`; JPEG holds grey or RGB only, so anything else (alpha, 16-bit) is converted.
fn write_jpeg(image: &DynamicImage, out: &mut Cursor<Vec<u8>>, quality: u8) -> image::ImageResult<()> {
    let encoder = image::codecs::jpeg::JpegEncoder::new_with_quality(out, quality);
    match image {
        DynamicImage::ImageLuma8(_) | DynamicImage::ImageRgb8(_) => image.write_with_encoder(encoder),
        other => DynamicImage::ImageRgb8(other.to_rgb8()).write_with_encoder(encoder),
    }
}

/// The content type of a display copy, from its bytes (it is ours: JPEG or WebP).
pub fn variant_content_type(bytes: &[u8]) -> &'static str {
    match image::guess_format(bytes) {
        Ok(ImageFormat::WebP) => "image/webp",
        Ok(ImageFormat::Png) => "image/png",
        _ => "image/jpeg",
    }
}

/// The pixels an image's header claims, read without decoding it (0 when there is no header
/// to read: the check then refuses it cheaply).
pub fn claimed_pixels(bytes: &[u8]) -> u64 {
    let Ok(format) = image::guess_format(bytes) else { return 0 };
    reader(bytes, format).into_dimensions().map_or(0, |(width, height)| u64::from(width) * u64::from(height))
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
        image::ImageError::Limits(_) => Error::bad_request("The image would need too much memory to decode"),
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
    // No display copies: a still would lose the animation, and GIF has no cheaper encoding here.
    Ok(CleanImage {
        bytes,
        content_type: "image/gif",
        width: u32::from(width),
        height: u32::from(height),
        variants: Vec::new(),
    })
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
    const FUZZ_GIF_CLEAN_COPY: &[u8] = &[
        71, 73, 70, 56, 55, 97, 255, 177, 1, 0, 216, 254, 255, 177, 91, 255, 177, 181, 0, 33, 255, 0, 44, 255, 17, 0,
        0, 0, 0, 0, 0, 83, 1, 1, 1, 1, 201, 1, 1, 0, 33, 255, 0, 33, 255, 0, 59, 44, 255, 17, 0, 0, 0, 0, 0, 0, 83, 1,
        1, 1, 1, 201, 1, 1, 0, 44, 255, 16, 255, 247, 1, 255, 177, 0, 0, 80, 52, 0, 226, 0,
    ];

    #[test]
    fn image_check_handles_an_empty_gif_frame() {
        // Its only frames are empty: nothing to show, refused as damaged (it used to pass and
        // give a copy that could not be read).
        assert!(matches!(clean(FUZZ_GIF_CLEAN_COPY), Err(Error::BadRequest(_))));
    }

    #[test]
    fn stills_keep_their_type_and_size() {
        let picture = DynamicImage::ImageRgb8(image::RgbImage::from_pixel(30, 20, image::Rgb([200, 10, 10])));
        for (format, content_type) in
            [(ImageFormat::Jpeg, "image/jpeg"), (ImageFormat::Png, "image/png"), (ImageFormat::WebP, "image/webp")]
        {
            let clean = clean(&encode(picture.clone(), format)).unwrap();
            assert_eq!(clean.content_type, content_type);
            assert_eq!((clean.width, clean.height), (30, 20));
            assert_eq!(image::guess_format(&clean.bytes).unwrap(), format);
        }
    }

    /// Smooth gradients with fine stripes: compresses like a photo, not like a flat colour.
    fn photo(width: u32, height: u32) -> DynamicImage {
        DynamicImage::ImageRgb8(image::RgbImage::from_fn(width, height, |x, y| {
            let stripe = if (x + y) / 7 % 2 == 0 { 25 } else { 0 };
            image::Rgb([(x * 230 / width) as u8 + stripe, (y * 200 / height) as u8, ((x ^ y) % 97) as u8 + 60])
        }))
    }

    #[test]
    fn stills_get_smaller_display_copies_at_each_width() {
        let original = encode(photo(1600, 1000), ImageFormat::Png);
        let clean = clean(&original).unwrap();
        let widths: Vec<u32> = clean.variants.iter().map(|v| v.width).collect();
        assert_eq!(widths, VARIANT_WIDTHS.to_vec());
        for variant in &clean.variants {
            assert_eq!(image::guess_format(&variant.bytes).unwrap(), ImageFormat::WebP);
            assert_eq!(variant_content_type(&variant.bytes), "image/webp");
            assert!(
                variant.bytes.len() < clean.bytes.len(),
                "{} B is not smaller than {} B",
                variant.bytes.len(),
                clean.bytes.len()
            );
            let decoded = image::load_from_memory(&variant.bytes).unwrap();
            // Scaled to the width, the shape kept (1600×1000 is 8:5).
            assert_eq!(decoded.width(), variant.width);
            assert_eq!(decoded.height(), variant.width * 5 / 8);
        }
    }

    #[test]
    fn a_narrow_image_keeps_its_width_in_its_copies() {
        let clean = clean(&encode(photo(500, 300), ImageFormat::Png)).unwrap();
        for variant in &clean.variants {
            let decoded = image::load_from_memory(&variant.bytes).unwrap();
            assert_eq!(decoded.width(), variant.width.min(500));
        }
        // The PNG is re-encoded as a WebP even where it is not scaled: fewer bytes.
        assert!(clean.variants.iter().any(|v| v.width == 1280));
    }

    #[test]
    fn transparent_images_keep_their_alpha_in_their_copies_and_opaque_alpha_is_dropped() {
        let mut see_through = photo(900, 600).to_rgba8();
        for (x, _, pixel) in see_through.enumerate_pixels_mut() {
            pixel.0[3] = if x < 300 { 0 } else { 255 };
        }
        let clean_copy = clean(&encode(DynamicImage::ImageRgba8(see_through), ImageFormat::Png)).unwrap();
        assert!(!clean_copy.variants.is_empty());
        for variant in &clean_copy.variants {
            assert_eq!(variant_content_type(&variant.bytes), "image/webp");
            assert!(image::load_from_memory(&variant.bytes).unwrap().color().has_alpha());
        }
        let opaque = DynamicImage::ImageRgba8(photo(900, 600).to_rgba8());
        let clean_copy = clean(&encode(opaque, ImageFormat::Png)).unwrap();
        assert!(!clean_copy.variants.is_empty());
        for variant in &clean_copy.variants {
            assert_eq!(variant_content_type(&variant.bytes), "image/webp");
            assert!(!image::load_from_memory(&variant.bytes).unwrap().color().has_alpha());
        }
    }

    #[test]
    fn a_copy_that_is_not_smaller_is_not_kept() {
        // Black and white noise: PNG stores it in about a bit a pixel, lossy WebP does worse at
        // full width (600 px, so the 640 and 1280 copies would be that) and better scaled down.
        let noise = DynamicImage::ImageLuma8(image::GrayImage::from_fn(600, 400, |x, y| {
            let odd = (x.wrapping_mul(2_654_435_761) ^ y.wrapping_mul(40_503)).count_ones() % 2 == 1;
            image::Luma([if odd { 255 } else { 0 }])
        }));
        let clean = clean(&encode(noise, ImageFormat::Png)).unwrap();
        let full_width = encode_variant(&image::load_from_memory(&clean.bytes).unwrap(), false).unwrap();
        assert!(full_width.len() > clean.bytes.len(), "{} B against {} B", full_width.len(), clean.bytes.len());
        let widths: Vec<u32> = clean.variants.iter().map(|v| v.width).collect();
        assert_eq!(widths, [320]);
    }

    #[test]
    fn animated_gifs_keep_every_frame() {
        let mut out = Vec::new();
        {
            let mut encoder = gif::Encoder::new(&mut out, 4, 4, &[0, 0, 0, 255, 255, 255]).unwrap();
            encoder.set_repeat(gif::Repeat::Infinite).unwrap();
            for i in 0..3u8 {
                let frame =
                    gif::Frame { width: 4, height: 4, buffer: vec![i % 2; 16].into(), delay: 10, ..Default::default() };
                encoder.write_frame(&frame).unwrap();
            }
        }
        let clean = clean(&out).unwrap();
        assert_eq!(clean.content_type, "image/gif");
        assert!(clean.variants.is_empty(), "a still copy would lose the animation");
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
        for bytes in
            [&b"just some text"[..], &b"<svg xmlns=\"http://www.w3.org/2000/svg\"></svg>"[..], &b"BM\x00\x00"[..]]
        {
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
