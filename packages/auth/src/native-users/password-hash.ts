import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto'

/** The scrypt cost of new hashes: N = 2^15, r = 8, p = 1 (32 MiB, tens of milliseconds). */
export interface ScryptParams {
  /** log2 of the CPU/memory cost N. */
  readonly ln: number
  readonly r: number
  readonly p: number
}

export const DEFAULT_SCRYPT_PARAMS: ScryptParams = { ln: 15, r: 8, p: 1 }
const KEY_BYTES = 32
const SALT_BYTES = 16
const PREFIX = '$scrypt$'
/** Bounds on parameters read back from a stored hash, so a forged record cannot exhaust the process. */
const MAX_LN = 20
const MAX_R = 32
const MAX_P = 16

/** A decoded `$scrypt$ln=..,r=..,p=..$<salt>$<hash>` string. */
export interface ScryptHash {
  readonly params: ScryptParams
  readonly salt: Buffer
  readonly hash: Buffer
}

/** Whether a stored `hashedPassword` is one of ours (else it is DataHub's salted SHA-256). */
export function isScryptHash(hashedPassword: string): boolean {
  return hashedPassword.startsWith(PREFIX)
}

/**
 * Hashes `password` with a fresh random salt; the answer is a PHC-style string that carries
 * the parameters and the salt: `$scrypt$ln=15,r=8,p=1$<base64 salt>$<base64 key>`. Runs on
 * the thread pool (async `crypto.scrypt`), never blocking the event loop.
 */
export async function scryptHash(
  password: string,
  params: ScryptParams = DEFAULT_SCRYPT_PARAMS,
): Promise<{ encoded: string; salt: Buffer }> {
  const salt = randomBytes(SALT_BYTES)
  const key = await derive(password, salt, params, KEY_BYTES)
  return { encoded: encode({ params, salt, hash: key }), salt }
}

/** Whether `password` matches an encoded scrypt hash (compared in constant time); false when malformed. */
export async function scryptVerify(password: string, encoded: string): Promise<boolean> {
  const parsed = decodeScrypt(encoded)
  if (!parsed) return false
  const key = await derive(password, parsed.salt, parsed.params, parsed.hash.length)
  return key.length === parsed.hash.length && timingSafeEqual(key, parsed.hash)
}

/** Whether an encoded hash was made with weaker parameters than `wanted` (then it is rehashed). */
export function needsRehash(encoded: string, wanted: ScryptParams = DEFAULT_SCRYPT_PARAMS): boolean {
  const parsed = decodeScrypt(encoded)
  if (!parsed) return true
  const { ln, r, p } = parsed.params
  return ln < wanted.ln || r < wanted.r || p < wanted.p
}

export function encode({ params, salt, hash }: ScryptHash): string {
  return `${PREFIX}ln=${params.ln},r=${params.r},p=${params.p}$${salt.toString('base64')}$${hash.toString('base64')}`
}

/** The parts of an encoded hash; undefined when it is not a well-formed one within the bounds. */
export function decodeScrypt(encoded: string): ScryptHash | undefined {
  if (!encoded.startsWith(PREFIX)) return undefined
  const [paramText, saltText, hashText, ...rest] = encoded.slice(PREFIX.length).split('$')
  if (rest.length > 0 || !paramText || !saltText || !hashText) return undefined
  const values = new Map(paramText.split(',').map((kv) => kv.split('=') as [string, string]))
  const ln = Number(values.get('ln'))
  const r = Number(values.get('r'))
  const p = Number(values.get('p'))
  const ok = (n: number, max: number) => Number.isInteger(n) && n >= 1 && n <= max
  if (values.size !== 3 || !ok(ln, MAX_LN) || !ok(r, MAX_R) || !ok(p, MAX_P)) return undefined
  const salt = Buffer.from(saltText, 'base64')
  const hash = Buffer.from(hashText, 'base64')
  if (salt.length < 8 || hash.length < 16) return undefined
  return { params: { ln, r, p }, salt, hash }
}

function derive(password: string, salt: Buffer, params: ScryptParams, length: number): Promise<Buffer> {
  const N = 2 ** params.ln
  const options: ScryptOptions = { N, r: params.r, p: params.p, maxmem: 256 * N * params.r + 1024 * 1024 }
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, length, options, (err, key) => (err ? reject(err) : resolve(key)))
  })
}
