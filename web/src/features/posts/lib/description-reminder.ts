// "Remind me to add image descriptions": a choice of this browser (lib/use-stored-flag).
import { useStoredFlag } from '@/lib/use-stored-flag'

export const DESCRIPTION_REMINDER_KEY = 'murmur-image-description-reminder'

/** Whether the composer asks before posting an image without a description (on unless turned off). */
export const useDescriptionReminder = () => useStoredFlag(DESCRIPTION_REMINDER_KEY, true)
