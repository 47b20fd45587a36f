import { TimeSlices } from './time-slices.js'

/** A text longer than this (UTF-16 units) is encoded a piece at a time. */
export const ENCODE_PIECE_LENGTH = 256 * 1024

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff

/**
 * Encodes `text` as UTF-8 into `bytes` from `at` (which must hold `Buffer.byteLength(text)`
 * bytes there), a piece of at most 256 Ki units at a time, giving the event loop a turn whenever
 * `slices` is due; resolves with where the text ends. A surrogate pair is never split between
 * two pieces (either half alone would encode as U+FFFD).
 */
export async function encodeInPieces(
  text: string,
  bytes: Uint8Array,
  at: number,
  slices: TimeSlices,
): Promise<number> {
  const encoder = new TextEncoder()
  let end = at
  for (let from = 0; from < text.length; ) {
    let to = Math.min(text.length, from + ENCODE_PIECE_LENGTH)
    if (to < text.length && isHighSurrogate(text.charCodeAt(to - 1))) to--
    const piece = from === 0 && to === text.length ? text : text.slice(from, to)
    end += encoder.encodeInto(piece, bytes.subarray(end)).written
    from = to
    if (slices.due) await slices.next()
  }
  return end
}

/**
 * `text` as UTF-8 in a `SharedArrayBuffer`, encoded in slices: a worker gets the bytes without a
 * copy, where posting a string of megabytes copies it on the event loop in one step (~40 ms for
 * 6.5 MB on a host slow to map fresh pages).
 */
export async function sharedUtf8(text: string): Promise<Uint8Array> {
  const slices = new TimeSlices()
  // A turn first: the text has often just arrived, its copy-in having taken the turn's time.
  await slices.next()
  const bytes = new Uint8Array(new SharedArrayBuffer(Buffer.byteLength(text)))
  await encodeInPieces(text, bytes, 0, slices)
  return bytes
}

/** UTF-8 bytes decoded a piece of this many at a time by {@link decodeInPieces}. */
export const DECODE_PIECE_BYTES = 256 * 1024

/**
 * `utf8` decoded, a piece of at most 256 KiB at a time, giving the event loop a turn whenever
 * `slices` is due: decoding megabytes at once copies them into fresh memory in one step. The
 * pieces are joined by concatenation, which V8 keeps as a rope: no copy of the whole is made
 * until something reads the string's characters. A character split between two pieces is decoded
 * whole (the decoder streams), and a leading U+FEFF is kept (it is part of the text).
 */
export async function decodeInPieces(utf8: Uint8Array, slices = new TimeSlices()): Promise<string> {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true })
  let text = ''
  for (let at = 0; at < utf8.byteLength; at += DECODE_PIECE_BYTES) {
    text += decoder.decode(utf8.subarray(at, at + DECODE_PIECE_BYTES), { stream: true })
    if (slices.due) await slices.next()
  }
  return text + decoder.decode()
}

/**
 * {@link sharedUtf8} in one step, for a worker thread (no event loop waits on it): a 16 MB string
 * posted as a string is copied into fresh memory on the receiving event loop in one step (~100 ms
 * on a host slow to map pages); shared bytes are not.
 */
export function sharedUtf8Now(text: string): Uint8Array {
  const bytes = new Uint8Array(new SharedArrayBuffer(Buffer.byteLength(text)))
  new TextEncoder().encodeInto(text, bytes)
  return bytes
}
