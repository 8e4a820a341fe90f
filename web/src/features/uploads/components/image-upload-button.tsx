import * as React from 'react'
import type { ImageUploadModalProps } from './image-upload-modal'

const ImageUploadModal = React.lazy(() => import('./image-upload-modal'))

interface ImageUploadButtonProps extends Omit<ImageUploadModalProps, 'open' | 'onClose'> {
  /** Renders the trigger; call `open` to show the uploader. */
  children: (open: () => void) => React.ReactNode
}

/** A trigger that loads Uppy on first use and shows its Dashboard in a modal. */
export function ImageUploadButton({ children, ...modalProps }: ImageUploadButtonProps) {
  const [open, setOpen] = React.useState(false)
  const [mounted, setMounted] = React.useState(false)
  return (
    <>
      {children(() => {
        setMounted(true)
        setOpen(true)
      })}
      {mounted && (
        <React.Suspense fallback={null}>
          <ImageUploadModal {...modalProps} open={open} onClose={() => setOpen(false)} />
        </React.Suspense>
      )}
    </>
  )
}
