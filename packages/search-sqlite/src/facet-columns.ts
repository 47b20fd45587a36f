/** `into` holding `from` at its start. */
export function grown<T extends Int32Array | Uint16Array | Uint8Array>(from: ArrayLike<number>, into: T): T {
  into.set(from)
  return into
}

/** Growable columnar arrays: per document id its value slice and soft-delete flag. */
export class Columns {
  start = new Int32Array(1024)
  len = new Uint16Array(1024)
  removed = new Uint8Array(1024)
  size = new Uint16Array(1024)
  vals = new Int32Array(8192)
  private end = 0
  private garbage = 0

  /**
   * The arrays of `docs` documents at once: a document whose type is known (`typeOf` >= 0)
   * gets its type, then the value of each posting that holds it, in posting order (`counts`:
   * how many values each document gets, its type included).
   */
  static build(
    docs: number,
    typeOf: Int32Array,
    removed: Uint8Array,
    size: Uint16Array,
    counts: Uint32Array,
    postings: ReadonlyArray<{ readonly vid: number; readonly ids: Int32Array }>,
  ): Columns {
    const c = new Columns()
    const cap = Math.max(1024, docs)
    c.start = new Int32Array(cap)
    c.len = new Uint16Array(cap)
    c.removed = grown(removed.subarray(0, Math.min(docs, removed.length)), new Uint8Array(cap))
    c.size = grown(size.subarray(0, Math.min(docs, size.length)), new Uint16Array(cap))
    let total = 0
    for (let id = 0; id < docs; id++) {
      c.start[id] = total
      total += Math.min(counts[id] as number, 0xffff)
    }
    c.vals = new Int32Array(Math.max(8192, total))
    c.end = total
    const add = (id: number, vid: number) => {
      const at = c.len[id] as number
      if (at < Math.min(counts[id] as number, 0xffff)) {
        c.vals[(c.start[id] as number) + at] = vid
        c.len[id] = at + 1
      }
    }
    for (let id = 0; id < docs; id++) if ((typeOf[id] as number) >= 0) add(id, typeOf[id] as number)
    for (const { vid, ids } of postings) for (const id of ids) if (id < docs) add(id, vid)
    return c
  }

  put(id: number, list: readonly number[], removed: boolean, size: number): void {
    this.remove(id)
    if (id >= this.len.length) this.growDocs(id + 1)
    if (this.end + list.length > this.vals.length) this.growVals(this.end + list.length)
    this.start[id] = this.end
    this.len[id] = Math.min(list.length, 0xffff)
    this.removed[id] = removed ? 1 : 0
    this.size[id] = Math.min(size, 0xffff)
    for (let i = 0; i < (this.len[id] as number); i++) this.vals[this.end++] = list[i] as number
  }

  /** A document's value ids (empty for an unknown one). */
  slice(id: number): Int32Array {
    if (id >= this.len.length) return new Int32Array(0)
    const from = this.start[id] as number
    return this.vals.slice(from, from + (this.len[id] as number))
  }

  /** Whether a document has a value. */
  has(id: number, vid: number): boolean {
    if (id >= this.len.length) return false
    const from = this.start[id] as number
    const to = from + (this.len[id] as number)
    for (let i = from; i < to; i++) if (this.vals[i] === vid) return true
    return false
  }

  remove(id: number): void {
    if (id >= this.len.length) return
    this.garbage += this.len[id] as number
    this.len[id] = 0
    this.removed[id] = 0
  }

  private growDocs(min: number): void {
    const size = Math.max(min, this.len.length * 2)
    const grow = <T extends Int32Array | Uint16Array | Uint8Array>(a: T, b: T): T => {
      b.set(a)
      return b
    }
    this.start = grow(this.start, new Int32Array(size))
    this.len = grow(this.len, new Uint16Array(size))
    this.removed = grow(this.removed, new Uint8Array(size))
    this.size = grow(this.size, new Uint16Array(size))
  }

  /** Compacts away rewritten slices when they are more than half, else doubles. */
  private growVals(min: number): void {
    const live = this.end - this.garbage
    const next = new Int32Array(Math.max(min - this.garbage, live * 2, 8192) + (min - this.end))
    let at = 0
    for (let id = 0; id < this.len.length; id++) {
      const n = this.len[id] as number
      if (n === 0) continue
      const from = this.start[id] as number
      next.set(this.vals.subarray(from, from + n), at)
      this.start[id] = at
      at += n
    }
    this.vals = next
    this.end = at
    this.garbage = 0
  }
}
