// Loaded lazily: Uppy is the largest part of the app and only needed when someone attaches an image.
import * as React from 'react'
import Uppy, { type UppyFile } from '@uppy/core'
import XHRUpload from '@uppy/xhr-upload'
import DashboardModal from '@uppy/react/dashboard-modal'
import '@uppy/core/css/style.min.css'
import '@uppy/dashboard/css/style.min.css'
import './uppy-theme.css'
import { toast } from '@/components/ui/use-toast'
import { useTheme } from '@/components/theme/theme-provider'
import { MAX_UPLOAD_BYTES } from '@/lib/types'
import { getUploadUrl } from '../api/get-upload-url'
import { ACCEPTED_IMAGE_TYPES } from './image-types'

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
  /** Called with the files that finished: when every file is up, or when the person closes it. */
  onUploaded: (images: UploadedImage[]) => void
  note?: string
  /** Files picked or dropped outside the Dashboard; a new object per batch, each uploaded at once. */
  picked: { files: File[] } | null
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
    // Picking is the decision: files upload as soon as they are added.
    autoProceed: true,
    restrictions: {
      maxNumberOfFiles: Math.max(1, maxFiles),
      maxFileSize: MAX_UPLOAD_BYTES,
      allowedFileTypes: ACCEPTED_IMAGE_TYPES,
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

/** Uppy's Dashboard in a modal: progress and errors while files upload; it closes itself when all are up. */
export default function ImageUploadModal({ open, onClose, maxFiles, onUploaded, note, picked }: ImageUploadModalProps) {
  const { theme } = useTheme()
  const [{ uppy, takeFinished }] = React.useState(() => createUploader(maxFiles))
  // The batch already handed to Uppy: effects may run twice, a file must be added once.
  const added = React.useRef<{ files: File[] } | null>(null)

  React.useEffect(() => {
    uppy.setOptions({ restrictions: { ...uppy.opts.restrictions, maxNumberOfFiles: Math.max(1, maxFiles) } })
  }, [uppy, maxFiles])

  React.useEffect(() => () => uppy.destroy(), [uppy])

  function finish() {
    const done = takeFinished()
    if (done.length > 0) onUploaded(done)
    onClose()
  }
  const finishLatest = React.useRef(finish)
  React.useEffect(() => {
    finishLatest.current = finish
  })

  React.useEffect(() => {
    if (!picked || added.current === picked) return
    added.current = picked
    // Files Uppy refuses (type, size, count) are told in the Dashboard; the rest upload.
    uppy.addFiles(picked.files.map((file) => ({ name: file.name, type: file.type, data: file, source: 'Local' })))
  }, [uppy, picked])

  React.useEffect(() => {
    // Everything up: hand the images over and close. A failure keeps the Dashboard open to say why.
    const onComplete = (result: { failed?: unknown[]; successful?: unknown[] }) => {
      if ((result.failed?.length ?? 0) === 0 && (result.successful?.length ?? 0) > 0) finishLatest.current()
    }
    uppy.on('complete', onComplete)
    return () => {
      uppy.off('complete', onComplete)
    }
  }, [uppy])

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
      // The composer draws its own previews; Uppy's would still be drawing when it closes itself.
      disableThumbnailGenerator
    />
  )
}
