import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type * as React from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { aPost, aUser, json, jsonBody, mockFetch, renderWithProviders } from '@/test/test-utils'
import { createQueryClient } from '@/lib/query-client'
import { authKeys } from '@/lib/query-keys'
import { DESCRIPTION_REMINDER_KEY } from '../lib/description-reminder'
import { draftKey } from '../lib/drafts'
import { Composer } from './composer'

// The uploader (Uppy, in a modal) stands aside: "Add images" attaches two uploaded pictures at once.
vi.mock('@/features/uploads', () => ({
  ImageUploadButton: ({
    children,
    onUploaded,
  }: {
    children: (open: () => void) => React.ReactNode
    onUploaded: (images: { uploadUrl: string; file: Blob }[]) => void
  }) =>
    children(() =>
      onUploaded([
        { uploadUrl: 'https://uploads.example/1?sig=a', file: new Blob(['1']) },
        { uploadUrl: 'https://uploads.example/2?sig=b', file: new Blob(['2']) },
      ]),
    ),
}))

beforeEach(() => {
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:preview', revokeObjectURL: () => {} }))
})

afterEach(() => {
  vi.unstubAllGlobals()
  localStorage.clear()
})

function setup(onPost: (body: unknown) => Response | Promise<Response> = () => json(aPost(), 201)) {
  const fetch = mockFetch((url, init) => {
    if (url === '/api/auth/me') return json(aUser)
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
    expect(bodies[0]).toEqual({ content: 'Tea or coffee?', pollOptions: ['Tea', 'Coffee'], pollDurationMinutes: 1440, replyToId: null })
    release(json(aPost(), 201))

    const toast = await screen.findByText('Post created')
    expect(within(toast.closest('li') ?? document.body).getByText('Your post has been shared successfully.')).toBeInTheDocument()
    expect(textbox).toHaveValue('')
    expect(screen.queryByPlaceholderText('Option 1')).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Post' })).toBeDisabled()
  })

  it('sends one Idempotency-Key per post: the same again after a failure, a new one for the next post', async () => {
    let fail = true
    const { fetch, textbox } = setup(() => (fail ? json({ message: 'boom' }, 500) : json(aPost(), 201)))
    const keys = () =>
      fetch.mock.calls
        .filter(([url, init]) => url === '/api/posts' && init?.method === 'POST')
        .map(([, init]) => new Headers(init?.headers).get('Idempotency-Key'))
    await userEvent.type(textbox, 'Hello')
    await userEvent.click(screen.getByRole('button', { name: 'Post' }))
    await screen.findByText('Failed to create post. Please try again.')
    fail = false
    await userEvent.click(screen.getByRole('button', { name: 'Post' }))
    await screen.findByText('Post created')
    await userEvent.type(textbox, 'Again')
    await userEvent.click(screen.getByRole('button', { name: 'Post' }))
    await waitFor(() => expect(keys()).toHaveLength(3))
    const [first, retry, next] = keys()
    expect(first).toMatch(/^[0-9a-f]{32}$/)
    expect(retry).toBe(first)
    expect(next).not.toBe(first)
  })

  it('sends a new Idempotency-Key when the post was changed after a failure (the server binds a key to its request)', async () => {
    let fail = true
    const { fetch, textbox } = setup(() => (fail ? json({ message: 'boom' }, 500) : json(aPost(), 201)))
    const keys = () =>
      fetch.mock.calls
        .filter(([url, init]) => url === '/api/posts' && init?.method === 'POST')
        .map(([, init]) => new Headers(init?.headers).get('Idempotency-Key'))
    await userEvent.type(textbox, 'Helo')
    await userEvent.click(screen.getByRole('button', { name: 'Post' }))
    await screen.findByText('Failed to create post. Please try again.')
    fail = false
    await userEvent.type(textbox, '!')
    await userEvent.click(screen.getByRole('button', { name: 'Post' }))
    await waitFor(() => expect(keys()).toHaveLength(2))
    const [first, changed] = keys()
    expect(changed).not.toBe(first)
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
    expect(bodies[0]).toMatchObject({ pollOptions: ['Tacos', 'Ramen'], pollDurationMinutes: 4320 })
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

  describe('image descriptions', () => {
    async function attachTwo(onPost?: (body: unknown) => Response) {
      const bodies: unknown[] = []
      const { textbox, post } = setup((body) => {
        bodies.push(body)
        return onPost ? onPost(body) : json(aPost(), 201)
      })
      await userEvent.type(textbox, 'At the lake')
      await userEvent.click(screen.getByRole('button', { name: 'Add images' }))
      return { bodies, post }
    }

    it('writes a description per image, counts it, and sends it with its image', async () => {
      localStorage.setItem(DESCRIPTION_REMINDER_KEY, 'off')
      const { bodies, post } = await attachTwo()
      await userEvent.click(screen.getByRole('button', { name: 'Add description of image 1' }))
      const dialog = await screen.findByRole('dialog', { name: 'Describe image 1' })
      const text = within(dialog).getByRole('textbox', { name: 'Description' })
      fireEvent.change(text, { target: { value: 'é'.repeat(1501) } })
      expect(within(dialog).getByText('1501/1500')).toHaveClass('text-destructive')
      expect(within(dialog).getByRole('button', { name: 'Save description' })).toBeDisabled()
      fireEvent.change(text, { target: { value: '  A grey heron on one leg  ' } })
      expect(within(dialog).getByText('23/1500')).toBeInTheDocument()
      await userEvent.click(within(dialog).getByRole('button', { name: 'Save description' }))
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
      // Saving a description does not post.
      expect(bodies).toEqual([])
      expect(screen.getByRole('button', { name: 'Edit description of image 1' })).toBeInTheDocument()

      await userEvent.click(post)
      await screen.findByText('Post created')
      expect(bodies[0]).toEqual({
        content: 'At the lake',
        images: [
          { url: 'https://uploads.example/1?sig=a', alt: 'A grey heron on one leg' },
          { url: 'https://uploads.example/2?sig=b', alt: null },
        ],
        replyToId: null,
      })
    })

    it('asks once before posting an image without a description, then posts as the spec does', async () => {
      const { bodies, post } = await attachTwo()
      await userEvent.click(post)
      const reminder = await screen.findByRole('dialog', { name: 'Add image descriptions?' })
      expect(within(reminder).getByText(/2 images have no description/)).toBeInTheDocument()
      expect(bodies).toEqual([])

      // "Add descriptions" goes to the first image without one.
      await userEvent.click(within(reminder).getByRole('button', { name: 'Add descriptions' }))
      const describe = await screen.findByRole('dialog', { name: 'Describe image 1' })
      await userEvent.click(within(describe).getByRole('button', { name: 'Cancel' }))

      // Asked once: the next Post goes through, in the spec's shape since nothing is described.
      await userEvent.click(post)
      await screen.findByText('Post created')
      expect(screen.queryByRole('dialog', { name: 'Add image descriptions?' })).not.toBeInTheDocument()
      expect(bodies).toEqual([
        { content: 'At the lake', imageUrls: ['https://uploads.example/1?sig=a', 'https://uploads.example/2?sig=b'], replyToId: null },
      ])
    })

    it('posts at once from "Post anyway", and never asks when the reminder is turned off', async () => {
      const { bodies, post } = await attachTwo()
      await userEvent.click(post)
      await userEvent.click(await screen.findByRole('button', { name: 'Post anyway' }))
      await screen.findByText('Post created')
      expect(bodies).toHaveLength(1)

      localStorage.setItem(DESCRIPTION_REMINDER_KEY, 'off')
      await userEvent.type(screen.getByRole('textbox', { name: "What's happening?" }), 'Again')
      await userEvent.click(screen.getByRole('button', { name: 'Add images' }))
      await userEvent.click(screen.getByRole('button', { name: 'Post' }))
      await waitFor(() => expect(bodies).toHaveLength(2))
      expect(screen.queryByRole('dialog', { name: 'Add image descriptions?' })).not.toBeInTheDocument()
    })
  })

  describe('drafts', () => {
    /** The composer for Ada, known from the start as in the app; `onPost` answers POST /api/posts. */
    function renderFor(ui: React.ReactElement, onPost: (body: unknown) => Response = () => json(aPost(), 201)) {
      const bodies: unknown[] = []
      mockFetch((url, init) => {
        if (url === '/api/auth/me') return json(aUser)
        if (url === '/api/posts' && init.method === 'POST') {
          bodies.push(jsonBody(init))
          return onPost(jsonBody(init))
        }
        return json([])
      })
      const queryClient = createQueryClient()
      queryClient.setQueryData(authKeys.me(), aUser)
      return { ...renderWithProviders(ui, queryClient), bodies }
    }

    it('keeps the text, images, descriptions and poll when the composer goes, and brings them back', async () => {
      localStorage.setItem(DESCRIPTION_REMINDER_KEY, 'off')
      const first = renderFor(<Composer />)
      await userEvent.type(screen.getByRole('textbox', { name: "What's happening?" }), 'Half a thought')
      await userEvent.click(screen.getByRole('button', { name: 'Add images' }))
      await userEvent.click(screen.getByRole('button', { name: 'Add description of image 1' }))
      const dialog = await screen.findByRole('dialog', { name: 'Describe image 1' })
      await userEvent.type(within(dialog).getByRole('textbox', { name: 'Description' }), 'A heron')
      await userEvent.click(within(dialog).getByRole('button', { name: 'Save description' }))
      await userEvent.click(screen.getByRole('button', { name: 'Add poll' }))
      await userEvent.type(screen.getByRole('textbox', { name: 'Option 1' }), 'Tea')
      first.unmount()

      const again = renderFor(<Composer />)
      expect(screen.getByRole('textbox', { name: "What's happening?" })).toHaveValue('Half a thought')
      expect(screen.getByRole('img', { name: 'Attached image 1' })).toBeInTheDocument()
      expect(screen.getByRole('img', { name: 'Attached image 2' })).toBeInTheDocument()
      expect(screen.getByRole('button', { name: 'Edit description of image 1' })).toBeInTheDocument()
      expect(screen.getByRole('textbox', { name: 'Option 1' })).toHaveValue('Tea')

      // What comes back is what is sent.
      await userEvent.type(screen.getByRole('textbox', { name: 'Option 2' }), 'Coffee')
      await userEvent.click(screen.getByRole('button', { name: 'Post' }))
      await screen.findByText('Post created')
      expect(again.bodies[0]).toMatchObject({
        content: 'Half a thought',
        images: [
          { url: 'https://uploads.example/1?sig=a', alt: 'A heron' },
          { url: 'https://uploads.example/2?sig=b', alt: null },
        ],
        pollOptions: ['Tea', 'Coffee'],
      })
    })

    it('keeps one draft per place: Home, the dialog and each reply have their own', async () => {
      const home = renderFor(<Composer />)
      await userEvent.type(screen.getByRole('textbox', { name: "What's happening?" }), 'For Home')
      home.unmount()
      const reply = renderFor(<Composer variant="dialog" replyToId={7} />)
      expect(screen.getByRole('textbox', { name: 'Post your reply' })).toHaveValue('')
      await userEvent.type(screen.getByRole('textbox', { name: 'Post your reply' }), 'For post 7')
      reply.unmount()

      renderFor(<Composer />)
      expect(screen.getByRole('textbox', { name: "What's happening?" })).toHaveValue('For Home')
      expect(localStorage.getItem(draftKey(aUser.id, { kind: 'reply', postId: 7 }))).toContain('For post 7')
      expect(localStorage.getItem(draftKey(aUser.id, { kind: 'dialog' }))).toBeNull()
    })

    it('forgets the draft once it is posted', async () => {
      const first = renderFor(<Composer />)
      await userEvent.type(screen.getByRole('textbox', { name: "What's happening?" }), 'Posted at last')
      await userEvent.click(screen.getByRole('button', { name: 'Post' }))
      await screen.findByText('Post created')
      first.unmount()
      renderFor(<Composer />)
      expect(screen.getByRole('textbox', { name: "What's happening?" })).toHaveValue('')
      expect(localStorage.getItem(draftKey(aUser.id, { kind: 'home' }))).toBeNull()
    })

    it('takes out images the server no longer knows, says so, and keeps the text to post again', async () => {
      localStorage.setItem(DESCRIPTION_REMINDER_KEY, 'off')
      const { bodies } = renderFor(<Composer />, (body) =>
        (body as { imageUrls?: string[] }).imageUrls ? json({ message: 'Image URL is not an upload of yours' }, 400) : json(aPost(), 201),
      )
      const textbox = screen.getByRole('textbox', { name: "What's happening?" })
      await userEvent.type(textbox, 'From last week')
      await userEvent.click(screen.getByRole('button', { name: 'Add images' }))
      await userEvent.click(screen.getByRole('button', { name: 'Post' }))

      expect(await screen.findByRole('alert')).toHaveTextContent(/images in this draft are no longer on the server/)
      expect(textbox).toHaveValue('From last week')
      expect(screen.queryByRole('img', { name: 'Attached image 1' })).not.toBeInTheDocument()
      expect(localStorage.getItem(draftKey(aUser.id, { kind: 'home' }))).not.toContain('uploads.example')

      await userEvent.click(screen.getByRole('button', { name: 'Post' }))
      await screen.findByText('Post created')
      expect(bodies[1]).toEqual({ content: 'From last week', replyToId: null })
    })

    it('posts with Ctrl+Enter or Cmd+Enter and gives focus back to the composer', async () => {
      const { bodies } = renderFor(<Composer />)
      const textbox = screen.getByRole('textbox', { name: "What's happening?" })
      await userEvent.type(textbox, 'Quick one')
      await userEvent.keyboard('{Control>}{Enter}{/Control}')
      await screen.findByText('Post created')
      expect(bodies).toEqual([{ content: 'Quick one', replyToId: null }])
      expect(textbox).toHaveValue('')
      expect(textbox).toHaveFocus()

      await userEvent.type(textbox, 'And another')
      await userEvent.keyboard('{Meta>}{Enter}{/Meta}')
      await waitFor(() => expect(bodies).toHaveLength(2))
      // A plain Enter is a new line, not a post.
      await userEvent.type(textbox, 'line{Enter}')
      expect(bodies).toHaveLength(2)
    })
  })
})
