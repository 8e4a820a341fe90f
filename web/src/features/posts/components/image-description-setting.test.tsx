import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import { DESCRIPTION_REMINDER_KEY } from '../lib/description-reminder'
import { ImageDescriptionSetting } from './image-description-setting'

afterEach(() => localStorage.clear())

describe('the image description setting', () => {
  it('is on by default and is kept in this browser when turned off and on', async () => {
    render(<ImageDescriptionSetting />)
    const reminder = screen.getByRole('checkbox', { name: 'Remind me to add image descriptions' })
    expect(reminder).toBeChecked()
    await userEvent.click(reminder)
    expect(reminder).not.toBeChecked()
    expect(localStorage.getItem(DESCRIPTION_REMINDER_KEY)).toBe('off')
    await userEvent.click(reminder)
    expect(reminder).toBeChecked()
    expect(localStorage.getItem(DESCRIPTION_REMINDER_KEY)).toBe('on')
  })
})
