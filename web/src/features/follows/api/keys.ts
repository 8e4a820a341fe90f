export const FOLLOWS_ROOT = 'follows'
export const followKeys = {
  all: [FOLLOWS_ROOT] as const,
  status: (userId: number) => [FOLLOWS_ROOT, 'status', userId] as const,
}
