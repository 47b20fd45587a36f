import { ADD_LINK, REMOVE_LINK } from '../../api/queries.js'
import { useMutation } from '../../lib/use-mutation.js'
import { AddForm } from './add-form.js'
import { EditError } from './edit-error.js'

interface DocLink {
  url: string
  label: string
}

/** The entity's links (institutional memory), each removable (`removeLink`), and a form adding one (`addLink`). */
export function LinkEditor({
  urn,
  links,
  onSaved,
}: {
  urn: string
  links: readonly DocLink[]
  onSaved: () => void
}) {
  const m = useMutation(onSaved)
  return (
    <div className="editor" data-testid="link-editor">
      <ul className="links">
        {links.map((l) => (
          <li key={`${l.url} ${l.label}`}>
            <a href={l.url} target="_blank" rel="noopener noreferrer">
              {l.label || l.url}
            </a>
            <button
              type="button"
              className="remove"
              aria-label={`Remove link ${l.label || l.url}`}
              disabled={m.busy}
              onClick={() => m.run(REMOVE_LINK, { linkUrl: l.url, label: l.label, resourceUrn: urn })}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
      <AddForm
        fields={[
          { name: 'url', label: 'Link URL', placeholder: 'https://…' },
          { name: 'label', label: 'Link label', placeholder: 'label' },
        ]}
        action="Add link"
        busy={m.busy}
        onAdd={(v) => m.run(ADD_LINK, { linkUrl: v.url?.trim(), label: v.label?.trim(), resourceUrn: urn })}
      />
      <EditError message={m.error} />
    </div>
  )
}
