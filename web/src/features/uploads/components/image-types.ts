/** The image types the server takes (it checks the bytes; this only narrows the picker). */
export const ACCEPTED_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp']
