// Loaded lazily: Uppy is the largest part of the app and only needed when someone attaches an image.
import * as React from 'react'
import Uppy, { type UppyFile } from '@uppy/core'
import XHRUpload from '@uppy/xhr-upload'
import DashboardModal from '@uppy/react/dashboard-modal'
import '@uppy/core/css/style.min.css'
import '@uppy/dashboard/css/style.min.css'
import { toast } from '@/components/ui/use-toast'
import { useTheme } from '@/components/theme/theme-provider'
import { MAX_UPLOAD_BYTES } from '@/lib/types'
import { getUploadUrl } from '../api/get-upload-url'

type Meta = Record<string, never>
type Body = Record<string, never>

/** A file that finished uploading: where it went, and the picked file itself for a preview. */
export interface UploadedImage {
  /** The signed upload URL (PUT only: never an image source); the server takes it in posts. */
  uploadUrl: string
  file: Blob
}

export interface ImageUploadModalProps {
  open: boolean
  onClose: () => void
  /** How many files may still be chosen (posts: 4 minus attached; avatar and header: 1). */
  maxFiles: number
  /** Called with the files that finished, once the person presses Done. */
  onUploaded: (images: UploadedImage[]) => void
  note?: string
}

function isSameOrigin(url: string): boolean {
  try {
    return new URL(url, window.location.href).origin === window.location.origin
  } catch {
    return false
  }
}

/** Uppy with its uploader; each file goes by PUT straight to the address the server hands out. */
function createUploader(maxFiles: number) {
  const uploadUrls = new Map<string, string>()
  const uppy = new Uppy<Meta, Body>({
    autoProceed: false,
    restrictions: {
      maxNumberOfFiles: Math.max(1, maxFiles),
      maxFileSize: MAX_UPLOAD_BYTES,
      allowedFileTypes: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'],
    },
  }).use(XHRUpload<Meta, Body>, {
    method: 'PUT',
    formData: false,
    limit: 1,
    endpoint: async (fileOrBundle) => {
      const file = Array.isArray(fileOrBundle) ? fileOrBundle[0] : fileOrBundle
      try {
        const { uploadURL } = await getUploadUrl()
        if (file) uploadUrls.set(file.id, uploadURL)
        return uploadURL
      } catch (error) {
        toast({
          title: 'Upload Error',
          description: 'Failed to get upload URL. Please try again.',
          variant: 'destructive',
        })
        throw error
      }
    },
    headers: (file: UppyFile<Meta, Body>): Record<string, string> => {
      const url = uploadUrls.get(file.id)
      // Our own origin wants this header on state-changing calls; a storage bucket need not see it.
      return url && isSameOrigin(url) ? { 'X-Requested-With': 'murmur' } : {}
    },
    getResponseData: () => ({}) as Body,
  })

  /** The files that finished uploading; Uppy starts empty again. */
  function takeFinished(): UploadedImage[] {
    const done = uppy
      .getFiles()
      .filter((file) => file.progress.uploadComplete)
      .flatMap((file) => {
        const uploadUrl = uploadUrls.get(file.id)
        // Files picked from this device are Blobs; nothing else is offered here.
        return uploadUrl && file.data instanceof Blob ? [{ uploadUrl, file: file.data }] : []
      })
    uppy.clear()
    uploadUrls.clear()
    return done
  }

  return { uppy, takeFinished }
}

/** Uppy's Dashboard in a modal. */
export default function ImageUploadModal({ open, onClose, maxFiles, onUploaded, note }: ImageUploadModalProps) {
  const { theme } = useTheme()
  const [{ uppy, takeFinished }] = React.useState(() => createUploader(maxFiles))

  React.useEffect(() => {
    uppy.setOptions({ restrictions: { ...uppy.opts.restrictions, maxNumberOfFiles: Math.max(1, maxFiles) } })
  }, [uppy, maxFiles])

  React.useEffect(() => () => uppy.destroy(), [uppy])

  function finish() {
    const done = takeFinished()
    if (done.length > 0) onUploaded(done)
    onClose()
  }

  return (
    <DashboardModal
      uppy={uppy}
      open={open}
      onRequestClose={finish}
      closeModalOnClickOutside
      proudlyDisplayPoweredByUppy={false}
      doneButtonHandler={finish}
      note={note ?? `Images only, up to ${maxFiles} file${maxFiles === 1 ? '' : 's'}, 10 MB each`}
      theme={theme === 'system' ? 'auto' : theme}
      closeAfterFinish={false}
    />
  )
}
