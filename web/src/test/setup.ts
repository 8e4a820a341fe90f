import '@testing-library/jest-dom/vitest'
import { cleanup } from '@testing-library/react'
import { afterEach } from 'vitest'
import { resetToasts } from '@/components/ui/use-toast'

afterEach(() => {
  cleanup()
  // after unmounting, so no component sees the reset
  resetToasts()
  localStorage.clear()
})
