import type { IncomingMessage } from 'node:http'
import type { ConstraintStrategy, HTTPVersion } from 'find-my-way'

/**
 * The `action` of a Rest.li URL (`/entities?action=search` gives `search`), or undefined. Every
 * request to a route with the action constraint (and its metrics) asks, so the query is scanned
 * in place: no slice, no regular expression, no decoding unless the value holds a `%`.
 */
export function actionOf(url: string): string | undefined {
  const q = url.indexOf('?')
  if (q < 0) return undefined
  for (let at = url.indexOf('action=', q + 1); at >= 0; at = url.indexOf('action=', at + 7)) {
    const before = url.charCodeAt(at - 1)
    // `?action=` or `&action=`, not `reaction=`.
    if (at - 1 !== q && before !== 38 /* & */) continue
    const from = at + 7
    const amp = url.indexOf('&', from)
    const value = amp < 0 ? url.slice(from) : url.slice(from, amp)
    if (!value.includes('%')) return value
    try {
      return decodeURIComponent(value)
    } catch {
      return value
    }
  }
  return undefined
}

/**
 * Rest.li actions (`POST /entities?action=search`) as a fastify route constraint: each action
 * is its own route with its own schema, and the gateway can route actions of one path to
 * different services. A route without the constraint (the gateway's forwarder) answers any action.
 */
export const actionConstraint: ConstraintStrategy<HTTPVersion.V1> = {
  name: 'action',
  storage() {
    const handlers = new Map<string, unknown>()
    return {
      get: (action) => (handlers.get(action) ?? null) as never,
      set: (action, store) => {
        handlers.set(action, store)
      },
    }
  },
  deriveConstraint(req) {
    // An absent action derives no constraint value (find-my-way treats undefined as "none").
    return actionOf((req as IncomingMessage).url ?? '') as string
  },
  validate(value) {
    if (typeof value !== 'string') throw new Error('the action constraint must be a string')
  },
  mustMatchWhenDerived: false,
}
