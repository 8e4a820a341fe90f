/**
 * Display copies of uploaded images. The server keeps each still image also at these widths
 * (narrower images keep their width) and serves them at `/objects/{id}/{width}`; where it has
 * none (GIFs, older uploads) that URL answers the image itself. Keep in step with
 * `VARIANT_WIDTHS` in crates/domain/src/media/images.rs.
 */
export const VARIANT_WIDTHS = [320, 640, 1280] as const
export type VariantWidth = (typeof VARIANT_WIDTHS)[number]

// The image path the API gives (`/objects/{id}`), relative or absolute; nothing else has copies.
const OBJECT_PATH = /^((?:https?:\/\/[^/?#]+)?\/objects\/[0-9a-f]{32})$/

/** The copy of an uploaded image at `width`, or the URL unchanged when it is not an upload. */
export function variantUrl(url: string, width: VariantWidth): string {
  return OBJECT_PATH.test(url) ? `${url}/${width}` : url
}

/** A `srcset` of every copy (`w` descriptors), or undefined when the URL is not an upload. */
export function variantSrcSet(url: string): string | undefined {
  if (!OBJECT_PATH.test(url)) return undefined
  return VARIANT_WIDTHS.map((width) => `${url}/${width} ${width}w`).join(', ')
}

/** The smallest copy at least `cssPixels` wide on a 2× screen (for fixed-size pictures). */
export function variantFor(url: string, cssPixels: number): string {
  const wanted = cssPixels * 2
  const width = VARIANT_WIDTHS.find((w) => w >= wanted) ?? VARIANT_WIDTHS[VARIANT_WIDTHS.length - 1]
  return variantUrl(url, width)
}
