import { useState } from 'react'
import { graphql } from '../api/client.js'

export interface Mutation {
  /** Runs `mutation` with `{ input }`; true when it succeeded (then `done` ran). */
  readonly run: (mutation: string, input: Record<string, unknown>) => Promise<boolean>
  readonly busy: boolean
  /** The catalog's message for the last failure, cleared by the next run. */
  readonly error: string | null
}

/** Runs the page's GraphQL mutations one at a time, calling `done` (a reload) after each success. */
export function useMutation(done: () => void): Mutation {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const run = async (mutation: string, input: Record<string, unknown>) => {
    setBusy(true)
    setError(null)
    try {
      await graphql(mutation, { input })
      done()
      return true
    } catch (e) {
      setError((e as Error).message)
      return false
    } finally {
      setBusy(false)
    }
  }
  return { run, busy, error }
}
