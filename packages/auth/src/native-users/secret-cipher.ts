import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  randomBytes,
  randomInt,
  timingSafeEqual,
} from 'node:crypto'

/** Prefix of DataHub's current encryption format (AES-256-GCM). */
const V2_PREFIX = 'v2:'
const IV_BYTES = 12
const TAG_BYTES = 16
/** The fixed info string DataHub derives its AES-256 key with. */
const KEY_INFO = 'DataHub-AES-GCM-Key'

/**
 * The secret handling DataHub's GMS applies to native-user credentials and invite tokens
 * (its `SecretService`), so that `corpUserCredentials` and `inviteToken` aspects written by
 * either system verify in the other when both share the encryption key (DataHub's
 * `SECRET_SERVICE_ENCRYPTION_KEY`):
 * - `encrypt`: AES-256-GCM, key = HMAC-SHA256(SHA-256(key), "DataHub-AES-GCM-Key"),
 *   stored as `v2:` + base64(iv ‖ ciphertext ‖ tag);
 * - `decrypt`: that format, or DataHub's legacy AES-128-ECB (key = first 16 bytes of SHA-1(key));
 * - `hashPassword`: base64(SHA-256(salt ‖ UTF-8 password));
 * - `hashString`: base64(SHA-256(UTF-8 text)), which names invite-token entities.
 */
export class SecretCipher {
  private readonly gcmKey: Buffer
  private readonly legacyKey: Buffer

  constructor(key: string) {
    if (key.length === 0) throw new Error('SecretCipher: an empty encryption key')
    const initial = createHash('sha256').update(key, 'utf8').digest()
    this.gcmKey = createHmac('sha256', initial).update(KEY_INFO, 'utf8').digest()
    this.legacyKey = createHash('sha1').update(key, 'utf8').digest().subarray(0, 16)
  }

  /** Encrypts `value` in DataHub's v2 format. */
  encrypt(value: string): string {
    const iv = randomBytes(IV_BYTES)
    const cipher = createCipheriv('aes-256-gcm', this.gcmKey, iv, { authTagLength: TAG_BYTES })
    const body = Buffer.concat([cipher.update(value, 'utf8'), cipher.final(), cipher.getAuthTag()])
    return V2_PREFIX + Buffer.concat([iv, body]).toString('base64')
  }

  /** Decrypts a value of either of DataHub's formats; throws when it does not decrypt with this key. */
  decrypt(encrypted: string): string {
    if (!encrypted.startsWith(V2_PREFIX)) {
      const decipher = createDecipheriv('aes-128-ecb', this.legacyKey, null)
      return Buffer.concat([decipher.update(Buffer.from(encrypted, 'base64')), decipher.final()]).toString(
        'utf8',
      )
    }
    const raw = Buffer.from(encrypted.slice(V2_PREFIX.length), 'base64')
    if (raw.length < IV_BYTES + TAG_BYTES) throw new Error('Encrypted value too short for AES-GCM format')
    const decipher = createDecipheriv('aes-256-gcm', this.gcmKey, raw.subarray(0, IV_BYTES), {
      authTagLength: TAG_BYTES,
    })
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES))
    return Buffer.concat([
      decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8')
  }

  /** `length` random lowercase ASCII letters (DataHub's URL-safe tokens). */
  urlSafeToken(length: number): string {
    let out = ''
    for (let i = 0; i < length; i++) out += String.fromCharCode(97 + randomInt(26))
    return out
  }

  /** base64(SHA-256(text)). */
  hashString(text: string): string {
    return createHash('sha256').update(text, 'utf8').digest('base64')
  }

  /** `length` random bytes. */
  salt(length: number): Buffer {
    return randomBytes(length)
  }

  /** base64(SHA-256(salt ‖ UTF-8 password)). */
  hashPassword(salt: Buffer, password: string): string {
    return createHash('sha256').update(salt).update(password, 'utf8').digest('base64')
  }

  /** Compares two strings in constant time (for equal lengths). */
  static same(a: string, b: string): boolean {
    const x = Buffer.from(a, 'utf8')
    const y = Buffer.from(b, 'utf8')
    return x.length === y.length && timingSafeEqual(x, y)
  }
}
