import * as React from 'react'
import { Button } from '@/components/ui/button'
import { Field } from '@/components/ui/field'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Input } from '@/components/ui/input'
import { Textarea } from '@/components/ui/textarea'
import { toast } from '@/components/ui/use-toast'
import { messageOf } from '@/lib/api-client'
import { handleUnauthorized } from '@/lib/unauthorized'
import { cn, codePointLength } from '@/lib/utils'
import { BIO_MAX_LENGTH, type User } from '@/lib/types'
import { useUpdateProfile } from '../api/update-profile'
import { profileProblems } from '../lib/profile-rules'

interface EditProfileDialogProps {
  user: User
  open: boolean
  onOpenChange: (open: boolean) => void
}

/** Opens pre-filled with name, bio and website; closes on a successful save. */
export default function EditProfileDialog({ user, open, onOpenChange }: EditProfileDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Edit Profile</DialogTitle>
          <DialogDescription>Change how others see you on Murmur.</DialogDescription>
        </DialogHeader>
        {/* Mounted on each opening, so it starts from the saved profile. */}
        <ProfileForm user={user} onClose={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  )
}

function ProfileForm({ user, onClose }: { user: User; onClose: () => void }) {
  const [displayName, setDisplayName] = React.useState(user.displayName)
  const [bio, setBio] = React.useState(user.bio ?? '')
  const [website, setWebsite] = React.useState(user.website ?? '')
  const update = useUpdateProfile()
  const problems = profileProblems({ displayName, bio, website })
  const invalid = Object.keys(problems).length > 0
  const bioLength = codePointLength(bio.trim())

  function handleSubmit(event: React.FormEvent) {
    event.preventDefault()
    if (invalid) return
    update.mutate(
      { displayName: displayName.trim(), bio, website: website.trim() },
      {
        onSuccess: () => {
          toast({ title: 'Profile updated', description: 'Your profile has been updated successfully.' })
          onClose()
        },
        onError: (error) => {
          if (!handleUnauthorized(error))
            toast({
              title: 'Error',
              description: messageOf(error, 'Failed to update profile. Please try again.'),
              variant: 'destructive',
            })
        },
      },
    )
  }

  return (
    <form onSubmit={handleSubmit} className="grid gap-4">
      <Field id="profile-display-name" label="Display Name" error={problems.displayName}>
        <Input value={displayName} onChange={(e) => setDisplayName(e.target.value)} autoComplete="name" required />
      </Field>
      {/* The count is the server's: characters (code points) of the trimmed text. */}
      <Field
        id="profile-bio"
        label="Bio"
        hint={`${bioLength}/${BIO_MAX_LENGTH}`}
        hintClassName={cn('text-right', problems.bio && 'font-semibold text-destructive')}
        error={problems.bio}
      >
        <Textarea rows={3} value={bio} onChange={(e) => setBio(e.target.value)} />
      </Field>
      <Field id="profile-website" label="Website" error={problems.website}>
        <Input
          type="url"
          value={website}
          onChange={(e) => setWebsite(e.target.value)}
          placeholder="https://example.com"
          autoComplete="url"
        />
      </Field>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" disabled={invalid || update.isPending}>
          {update.isPending ? 'Saving...' : 'Save'}
        </Button>
      </DialogFooter>
    </form>
  )
}
