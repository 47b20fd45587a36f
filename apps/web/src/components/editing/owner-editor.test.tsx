import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeGraphql, mutations } from '../../test/fake-api.js'
import { OwnerEditor, ownerUrnOf } from './owner-editor.js'

const URN = 'urn:li:dataset:(urn:li:dataPlatform:kafka,SampleKafkaDataset,PROD)'
// SampleKafkaDataset's ownership in bootstrap_mce.json, as GraphQL maps it.
const owners = [
  { owner: { urn: 'urn:li:corpuser:jdoe', username: 'jdoe' }, type: 'DATAOWNER' },
  { owner: { urn: 'urn:li:corpuser:datahub' }, type: 'DATAOWNER' },
]

const add = (name: string) => {
  fireEvent.change(screen.getByRole('textbox', { name: 'Owner to add' }), { target: { value: name } })
  fireEvent.click(screen.getByRole('button', { name: 'Add owner' }))
}

describe('OwnerEditor', () => {
  it('names owners by username, else by their URN', () => {
    fakeGraphql()
    render(<OwnerEditor urn={URN} owners={owners} onSaved={() => {}} />)
    expect(screen.getByRole('button', { name: 'Remove owner jdoe' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Remove owner datahub' })).toBeTruthy()
  })

  it('refuses a blank owner', async () => {
    const calls = fakeGraphql()
    render(<OwnerEditor urn={URN} owners={owners} onSaved={() => {}} />)
    add('  ')
    await new Promise((r) => setTimeout(r, 20))
    expect(calls).toHaveLength(0)
  })

  it('adds a group as a technical owner (addOwner)', async () => {
    const calls = fakeGraphql()
    render(<OwnerEditor urn={URN} owners={owners} onSaved={() => {}} />)
    fireEvent.change(screen.getByRole('combobox', { name: 'Owner kind' }), {
      target: { value: 'CORP_GROUP' },
    })
    add('bfoo')
    await waitFor(() =>
      expect(mutations(calls)).toEqual([
        {
          name: 'addOwner',
          input: {
            ownerUrn: 'urn:li:corpGroup:bfoo',
            ownerEntityType: 'CORP_GROUP',
            ownershipTypeUrn: 'urn:li:ownershipType:__system__technical_owner',
            resourceUrn: URN,
          },
        },
      ]),
    )
  })

  it('keeps a full owner URN as typed', () => {
    expect(ownerUrnOf('urn:li:corpuser:jdoe', 'CORP_GROUP')).toBe('urn:li:corpuser:jdoe')
    expect(ownerUrnOf(' jdoe ', 'CORP_USER')).toBe('urn:li:corpuser:jdoe')
  })
})
