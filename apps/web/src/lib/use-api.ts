import { useEffect, useState } from 'react'
import { UnauthorizedError } from '../api/client.js'
import { clearToken } from '../api/token.js'
import { navigate, routes } from './router.js'

export interface Loaded<T> {
  readonly data?: T
  readonly error?: Error
  readonly loading: boolean
}

/**
 * Runs `load` whenever `key` changes and keeps the latest answer. A refused token ends the
 * session: back to the login page, which says why.
 */
export function useApi<T>(key: string, load: () => Promise<T>): Loaded<T> {
  const [state, setState] = useState<Loaded<T>>({ loading: true })
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` names everything `load` reads
  useEffect(() => {
    let live = true
    setState((s) => ({ ...s, loading: true }))
    load().then(
      (data) => live && setState({ data, loading: false }),
      (error: Error) => {
        if (!live) return
        if (error instanceof UnauthorizedError) {
          clearToken()
          navigate(`${routes.login(window.location.pathname + window.location.search)}&refused=1`, true)
          return
        }
        setState({ error, loading: false })
      },
    )
    return () => {
      live = false
    }
  }, [key])
  return state
}
