//! The pictures of a member who has none, for interfaces that must always name an image (the
//! Mastodon API's `avatar` and `header`, which apps draw as they are): a grey silhouette on a
//! light square, and a plain band. Drawn here, once, rather than kept as files.

use std::io::Cursor;
use std::sync::LazyLock;

use image::{ImageFormat, Rgb, RgbImage};

const BACKGROUND: Rgb<u8> = Rgb([228, 228, 231]);
const FIGURE: Rgb<u8> = Rgb([161, 161, 170]);
const AVATAR_SIDE: u32 = 256;
const HEADER_SIZE: (u32, u32) = (1200, 400);

/// The avatar of a member without one: a PNG.
pub fn avatar_png() -> &'static [u8] {
    static PNG: LazyLock<Vec<u8>> = LazyLock::new(|| {
        let side = AVATAR_SIDE as f32;
        png(RgbImage::from_fn(AVATAR_SIDE, AVATAR_SIDE, |x, y| {
            let (x, y) = ((x as f32 + 0.5) / side, (y as f32 + 0.5) / side);
            let head = (x - 0.5).powi(2) + (y - 0.4).powi(2) <= 0.18f32.powi(2);
            let shoulders = ((x - 0.5) / 0.34).powi(2) + ((y - 0.98) / 0.36).powi(2) <= 1.0;
            if head || shoulders { FIGURE } else { BACKGROUND }
        }))
    });
    &PNG
}

/// The header of a member without one: a PNG.
pub fn header_png() -> &'static [u8] {
    static PNG: LazyLock<Vec<u8>> =
        LazyLock::new(|| png(RgbImage::from_pixel(HEADER_SIZE.0, HEADER_SIZE.1, BACKGROUND)));
    &PNG
}

fn png(image: RgbImage) -> Vec<u8> {
    let mut out = Cursor::new(Vec::new());
    image.write_to(&mut out, ImageFormat::Png).expect("a picture drawn in memory encodes as PNG");
    out.into_inner()
}

#[cfg(test)]
mod tests {
    use super::{avatar_png, header_png};

    #[test]
    fn the_pictures_of_a_member_without_any_are_small_pngs() {
        for (png, size) in [(avatar_png(), (256, 256)), (header_png(), (1200, 400))] {
            let image = image::load_from_memory_with_format(png, image::ImageFormat::Png).unwrap();
            assert_eq!((image.width(), image.height()), size);
            assert!(png.len() < 16 * 1024, "{} bytes", png.len());
        }
    }
}
