/** The composer's previews are at most this many CSS px wide; twice that keeps them sharp on 2x screens. */
const THUMBNAIL_PX = 240

/**
 * A small `data:` copy of a picked image to keep in a draft (an object URL dies with the page).
 * Scaled so its shorter side is `THUMBNAIL_PX`; null when the browser cannot draw it.
 */
export async function thumbnailOf(file: Blob): Promise<string | null> {
  if (typeof createImageBitmap !== 'function') return null
  try {
    const bitmap = await createImageBitmap(file)
    const scale = Math.min(1, THUMBNAIL_PX / Math.min(bitmap.width, bitmap.height))
    const canvas = document.createElement('canvas')
    canvas.width = Math.max(1, Math.round(bitmap.width * scale))
    canvas.height = Math.max(1, Math.round(bitmap.height * scale))
    const context = canvas.getContext('2d')
    if (!context) return null
    context.drawImage(bitmap, 0, 0, canvas.width, canvas.height)
    bitmap.close()
    // WebP keeps transparency and is small; a browser without it answers PNG, which the draft may refuse as too big.
    return canvas.toDataURL('image/webp', 0.75)
  } catch {
    return null
  }
}
