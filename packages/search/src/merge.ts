import type { DocumentFields, FieldValue } from './port.js'

/** Each aspect's contribution to a document, by aspect name. */
export type Contributions = Readonly<Record<string, DocumentFields>>

/**
 * A document from its aspects' contributions: the union of each field's values, in the
 * contributions' order (the key aspect first, then by aspect name, as adapters store them).
 */
export function mergeContributions(parts: Contributions): Record<string, FieldValue[]> {
  const merged: Record<string, FieldValue[]> = {}
  for (const part of Object.values(parts)) {
    for (const [field, values] of Object.entries(part)) {
      const list = merged[field]
      if (!list) merged[field] = [...values]
      else for (const v of values) if (!list.includes(v)) list.push(v)
    }
  }
  return merged
}

/** Contributions in the order documents merge them: the key aspect first, then by name. */
export function orderContributions(parts: Contributions, keyAspect: string | undefined): Contributions {
  // The default sort (by UTF-16 code units, as `<` compares) needs no comparator calls.
  const names = Object.keys(parts).sort()
  const out: Record<string, DocumentFields> = {}
  if (keyAspect !== undefined && Object.hasOwn(parts, keyAspect))
    out[keyAspect] = parts[keyAspect] as DocumentFields
  for (const n of names) if (n !== keyAspect) out[n] = parts[n] as DocumentFields
  return out
}
