import * as React from 'react'
import type { ImageUploadModalProps } from './image-upload-modal'
import { ACCEPTED_IMAGE_TYPES } from './image-types'

const ImageUploadModal = React.lazy(() => import('./image-upload-modal'))

interface ImageUploadButtonProps extends Omit<ImageUploadModalProps, 'open' | 'onClose' | 'picked'> {
  /**
   * Renders the trigger: `pick` opens the device's file picker at once (call it from a click);
   * `add` uploads files that arrived another way (dropped or pasted).
   */
  children: (pick: () => void, add: (files: File[]) => void) => React.ReactNode
}

/**
 * One click to the file picker; the picked files upload at once in Uppy's Dashboard (loaded on
 * first use), which shows their progress and takes more by drag-and-drop or paste.
 */
export function ImageUploadButton({ children, ...modalProps }: ImageUploadButtonProps) {
  // Kept in state, not a ref: `pick` is handed out while rendering.
  const [input, setInput] = React.useState<HTMLInputElement | null>(null)
  const [open, setOpen] = React.useState(false)
  // A new object per batch, so picking the same file again still reaches the uploader.
  const [picked, setPicked] = React.useState<{ files: File[] } | null>(null)

  function add(files: File[]) {
    if (files.length === 0) return
    setPicked({ files })
    setOpen(true)
  }

  return (
    <>
      {children(() => input?.click(), add)}
      <input
        ref={setInput}
        type="file"
        hidden
        accept={ACCEPTED_IMAGE_TYPES.join(',')}
        multiple={modalProps.maxFiles > 1}
        onChange={(event) => {
          add([...(event.currentTarget.files ?? [])])
          // Cleared so that choosing the same file again is a change too.
          event.currentTarget.value = ''
        }}
      />
      {picked && (
        <React.Suspense fallback={null}>
          <ImageUploadModal {...modalProps} open={open} picked={picked} onClose={() => setOpen(false)} />
        </React.Suspense>
      )}
    </>
  )
}
