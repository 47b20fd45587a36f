import { type FormEvent, useState } from 'react'
import { graphql, UnauthorizedError } from '../api/client.js'
import { ME } from '../api/queries.js'
import { setToken } from '../api/token.js'
import { navigate } from '../lib/router.js'

const REFUSED = 'The catalog refused this token: it is invalid, expired or revoked.'

/** Takes a bearer token, checks it with `me`, and keeps it in sessionStorage for this tab. */
export function LoginPage({ params }: { params: URLSearchParams }) {
  const [token, setTokenText] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(params.get('refused') ? REFUSED : null)
  const next = params.get('next')
  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const value = token.trim()
    if (!value) return setError('Paste a token first.')
    setBusy(true)
    try {
      await graphql(ME, {}, value)
      setToken(value)
      navigate(next?.startsWith('/') && !next.startsWith('/login') ? next : '/search', true)
    } catch (err) {
      setError(
        err instanceof UnauthorizedError ? REFUSED : `Could not reach the catalog: ${(err as Error).message}`,
      )
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="login">
      <form onSubmit={submit} className="card">
        <h1>Catalog</h1>
        <p className="muted">
          Log in with an access token: <code>npm run token</code> mints one, and the first start writes an
          admin token to <code>&lt;data dir&gt;/admin.token</code>.
        </p>
        <label htmlFor="token">Access token</label>
        <textarea
          id="token"
          name="token"
          rows={4}
          value={token}
          onChange={(e) => setTokenText(e.target.value)}
          autoComplete="off"
          spellCheck={false}
        />
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {busy ? 'Checking…' : 'Log in'}
        </button>
      </form>
    </div>
  )
}
