import { ConfirmEmailChange } from '@/features/account'

/** Reached from the e-mailed address-change link, by members and visitors alike. */
export default function ConfirmEmailRoute() {
  return <ConfirmEmailChange />
}
