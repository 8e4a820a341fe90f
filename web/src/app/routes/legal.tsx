import { Link } from 'wouter'
import { Logo } from '@/components/logo'

type LegalPage = 'terms' | 'privacy'

const PAGES: Record<LegalPage, { title: string; intro: string; points: string[] }> = {
  terms: {
    title: 'Terms of Service',
    intro: "This Murmur's operator has not published terms of their own. Until they do, these apply:",
    points: [
      'One person, one account: no bots, and no pretending to be someone else.',
      'Post only what you have the right to share, and nothing unlawful, hateful or harassing. No spam.',
      'Moderators may remove posts and suspend accounts that break these rules; anyone can report a post.',
      'Your invite codes are yours to give to people you know; what they do reflects on the invites you get.',
      'You can download your data and delete your account at any time, in Settings.',
      'The service is offered as it is, without any warranty.',
    ],
  },
  privacy: {
    title: 'Privacy Policy',
    intro: "This Murmur's operator has not published a policy of their own. What Murmur itself keeps:",
    points: [
      'Your e-mail address, to send you sign-in links. Other members never see it.',
      'Your profile and what you post, like, repost and bookmark; bookmarks are seen by you alone.',
      'Your sessions: the browser and system, when each was last active and the network it came from (the first part of the address), which you see and end in Settings.',
      'The server logs requests with the address they came from, for the operator to keep the service running.',
      'No advertising and no trackers; nothing is sold or shared with others.',
      'You can download your data and delete your account at any time, in Settings.',
    ],
  },
}

/**
 * Murmur's plain default Terms of Service and Privacy Policy (`/terms`, `/privacy`), for visitors
 * and members. An operator who sets their own (`--terms-url`, `--privacy-url`) sends these
 * addresses there before the app is reached.
 */
export default function LegalRoute({ page }: { page: LegalPage }) {
  const { title, intro, points } = PAGES[page]
  return (
    <main className="mx-auto flex min-h-dvh max-w-2xl flex-col gap-6 px-4 py-10">
      <Link href="/" aria-label="Murmur home" className="self-start rounded-md">
        <Logo />
      </Link>
      <h1 className="text-3xl font-bold">{title}</h1>
      <p className="text-muted-foreground">{intro}</p>
      <ul className="grid list-disc gap-3 pl-6">
        {points.map((point) => (
          <li key={point}>{point}</li>
        ))}
      </ul>
    </main>
  )
}
