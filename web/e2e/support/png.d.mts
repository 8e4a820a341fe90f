/** A width×height RGB PNG: a gradient tinted by `hue` (0 to 255) with diagonal stripes. */
export function makePng(width?: number, height?: number, hue?: number): Buffer
