import { ADD_TAG, REMOVE_TAG } from '../../api/queries.js'
import type { TagRef } from '../../api/types.js'
import { tagName } from '../../lib/display.js'
import { useMutation } from '../../lib/use-mutation.js'
import { AddForm } from './add-form.js'
import { EditError } from './edit-error.js'

/** `pii` → `urn:li:tag:pii`; a full tag URN is kept. */
export const tagUrnOf = (name: string) =>
  name.startsWith('urn:li:tag:') ? name : `urn:li:tag:${name.trim()}`

/** The entity's tags, each removable (`removeTag`), and a form adding one by name (`addTag`). */
export function TagEditor({
  urn,
  tags,
  onSaved,
}: {
  urn: string
  tags: readonly TagRef[]
  onSaved: () => void
}) {
  const m = useMutation(onSaved)
  return (
    <div className="editor" data-testid="tag-editor">
      <ul className="pills">
        {tags.map((t) => (
          <li key={t.tag.urn} className="pill tag" title={t.tag.urn}>
            {tagName(t)}
            <button
              type="button"
              className="remove"
              aria-label={`Remove tag ${tagName(t)}`}
              disabled={m.busy}
              onClick={() => m.run(REMOVE_TAG, { tagUrn: t.tag.urn, resourceUrn: urn })}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
      <AddForm
        fields={[{ name: 'tag', label: 'Tag to add', placeholder: 'tag name' }]}
        action="Add tag"
        busy={m.busy}
        onAdd={(v) => m.run(ADD_TAG, { tagUrn: tagUrnOf(v.tag ?? ''), resourceUrn: urn })}
      />
      <EditError message={m.error} />
    </div>
  )
}
