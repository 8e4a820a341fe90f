import { useMediaQuery } from './use-media-query'

/** Whether the person asked for less motion; follows the setting as it changes. */
export function usePrefersReducedMotion(): boolean {
  return useMediaQuery('(prefers-reduced-motion: reduce)')
}
