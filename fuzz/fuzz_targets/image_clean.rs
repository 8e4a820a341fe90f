//! Image checks: any bytes are either refused with a message or give a clean JPEG/PNG/GIF/WebP
//! within the pixel bound, which is itself accepted again with the same dimensions.
#![no_main]

use libfuzzer_sys::fuzz_target;
use murmur::media::{MAX_PIXELS, clean_image};

fuzz_target!(|bytes: &[u8]| {
    match clean_image(bytes) {
        Ok(image) => {
            assert!(matches!(image.content_type, "image/jpeg" | "image/png" | "image/gif" | "image/webp"));
            assert!(image.width >= 1 && image.height >= 1);
            assert!(u64::from(image.width) * u64::from(image.height) <= MAX_PIXELS);
            let again = clean_image(&image.bytes).expect("the clean copy is accepted");
            assert_eq!((again.width, again.height), (image.width, image.height));
            assert_eq!(again.content_type, image.content_type);
        }
        Err(err) => assert!(!err.to_string().is_empty()),
    }
});
