import { InvalidInputError } from '@catalog/core'

/** Query parameters as they appear in the URL, not yet percent-decoded, in order. */
export function rawQuery(url: string): Map<string, string[]> {
  const out = new Map<string, string[]>()
  const q = url.indexOf('?')
  if (q < 0) return out
  for (const pair of url.slice(q + 1).split('&')) {
    if (pair.length === 0) continue
    const eq = pair.indexOf('=')
    const key = decode(eq < 0 ? pair : pair.slice(0, eq))
    const value = eq < 0 ? '' : pair.slice(eq + 1)
    const list = out.get(key)
    if (list) list.push(value)
    else out.set(key, [value])
  }
  return out
}

/**
 * Reads an array query parameter in any form DataHub clients send: Rest.li 2.0
 * `?aspects=List(a,b)` (members percent-encoded or raw, nested parentheses kept together),
 * Rest.li 1.0 repeated keys `?aspects=a&aspects=b`, or one bare value `?types=OwnedBy`.
 * Returns undefined when the parameter is absent.
 */
export function restliList(url: string, name: string): string[] | undefined {
  const raw = rawQuery(url).get(name)
  if (!raw) return undefined
  const out: string[] = []
  for (const value of raw) {
    if (value.startsWith('List(') && value.endsWith(')')) {
      for (const member of splitTopLevel(value.slice(5, -1))) if (member.length > 0) out.push(decode(member))
    } else if (value.startsWith('List%28') && value.endsWith('%29')) {
      // The whole list was percent-encoded once more: decode it, then split the raw form.
      return restliList(`?${name}=${decode(value)}`, name)
    } else if (value.length > 0) {
      out.push(decode(value))
    }
  }
  return out
}

/** Reads a single query parameter (decoded); undefined when absent. */
export function queryParam(url: string, name: string): string | undefined {
  const raw = rawQuery(url).get(name)
  return raw?.[0] === undefined ? undefined : decode(raw[0])
}

/** Splits on commas that are not inside parentheses. */
export function splitTopLevel(s: string): string[] {
  const parts: string[] = []
  let depth = 0
  let start = 0
  for (let i = 0; i < s.length; i++) {
    const c = s[i]
    if (c === '(') depth++
    else if (c === ')') depth--
    else if (c === ',' && depth === 0) {
      parts.push(s.slice(start, i))
      start = i + 1
    }
  }
  parts.push(s.slice(start))
  return parts
}

/** Percent-decodes (and `+` as space in query strings); a bad escape is a 400. */
export function decode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '))
  } catch {
    throw new InvalidInputError(`Malformed percent-encoding in '${s}'`)
  }
}

/** The URN in a path key (`/entitiesV2/<urn>`): percent-encoded or raw, slashes allowed. */
export function urnFromPath(url: string, prefix: string): string {
  const path = url.split('?')[0] ?? ''
  const raw = path.slice(prefix.length)
  try {
    return decodeURIComponent(raw)
  } catch {
    throw new InvalidInputError(`Malformed percent-encoding in '${raw}'`)
  }
}
