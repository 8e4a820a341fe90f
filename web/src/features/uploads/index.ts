// What other features may use from uploads; anything else here is internal.
export { ImageUploadButton } from './components/image-upload-button'
export type { UploadedImage } from './components/image-upload-modal'
