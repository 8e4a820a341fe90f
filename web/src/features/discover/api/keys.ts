// A tag's posts are post lists (postKeys.byTag), so likes and reposts reach them with every other list.
export const TAGS_ROOT = 'tags'
export const tagKeys = {
  all: [TAGS_ROOT] as const,
  /** Tags are case-insensitive, so is the key. */
  tag: (name: string) => [TAGS_ROOT, 'tag', name.toLowerCase()] as const,
  trending: () => [TAGS_ROOT, 'trending'] as const,
}
