import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { fakeGraphql, mutations } from '../../test/fake-api.js'
import { TagEditor } from './tag-editor.js'

const URN = 'urn:li:dataset:(urn:li:dataPlatform:hdfs,SampleHdfsDataset,PROD)'
const tags = [
  { tag: { urn: 'urn:li:tag:Legacy', name: 'Legacy' } },
  { tag: { urn: 'urn:li:tag:pii', properties: { name: 'PII' } } },
]

const input = () => screen.getByRole('textbox', { name: 'Tag to add' }) as HTMLInputElement
const add = (value: string) => {
  fireEvent.change(input(), { target: { value } })
  fireEvent.click(screen.getByRole('button', { name: 'Add tag' }))
}

describe('TagEditor', () => {
  it('lists the tags by name, each with a remove button', () => {
    fakeGraphql()
    render(<TagEditor urn={URN} tags={tags} onSaved={() => {}} />)
    const items = within(screen.getByTestId('tag-editor')).getAllByRole('listitem')
    expect(items.map((i) => i.textContent)).toEqual(['Legacy×', 'PII×'])
    expect(screen.getByRole('button', { name: 'Remove tag PII' })).toBeTruthy()
  })

  it('refuses an empty or blank tag: no mutation is sent', async () => {
    const calls = fakeGraphql()
    const onSaved = vi.fn()
    render(<TagEditor urn={URN} tags={tags} onSaved={onSaved} />)
    add('')
    add('   ')
    await new Promise((r) => setTimeout(r, 20))
    expect(calls).toHaveLength(0)
    expect(onSaved).not.toHaveBeenCalled()
    expect(input().value).toBe('   ')
  })

  it('adds a tag by name as its URN (addTag), then clears the field and reloads', async () => {
    const calls = fakeGraphql()
    const onSaved = vi.fn()
    render(<TagEditor urn={URN} tags={tags} onSaved={onSaved} />)
    add(' NeedsDocumentation ')
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1))
    expect(mutations(calls)).toEqual([
      { name: 'addTag', input: { tagUrn: 'urn:li:tag:NeedsDocumentation', resourceUrn: URN } },
    ])
    await waitFor(() => expect(input().value).toBe(''))
  })

  it('removes a tag by its URN (removeTag)', async () => {
    const calls = fakeGraphql()
    render(<TagEditor urn={URN} tags={tags} onSaved={() => {}} />)
    fireEvent.click(screen.getByRole('button', { name: 'Remove tag PII' }))
    await waitFor(() =>
      expect(mutations(calls)).toEqual([
        { name: 'removeTag', input: { tagUrn: 'urn:li:tag:pii', resourceUrn: URN } },
      ]),
    )
  })

  it("shows a refused edit's message as an alert and keeps what was typed", async () => {
    fakeGraphql('Failed to update urn:li:tag:bad tag: the tag does not exist')
    const onSaved = vi.fn()
    render(<TagEditor urn={URN} tags={tags} onSaved={onSaved} />)
    add('bad tag')
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Failed to update urn:li:tag:bad tag: the tag does not exist',
    )
    expect(onSaved).not.toHaveBeenCalled()
    expect(input().value).toBe('bad tag')
  })
})
