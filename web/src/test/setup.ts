import '@testing-library/jest-dom/vitest'
import { cleanup, configure } from '@testing-library/react'
import { afterEach } from 'vitest'
import { resetToasts } from '@/components/ui/use-toast'

// A lazily loaded page can take over a second to appear when CI's two cores are busy; the
// default wait of one second then failed a test that was right.
configure({ asyncUtilTimeout: 5000 })

afterEach(() => {
  cleanup()
  // after unmounting, so no component sees the reset
  resetToasts()
  localStorage.clear()
})
