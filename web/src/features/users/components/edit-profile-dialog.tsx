import * as React from 'react'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { Textarea } from '@/components/ui/textarea'
import { toast } from '@/components/ui/use-toast'
import { handleUnauthorized } from '@/lib/unauthorized'
import { codePointLength } from '@/lib/utils'
import type { User } from '@/lib/types'
import { useUpdateProfile } from '../api/update-profile'

export const BIO_MAX_LENGTH = 160

interface EditProfileDialogProps {
  user: User
  open: boolean
  onOpenChange: (open: boolean) => void
}

/** Opens pre-filled with name, bio and website; closes on a successful save. */
export default function EditProfileDialog({ user, open, onOpenChange }: EditProfileDialogProps) {
  const [displayName, setDisplayName] = React.useState(user.displayName)
  const [bio, setBio] = React.useState(user.bio ?? '')
  const [website, setWebsite] = React.useState(user.website ?? '')
  const update = useUpdateProfile()

  React.useEffect(() => {
    if (open) {
      setDisplayName(user.displayName)
      setBio(user.bio ?? '')
      setWebsite(user.website ?? '')
    }
  }, [open, user])

  function handleSubmit(event: React.FormEvent) {
    event.preventDefault()
    update.mutate(
      { displayName: displayName.trim(), bio, website: website.trim() },
      {
        onSuccess: () => {
          toast({ title: 'Profile updated', description: 'Your profile has been updated successfully.' })
          onOpenChange(false)
        },
        onError: (error) => {
          if (!handleUnauthorized(error))
            toast({ title: 'Error', description: 'Failed to update profile. Please try again.', variant: 'destructive' })
        },
      },
    )
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Edit Profile</DialogTitle>
          <DialogDescription>Change how others see you on Murmur.</DialogDescription>
        </DialogHeader>
        <form onSubmit={handleSubmit} className="grid gap-4">
          <div className="grid gap-2">
            <Label htmlFor="profile-display-name">Display Name</Label>
            <Input
              id="profile-display-name"
              value={displayName}
              onChange={(e) => setDisplayName(e.target.value)}
              autoComplete="name"
              required
            />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="profile-bio">Bio</Label>
            <Textarea
              id="profile-bio"
              rows={3}
              value={bio}
              onChange={(e) => setBio(e.target.value)}
              maxLength={BIO_MAX_LENGTH}
              aria-describedby="profile-bio-count"
            />
            <p id="profile-bio-count" className="text-right text-xs text-muted-foreground">
              {codePointLength(bio)}/{BIO_MAX_LENGTH}
            </p>
          </div>
          <div className="grid gap-2">
            <Label htmlFor="profile-website">Website</Label>
            <Input
              id="profile-website"
              type="url"
              value={website}
              onChange={(e) => setWebsite(e.target.value)}
              placeholder="https://example.com"
              autoComplete="url"
            />
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={update.isPending}>
              {update.isPending ? 'Saving...' : 'Save'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
