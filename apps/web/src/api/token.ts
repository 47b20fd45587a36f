const KEY = 'catalog.token'

/** The bearer token the user logged in with, kept for this browser tab only. */
export function getToken(): string | null {
  return sessionStorage.getItem(KEY)
}

export function setToken(token: string): void {
  sessionStorage.setItem(KEY, token)
}

export function clearToken(): void {
  sessionStorage.removeItem(KEY)
}
