import { InvalidInputError } from '../errors.js'

/**
 * Splits an RFC 6901 pointer into unescaped reference tokens (`~1` is `/`, `~0` is `~`). URNs
 * contain `/`, so patch paths carry them escaped. Throws {@link InvalidInputError} for a pointer
 * that does not start with `/` (other than the root pointer "") or has a `~` not followed by 0 or 1.
 */
export function parsePointer(pointer: string): string[] {
  if (pointer === '') return []
  if (!pointer.startsWith('/')) throw new InvalidInputError(`JSON pointer "${pointer}" must start with "/"`)
  return pointer
    .slice(1)
    .split('/')
    .map((token) => {
      if (/~(?![01])/.test(token)) {
        throw new InvalidInputError(`JSON pointer "${pointer}" has a "~" not followed by 0 or 1`)
      }
      return token.replaceAll('~1', '/').replaceAll('~0', '~')
    })
}

/** Escapes tokens back into a pointer (for messages). */
export function formatPointer(tokens: readonly string[]): string {
  return tokens.map((t) => `/${t.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('')
}
