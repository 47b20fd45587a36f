import { randomBytes } from 'node:crypto'
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { InvalidInputError } from '@catalog/core'

/** File in the data dir holding the generated signing secret. */
export const SECRET_FILE = 'token.secret'

/** Where the signing secret came from. */
export interface LoadedSecret {
  readonly secret: string
  /** The secret file, when the secret lives in the data dir. */
  readonly file?: string
  /** True when this call generated the secret. */
  readonly created: boolean
}

const MIN_LENGTH = 32

/**
 * The token signing secret: `configured` (CATALOG_TOKEN_SECRET) when set; otherwise the
 * secret file in `dataDir`, created (mode 0600) on first use. Creation is exclusive, so
 * processes sharing a data dir that start together all end up with the same secret.
 */
export function loadOrCreateSecret(dataDir: string, configured?: string): LoadedSecret {
  if (configured !== undefined) return { secret: configured, created: false }
  const file = join(dataDir, SECRET_FILE)
  const existing = readSecret(file)
  if (existing !== undefined) return { secret: existing, file, created: false }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  const secret = randomBytes(48).toString('base64url')
  try {
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' })
    chmodSync(file, 0o600)
    return { secret, file, created: true }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    // Another process created it first: use theirs, once it is written.
    for (let attempt = 0; attempt < 50; attempt++) {
      const theirs = readSecret(file)
      if (theirs !== undefined) return { secret: theirs, file, created: false }
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10)
    }
    throw new InvalidInputError(`the token secret file ${file} is empty`)
  }
}

function readSecret(file: string): string | undefined {
  let text: string
  try {
    text = readFileSync(file, 'utf8').trim()
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw err
  }
  if (text.length === 0) return undefined
  if (text.length < MIN_LENGTH) {
    throw new InvalidInputError(`the token secret in ${file} is shorter than ${MIN_LENGTH} characters`)
  }
  return text
}
