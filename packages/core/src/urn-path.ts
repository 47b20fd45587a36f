import { InvalidInputError } from './errors.js'

const ASPECT_NAME = /^[A-Za-z][A-Za-z0-9_]*$/

/**
 * Splits the tail of `/openapi/v3/entity/{entityName}/...` into the URN and an optional aspect
 * name: the one reading both the OpenAPI routes and the authorizer use, so they always agree on
 * the URN a request addresses. URNs come raw (as DataHub's Python SDK sends them, slashes and all) or
 * percent-encoded; an aspect name is a last segment that is a plain identifier after a URN
 * whose parentheses are balanced.
 */
export function splitUrnPath(tail: string): { urn: string; aspect?: string } {
  let path: string
  try {
    path = decodeURIComponent(tail)
  } catch {
    throw new InvalidInputError(`Malformed percent-encoding in '${tail}'`)
  }
  if (!path.startsWith('urn:')) throw new InvalidInputError(`Invalid urn: ${path}`)
  const slash = path.lastIndexOf('/')
  if (slash > 0) {
    const head = path.slice(0, slash)
    const last = path.slice(slash + 1)
    if (ASPECT_NAME.test(last) && balanced(head)) return { urn: head, aspect: last }
  }
  return { urn: path }
}

function balanced(s: string): boolean {
  let depth = 0
  for (const c of s) {
    if (c === '(') depth++
    else if (c === ')' && --depth < 0) return false
  }
  return depth === 0
}
