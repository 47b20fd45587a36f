import { useState } from 'react'
import { ADD_OWNER, REMOVE_OWNER } from '../../api/queries.js'
import type { EntityDetail } from '../../api/types.js'
import { shortUrn } from '../../lib/display.js'
import { useMutation } from '../../lib/use-mutation.js'
import { AddForm } from './add-form.js'
import { EditError } from './edit-error.js'

type Owner = NonNullable<NonNullable<EntityDetail['ownership']>['owners']>[number]
type Kind = 'CORP_USER' | 'CORP_GROUP'

/** The ownership type of owners added here, as DataHub's UI defaults to it. */
const TECHNICAL_OWNER = 'urn:li:ownershipType:__system__technical_owner'

/** `jdoe` as a user → `urn:li:corpuser:jdoe`; a full URN is kept. */
export function ownerUrnOf(name: string, kind: Kind): string {
  if (name.startsWith('urn:li:')) return name.trim()
  return `${kind === 'CORP_USER' ? 'urn:li:corpuser:' : 'urn:li:corpGroup:'}${name.trim()}`
}

/** The entity's owners, each removable (`removeOwner`), and a form adding a user or group (`addOwner`). */
export function OwnerEditor({
  urn,
  owners,
  onSaved,
}: {
  urn: string
  owners: readonly Owner[]
  onSaved: () => void
}) {
  const m = useMutation(onSaved)
  const [kind, setKind] = useState<Kind>('CORP_USER')
  return (
    <div className="editor" data-testid="owner-editor">
      <ul className="pills">
        {owners.map((o) => {
          const name = o.owner.username ?? o.owner.name ?? shortUrn(o.owner.urn)
          return (
            <li key={o.owner.urn} className="pill owner" title={o.type ?? o.owner.urn}>
              {name}
              <button
                type="button"
                className="remove"
                aria-label={`Remove owner ${name}`}
                disabled={m.busy}
                onClick={() => m.run(REMOVE_OWNER, { ownerUrn: o.owner.urn, resourceUrn: urn })}
              >
                ×
              </button>
            </li>
          )
        })}
      </ul>
      <AddForm
        fields={[{ name: 'owner', label: 'Owner to add', placeholder: 'username or group' }]}
        action="Add owner"
        busy={m.busy}
        onAdd={(v) =>
          m.run(ADD_OWNER, {
            ownerUrn: ownerUrnOf(v.owner ?? '', kind),
            ownerEntityType: kind,
            ownershipTypeUrn: TECHNICAL_OWNER,
            resourceUrn: urn,
          })
        }
      >
        <select aria-label="Owner kind" value={kind} onChange={(e) => setKind(e.target.value as Kind)}>
          <option value="CORP_USER">user</option>
          <option value="CORP_GROUP">group</option>
        </select>
      </AddForm>
      <EditError message={m.error} />
    </div>
  )
}
