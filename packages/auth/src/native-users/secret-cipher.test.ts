import { createCipheriv, createHash } from 'node:crypto'
import t from 'tap'
import { SecretCipher } from './secret-cipher.js'

t.test('v2 (AES-256-GCM) round trip, fresh IV each time, bound to the key', async (t) => {
  const cipher = new SecretCipher('a key')
  const a = cipher.encrypt('salt value')
  const b = cipher.encrypt('salt value')
  t.match(a, /^v2:[A-Za-z0-9+/=]+$/)
  t.not(a, b, 'a random IV per encryption')
  t.equal(cipher.decrypt(a), 'salt value')
  t.throws(() => new SecretCipher('another key').decrypt(a), 'another key does not decrypt it')
  const tampered = `v2:${Buffer.from(Buffer.from(a.slice(3), 'base64').map((x, i) => (i === 14 ? x ^ 1 : x))).toString('base64')}`
  t.throws(() => cipher.decrypt(tampered), 'the GCM tag catches tampering')
})

t.test("DataHub's legacy format (AES-128-ECB, SHA-1 key) decrypts", async (t) => {
  const key = createHash('sha1').update('ENCRYPTION_KEY').digest().subarray(0, 16)
  const legacy = createCipheriv('aes-128-ecb', key, null)
  const encrypted = Buffer.concat([legacy.update('hello'), legacy.final()]).toString('base64')
  t.equal(new SecretCipher('ENCRYPTION_KEY').decrypt(encrypted), 'hello')
})

t.test('password hash and tokens in DataHub forms', async (t) => {
  const cipher = new SecretCipher('k')
  const salt = Buffer.from('0123456789abcdef')
  t.equal(
    cipher.hashPassword(salt, 'pässword'),
    createHash('sha256').update('0123456789abcdefpässword', 'utf8').digest('base64'),
  )
  t.equal(cipher.hashString('abc'), 'ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=', 'base64 SHA-256')
  t.match(cipher.urlSafeToken(32), /^[a-z]{32}$/)
  t.ok(SecretCipher.same('abc', 'abc'))
  t.notOk(SecretCipher.same('abc', 'abd'))
  t.notOk(SecretCipher.same('abc', 'abcd'))
})
