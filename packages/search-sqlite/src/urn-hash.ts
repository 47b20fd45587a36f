/**
 * The 32-bit FNV-1a hash of a URN's UTF-16 code units, signed (SQLite stores it in 4 bytes):
 * `docs` is looked up by URN through an index of this hash (`docs_by_urn`) and the URN itself,
 * so the URN is stored once (a unique index on it held every URN a second time, ~114 B per
 * dataset). Equal URNs always hash alike; different ones seldom do, and the URN decides.
 */
export function urnHash(urn: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < urn.length; i++) {
    h ^= urn.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h | 0
}
