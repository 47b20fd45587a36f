import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { fakeGraphql, mutations } from '../../test/fake-api.js'
import { DescriptionEditor } from './description-editor.js'

const URN = 'urn:li:dataset:(urn:li:dataPlatform:hdfs,SampleHdfsDataset,PROD)'

describe('DescriptionEditor', () => {
  it('shows the description, or says there is none', () => {
    fakeGraphql()
    const { rerender } = render(<DescriptionEditor urn={URN} description={null} onSaved={() => {}} />)
    expect(screen.getByText('No description.')).toBeTruthy()
    rerender(<DescriptionEditor urn={URN} description="Shipments from HDFS" onSaved={() => {}} />)
    expect(screen.getByText('Shipments from HDFS')).toBeTruthy()
  })

  it('edits the description in place and saves it (updateDescription)', async () => {
    const calls = fakeGraphql()
    const onSaved = vi.fn()
    render(<DescriptionEditor urn={URN} description="Shipments from HDFS" onSaved={onSaved} />)
    fireEvent.click(screen.getByRole('button', { name: 'Edit description' }))
    const box = screen.getByRole('textbox', { name: 'Description' }) as HTMLTextAreaElement
    expect(box.value).toBe('Shipments from HDFS')
    fireEvent.change(box, { target: { value: 'Daily shipments, one row each' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(onSaved).toHaveBeenCalled())
    expect(mutations(calls)).toEqual([
      {
        name: 'updateDescription',
        input: { description: 'Daily shipments, one row each', resourceUrn: URN },
      },
    ])
    await waitFor(() => expect(screen.queryByRole('textbox')).toBeNull())
  })

  it('cancels without sending anything, and keeps the form open with the message when refused', async () => {
    const calls = fakeGraphql('Unauthorized to update the description')
    render(<DescriptionEditor urn={URN} description="Shipments" onSaved={() => {}} />)
    fireEvent.click(screen.getByRole('button', { name: 'Edit description' }))
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(calls).toHaveLength(0)
    expect(screen.queryByRole('textbox')).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Edit description' }))
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect((await screen.findByRole('alert')).textContent).toBe('Unauthorized to update the description')
    expect(screen.getByRole('textbox', { name: 'Description' })).toBeTruthy()
  })
})
