import { type ReactNode, useState } from 'react'

/**
 * A one-line "add" form: its fields' values, reset after a successful `onAdd`. `fields` names
 * each input and its accessible label.
 */
export function AddForm({
  fields,
  action,
  busy,
  onAdd,
  children,
}: {
  fields: readonly { name: string; label: string; placeholder?: string }[]
  action: string
  busy: boolean
  onAdd: (values: Record<string, string>) => Promise<boolean>
  children?: ReactNode
}) {
  const empty = Object.fromEntries(fields.map((f) => [f.name, '']))
  const [values, setValues] = useState<Record<string, string>>(empty)
  return (
    <form
      className="add-form"
      onSubmit={async (e) => {
        e.preventDefault()
        if (fields.some((f) => !values[f.name]?.trim())) return
        if (await onAdd(values)) setValues(empty)
      }}
    >
      {fields.map((f) => (
        <input
          key={f.name}
          aria-label={f.label}
          placeholder={f.placeholder ?? f.label}
          value={values[f.name] ?? ''}
          onChange={(e) => setValues({ ...values, [f.name]: e.target.value })}
        />
      ))}
      {children}
      <button type="submit" disabled={busy}>
        {action}
      </button>
    </form>
  )
}
