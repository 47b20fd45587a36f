import { useState } from 'react'
import { UPDATE_DESCRIPTION } from '../../api/queries.js'
import { useMutation } from '../../lib/use-mutation.js'
import { EditError } from './edit-error.js'

/** The entity's description, editable in place (`updateDescription`). */
export function DescriptionEditor({
  urn,
  description,
  onSaved,
}: {
  urn: string
  description: string | null
  onSaved: () => void
}) {
  const [draft, setDraft] = useState<string | null>(null)
  const m = useMutation(onSaved)
  if (draft === null)
    return (
      <div className="description">
        <p>{description ?? <span className="muted">No description.</span>}</p>
        <button type="button" className="link-button" onClick={() => setDraft(description ?? '')}>
          Edit description
        </button>
      </div>
    )
  return (
    <form
      className="description editing"
      onSubmit={async (e) => {
        e.preventDefault()
        if (await m.run(UPDATE_DESCRIPTION, { description: draft, resourceUrn: urn })) setDraft(null)
      }}
    >
      <label htmlFor="description">Description</label>
      <textarea id="description" value={draft} rows={4} onChange={(e) => setDraft(e.target.value)} />
      <button type="submit" disabled={m.busy}>
        Save
      </button>
      <button type="button" className="link-button" onClick={() => setDraft(null)}>
        Cancel
      </button>
      <EditError message={m.error} />
    </form>
  )
}
