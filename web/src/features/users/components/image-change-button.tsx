import type * as React from 'react'
import { toast } from '@/components/ui/use-toast'
import { handleUnauthorized } from '@/lib/unauthorized'
import { ImageUploadButton } from '@/features/uploads'
import { useUpdateImage, type ImageKind } from '../api/update-image'

/** Uploads one image and sets it as the member's avatar or header. */
export function ImageChangeButton({ kind, children }: { kind: ImageKind; children: (open: () => void) => React.ReactNode }) {
  const update = useUpdateImage()
  return (
    <ImageUploadButton
      maxFiles={1}
      onUploaded={([image]) => {
        if (!image) return
        update.mutate(
          { kind, imageURL: image.uploadUrl },
          {
            onSuccess: () => toast({ title: 'Image updated' }),
            onError: (error) => {
              if (!handleUnauthorized(error))
                toast({ title: 'Error', description: `Failed to update ${kind} image. Please try again.`, variant: 'destructive' })
            },
          },
        )
      }}
    >
      {children}
    </ImageUploadButton>
  )
}

