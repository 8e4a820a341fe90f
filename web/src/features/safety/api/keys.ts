export const SAFETY_ROOT = 'safety'
export const safetyKeys = {
  all: [SAFETY_ROOT] as const,
  blocks: () => [SAFETY_ROOT, 'blocks'] as const,
  mutes: () => [SAFETY_ROOT, 'mutes'] as const,
}
