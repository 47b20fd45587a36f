import { scryptSync } from 'node:crypto'
import t from 'tap'
import { decodeScrypt, encode, needsRehash, scryptHash, scryptVerify } from './password-hash.js'

const CHEAP = { ln: 10, r: 8, p: 1 }

t.test('hash and verify, parameters and salt carried in the string', async (t) => {
  const { encoded, salt } = await scryptHash('pässword', CHEAP)
  t.match(encoded, /^\$scrypt\$ln=10,r=8,p=1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/)
  const parsed = decodeScrypt(encoded)
  t.same(parsed?.salt, salt)
  t.same(
    parsed?.hash,
    scryptSync('pässword', salt, 32, { N: 1024, r: 8, p: 1 }),
    'plain scrypt of the password',
  )
  t.ok(await scryptVerify('pässword', encoded))
  t.notOk(await scryptVerify('passwörd', encoded))
  t.not((await scryptHash('pässword', CHEAP)).encoded, encoded, 'a fresh salt each time')
})

t.test('malformed or out-of-bounds parameters never verify and never run', async (t) => {
  const { encoded } = await scryptHash('x', CHEAP)
  const parsed = decodeScrypt(encoded)
  if (!parsed) throw new Error('unparsed')
  for (const bad of [
    encode({ ...parsed, params: { ln: 30, r: 8, p: 1 } }),
    encode({ ...parsed, params: { ln: 10, r: 0, p: 1 } }),
    encoded.replace('ln=10', 'ln=ten'),
    `${encoded}$extra`,
    '$scrypt$ln=10,r=8,p=1$$',
    'not a hash',
  ]) {
    t.equal(decodeScrypt(bad), undefined, bad)
    t.notOk(await scryptVerify('x', bad))
  }
})

t.test('needsRehash: weaker parameters than wanted, or not ours', async (t) => {
  const { encoded } = await scryptHash('x', CHEAP)
  t.ok(needsRehash(encoded), 'below the default cost')
  t.notOk(needsRehash(encoded, CHEAP))
  t.ok(needsRehash('base64sha256=='))
})
