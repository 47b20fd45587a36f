import t from 'tap'
import {
  DECODE_PIECE_BYTES,
  decodeInPieces,
  ENCODE_PIECE_LENGTH,
  sharedUtf8,
} from './utf8-in-shared-memory.js'

t.test('a long text as UTF-8 in shared memory, pieces never splitting a surrogate pair', async (t) => {
  for (const shift of [0, 1, 2, 3]) {
    // A pair (U+1F600) straddles the piece edge at one of the shifts.
    const text = `${'a'.repeat(shift)}${'\u00e9\ud83d\ude00x'.repeat(ENCODE_PIECE_LENGTH / 2)}`
    const bytes = await sharedUtf8(text)
    t.ok(bytes.buffer instanceof SharedArrayBuffer, `shift ${shift}: shared`)
    t.ok(Buffer.from(text).equals(Buffer.from(bytes)), `shift ${shift}: the same bytes as Buffer.from`)
  }
  t.equal((await sharedUtf8('')).byteLength, 0, 'an empty text')
})

t.test('UTF-8 decoded in pieces, characters split between pieces decoded whole', async (t) => {
  for (const shift of [0, 1, 2, 3]) {
    // 2-, 4- and 1-byte characters: one of them straddles each piece edge at some shift.
    const text = `${'a'.repeat(shift)}${'\u00e9\ud83d\ude00x'.repeat(DECODE_PIECE_BYTES / 2)}`
    const decoded = await decodeInPieces(await sharedUtf8(text))
    t.equal(decoded, text, `shift ${shift}`)
  }
  t.equal(await decodeInPieces(new Uint8Array(0)), '', 'no bytes')
  t.equal(await decodeInPieces(Buffer.from('\ufeff{}')), '\ufeff{}', 'a leading U+FEFF is kept')
  t.equal(await decodeInPieces(Buffer.from('caf\u00e9')), 'caf\u00e9', 'fewer bytes than a piece')
})
