import type { IncomingMessage } from 'node:http'
import type { ConstraintStrategy, HTTPVersion } from 'find-my-way'

/** The `action` of a Rest.li URL (`/entities?action=search` gives `search`), or undefined. */
export function actionOf(url: string): string | undefined {
  const q = url.indexOf('?')
  if (q < 0) return undefined
  const match = /(?:^|&)action=([^&]*)/.exec(url.slice(q + 1))
  if (!match) return undefined
  try {
    return decodeURIComponent(match[1] ?? '')
  } catch {
    return match[1]
  }
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
