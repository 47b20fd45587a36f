import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { Tags } from './tags.js'

describe('Tags', () => {
  it("names a tag by its properties' name, then its name, then its URN", () => {
    render(
      <Tags
        tags={[
          { tag: { urn: 'urn:li:tag:pii', name: 'pii', properties: { name: 'PII' } } },
          { tag: { urn: 'urn:li:tag:Legacy', name: 'Legacy' } },
          { tag: { urn: 'urn:li:tag:NeedsDocumentation' } },
        ]}
      />,
    )
    expect(screen.getByText('PII').title).toBe('urn:li:tag:pii')
    expect(screen.getByText('Legacy').title).toBe('urn:li:tag:Legacy')
    expect(screen.getByText('NeedsDocumentation').title).toBe('urn:li:tag:NeedsDocumentation')
    expect(screen.queryByText('pii')).toBeNull()
  })

  it("names a glossary term by its name, else its URN's last part, after the tags", () => {
    const { container } = render(
      <Tags
        tags={[{ tag: { urn: 'urn:li:tag:Legacy' } }]}
        terms={[
          { term: { urn: 'urn:li:glossaryTerm:SavingAccount', name: 'Saving account' } },
          { term: { urn: 'urn:li:glossaryTerm:AccountBalance' } },
        ]}
      />,
    )
    expect([...container.querySelectorAll('.pill')].map((p) => p.textContent)).toEqual([
      'Legacy',
      'Saving account',
      'AccountBalance',
    ])
    expect(screen.getByText('AccountBalance').className).toBe('pill term')
  })

  it('renders nothing without tags or terms', () => {
    const { container } = render(<Tags tags={[]} terms={null} />)
    expect(container.innerHTML).toBe('')
  })
})
