import { fireEvent, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { aPost, aUser, json, jsonBody, mockFetch, renderWithProviders } from '@/test/test-utils'
import { Composer } from './composer'

afterEach(() => {
  vi.unstubAllGlobals()
})

function setup(onPost: (body: unknown) => Response | Promise<Response> = () => json(aPost(), 201)) {
  const fetch = mockFetch((url, init) => {
    if (url === '/api/auth/user') return json(aUser)
    if (url === '/api/posts' && init.method === 'POST') return onPost(jsonBody(init))
    return json([])
  })
  renderWithProviders(<Composer />)
  const textbox = screen.getByRole('textbox', { name: "What's happening?" })
  const post = screen.getByRole('button', { name: 'Post' })
  return { fetch, textbox, post }
}

describe('the composer', () => {
  it('counts Unicode code points, as the server does', () => {
    const { textbox } = setup()
    fireEvent.change(textbox, { target: { value: '😀👍🏽 é' } })
    // 😀 (1) + 👍 (1) + skin tone (1) + space (1) + é (1)
    expect(screen.getByText('5/500')).toBeInTheDocument()
  })

  it('disables Post while the text is empty or only spaces', async () => {
    const { textbox, post } = setup()
    expect(post).toBeDisabled()
    await userEvent.type(textbox, '   ')
    expect(post).toBeDisabled()
    await userEvent.type(textbox, 'hi')
    expect(post).toBeEnabled()
  })

  it('shows the counter in the error colour and disables Post above 500', () => {
    const { textbox, post } = setup()
    fireEvent.change(textbox, { target: { value: '🙂'.repeat(500) } })
    expect(screen.getByText('500/500')).not.toHaveClass('text-destructive')
    expect(post).toBeEnabled()
    fireEvent.change(textbox, { target: { value: '🙂'.repeat(501) } })
    expect(screen.getByText('501/500')).toHaveClass('text-destructive')
    expect(post).toBeDisabled()
  })

  it('opens a poll with two options, adds up to four, and hides it when one is left', async () => {
    setup()
    await userEvent.click(screen.getByRole('button', { name: 'Add poll' }))
    expect(screen.getByPlaceholderText('Option 1')).toBeInTheDocument()
    expect(screen.getByPlaceholderText('Option 2')).toBeInTheDocument()
    expect(screen.queryByPlaceholderText('Option 3')).not.toBeInTheDocument()

    await userEvent.click(screen.getByRole('button', { name: 'Add option' }))
    await userEvent.click(screen.getByRole('button', { name: 'Add option' }))
    expect(screen.getByPlaceholderText('Option 4')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Add option' })).not.toBeInTheDocument()

    await userEvent.click(screen.getByRole('button', { name: 'Remove option 4' }))
    await userEvent.click(screen.getByRole('button', { name: 'Remove option 3' }))
    await userEvent.click(screen.getByRole('button', { name: 'Remove option 2' }))
    expect(screen.queryByPlaceholderText('Option 1')).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Add poll' })).toBeInTheDocument()
  })

  it('clears the options when the poll is toggled off', async () => {
    setup()
    await userEvent.click(screen.getByRole('button', { name: 'Add poll' }))
    await userEvent.type(screen.getByPlaceholderText('Option 1'), 'Tea')
    await userEvent.click(screen.getByRole('button', { name: 'Remove poll' }))
    await userEvent.click(screen.getByRole('button', { name: 'Add poll' }))
    expect(screen.getByPlaceholderText('Option 1')).toHaveValue('')
  })

  it('posts trimmed text with non-blank options, shows Posting..., then clears everything', async () => {
    let release: (r: Response) => void = () => {}
    const bodies: unknown[] = []
    const { textbox } = setup((body) => {
      bodies.push(body)
      return new Promise<Response>((resolve) => (release = resolve))
    })
    await userEvent.type(textbox, '  Tea or coffee?  ')
    await userEvent.click(screen.getByRole('button', { name: 'Add poll' }))
    await userEvent.click(screen.getByRole('button', { name: 'Add option' }))
    await userEvent.type(screen.getByPlaceholderText('Option 1'), 'Tea')
    await userEvent.type(screen.getByPlaceholderText('Option 3'), 'Coffee')
    await userEvent.click(screen.getByRole('button', { name: 'Post' }))

    expect(await screen.findByRole('button', { name: 'Posting...' })).toBeDisabled()
    expect(bodies[0]).toEqual({ content: 'Tea or coffee?', pollOptions: ['Tea', 'Coffee'], pollDurationHours: 24, replyToId: null })
    release(json(aPost(), 201))

    const toast = await screen.findByText('Post created')
    expect(within(toast.closest('li') ?? document.body).getByText('Your post has been shared successfully.')).toBeInTheDocument()
    expect(textbox).toHaveValue('')
    expect(screen.queryByPlaceholderText('Option 1')).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Post' })).toBeDisabled()
  })

  it('keeps the text and says so when posting fails', async () => {
    const { textbox } = setup(() => json({ message: 'boom' }, 500))
    await userEvent.type(textbox, 'Hello')
    await userEvent.click(screen.getByRole('button', { name: 'Post' }))
    expect(await screen.findByText('Failed to create post. Please try again.')).toBeInTheDocument()
    expect(textbox).toHaveValue('Hello')
  })

  it('counts the trimmed text, so spaces around 500 characters do not disable Post', () => {
    const { textbox, post } = setup()
    fireEvent.change(textbox, { target: { value: `  ${'a'.repeat(500)}  \n` } })
    expect(screen.getByText('500/500')).toBeInTheDocument()
    expect(post).toBeEnabled()
  })

  it('explains a poll the server would refuse and keeps Post disabled until it is fixed', async () => {
    const { textbox, post } = setup()
    await userEvent.type(textbox, 'Tea or coffee?')
    await userEvent.click(screen.getByRole('button', { name: 'Add poll' }))
    const first = screen.getByRole('textbox', { name: 'Option 1' })
    const second = screen.getByRole('textbox', { name: 'Option 2' })

    await userEvent.type(first, 'Tea')
    expect(screen.getByText('A poll needs at least 2 options')).toBeInTheDocument()
    expect(post).toBeDisabled()

    await userEvent.type(second, ' Tea ')
    const same = screen.getByText('Options must be different from each other')
    expect(second).toHaveAttribute('aria-invalid', 'true')
    expect(second.getAttribute('aria-describedby')).toBe(same.id)
    expect(post).toBeDisabled()

    await userEvent.clear(second)
    fireEvent.change(second, { target: { value: 'c'.repeat(81) } })
    expect(screen.getByText('An option can be at most 80 characters long')).toBeInTheDocument()
    expect(post).toBeDisabled()

    fireEvent.change(second, { target: { value: 'Coffee' } })
    expect(screen.queryByText(/at most 80|different from each other|at least 2/)).not.toBeInTheDocument()
    expect(post).toBeEnabled()
  })

  it('sends the poll length the author picked', async () => {
    const bodies: unknown[] = []
    const { textbox } = setup((body) => {
      bodies.push(body)
      return json(aPost(), 201)
    })
    await userEvent.type(textbox, 'Lunch?')
    await userEvent.click(screen.getByRole('button', { name: 'Add poll' }))
    await userEvent.type(screen.getByRole('textbox', { name: 'Option 1' }), 'Tacos')
    await userEvent.type(screen.getByRole('textbox', { name: 'Option 2' }), 'Ramen')
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Poll length' }), '3 days')
    await userEvent.click(screen.getByRole('button', { name: 'Post' }))
    await screen.findByText('Post created')
    expect(bodies[0]).toMatchObject({ pollOptions: ['Tacos', 'Ramen'], pollDurationHours: 72 })
  })

  it("shows the server's message when it still refuses the post", async () => {
    const { textbox } = setup(() => json({ message: 'You are posting too fast' }, 429))
    await userEvent.type(textbox, 'Hello')
    await userEvent.click(screen.getByRole('button', { name: 'Post' }))
    expect(await screen.findByText('You are posting too fast')).toBeInTheDocument()
    expect(textbox).toHaveValue('Hello')
  })

  it('offers image attach while fewer than four images are attached', () => {
    setup()
    expect(screen.getByRole('button', { name: 'Add images' })).toBeEnabled()
  })
})
