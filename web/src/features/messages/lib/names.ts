import type { Conversation, User } from '@/lib/types'

/** A conversation's name: its other members, "Ada", "Ada and Bob", "Ada, Bob and 2 others". */
export function conversationTitle(members: readonly Pick<User, 'displayName'>[]): string {
  const names = members.map((member) => member.displayName)
  if (names.length === 0) return 'No one else'
  if (names.length === 1) return names[0] ?? ''
  if (names.length === 2) return `${names[0]} and ${names[1]}`
  const others = names.length - 2
  return `${names[0]}, ${names[1]} and ${others === 1 ? '1 other' : `${others} others`}`
}

/** What putting a conversation away is called for the member: declining a request, leaving a group, hiding one of two. */
export function putAwayLabel(conversation: Pick<Conversation, 'box' | 'members'>): 'Decline' | 'Leave' | 'Hide' {
  if (conversation.box === 'requests') return 'Decline'
  return conversation.members.length > 1 ? 'Leave' : 'Hide'
}
