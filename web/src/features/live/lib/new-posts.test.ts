import { describe, expect, it } from 'vitest'
import { addNewPostIds, countUnloaded, newPostsAnnouncement, showNewPostsLabel } from './new-posts'

describe('new posts for the Friends feed', () => {
  it('collects distinct ids in the order they came', () => {
    expect(addNewPostIds([], [4, 2, 4])).toEqual([4, 2])
    expect(addNewPostIds([4, 2], [2, 9])).toEqual([4, 2, 9])
  })

  it('keeps the same list when nothing is new, so nothing redraws', () => {
    const pending = [4, 2]
    expect(addNewPostIds(pending, [2, 4])).toBe(pending)
    expect(addNewPostIds(pending, [])).toBe(pending)
  })

  it('counts only the posts the feed has not loaded', () => {
    expect(countUnloaded([4, 2, 9], new Set([2, 30]))).toBe(2)
    expect(countUnloaded([4], new Set([4]))).toBe(0)
    expect(countUnloaded([], new Set())).toBe(0)
  })

  it('says one post in the singular and more in the plural', () => {
    expect(showNewPostsLabel(1)).toBe('Show 1 new post')
    expect(showNewPostsLabel(2)).toBe('Show 2 new posts')
    expect(showNewPostsLabel(21)).toBe('Show 21 new posts')
    expect(newPostsAnnouncement(1)).toBe('1 new post')
    expect(newPostsAnnouncement(3)).toBe('3 new posts')
  })
})
