import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { fakeGraphql, mutations } from '../../test/fake-api.js'
import { LinkEditor } from './link-editor.js'

const URN = 'urn:li:dataset:(urn:li:dataPlatform:kafka,SampleKafkaDataset,PROD)'
// SampleKafkaDataset's institutionalMemory in bootstrap_mce.json, as GraphQL maps it.
const links = [{ url: 'https://www.linkedin.com', label: 'Sample doc' }]

const fill = (url: string, label: string) => {
  fireEvent.change(screen.getByRole('textbox', { name: 'Link URL' }), { target: { value: url } })
  fireEvent.change(screen.getByRole('textbox', { name: 'Link label' }), { target: { value: label } })
  fireEvent.click(screen.getByRole('button', { name: 'Add link' }))
}

describe('LinkEditor', () => {
  it('shows each link opening in a new tab, with a remove button', () => {
    fakeGraphql()
    render(<LinkEditor urn={URN} links={links} onSaved={() => {}} />)
    const link = screen.getByRole('link', { name: 'Sample doc' })
    expect(link.getAttribute('href')).toBe('https://www.linkedin.com')
    expect(link.getAttribute('target')).toBe('_blank')
    expect(screen.getByRole('button', { name: 'Remove link Sample doc' })).toBeTruthy()
  })

  it('refuses a link without a label or without a URL', async () => {
    const calls = fakeGraphql()
    render(<LinkEditor urn={URN} links={links} onSaved={() => {}} />)
    fill('https://datahubproject.io', '')
    fill('', 'Docs')
    await new Promise((r) => setTimeout(r, 20))
    expect(calls).toHaveLength(0)
  })

  it('adds a link with its URL and label trimmed (addLink)', async () => {
    const calls = fakeGraphql()
    const onSaved = vi.fn()
    render(<LinkEditor urn={URN} links={links} onSaved={onSaved} />)
    fill(' https://datahubproject.io ', ' Docs ')
    await waitFor(() => expect(onSaved).toHaveBeenCalled())
    expect(mutations(calls)).toEqual([
      { name: 'addLink', input: { linkUrl: 'https://datahubproject.io', label: 'Docs', resourceUrn: URN } },
    ])
  })
})
