/**
 * A streaming CSV reader (RFC 4180: `,` separated, `"` quoted with `""` for a quote, quoted
 * fields may hold separators and line breaks), for DataHub's `metadata_aspect_v2` exports whose
 * `metadata` column is JSON. Feed it text chunks; it returns the complete rows seen so far.
 */
export class CsvReader {
  private field = ''
  private row: string[] = []
  private quoted = false
  /** Inside a quoted field. */
  private inQuotes = false
  /** Just saw a `"` inside a quoted field: either the closing quote or the first of `""`. */
  private quotePending = false

  /** Consumes a chunk; returns the rows it completed. */
  push(chunk: string): string[][] {
    const rows: string[][] = []
    let start = 0
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i)
      if (this.quotePending) {
        // The `"` that ended the last chunk: the first of `""`, or the closing quote.
        this.quotePending = false
        if (c === 34) {
          this.field += '"'
          start = i + 1
          continue
        }
        this.inQuotes = false
      }
      if (this.inQuotes) {
        if (c !== 34) continue
        this.field += chunk.slice(start, i)
        start = i + 1
        if (i + 1 >= chunk.length) this.quotePending = true
        else if (chunk.charCodeAt(i + 1) === 34) {
          this.field += '"'
          i++
          start = i + 1
        } else this.inQuotes = false
        continue
      }
      if (c === 34 && this.field === '' && i === start) {
        this.inQuotes = true
        this.quoted = true
        start = i + 1
      } else if (c === 44) {
        this.endField(chunk.slice(start, i))
        start = i + 1
      } else if (c === 10) {
        let text = chunk.slice(start, i)
        if (!this.quoted) {
          text = this.field + text
          this.field = ''
          if (text.endsWith('\r')) text = text.slice(0, -1)
        }
        this.endField(text)
        rows.push(this.row)
        this.row = []
        start = i + 1
      } else if (c === 13 && this.quoted) start = i + 1
    }
    if (start < chunk.length) this.field += chunk.slice(start)
    return rows.filter((r) => !(r.length === 1 && r[0] === ''))
  }

  /** The last row, when the input does not end with a line break. */
  end(): string[] | undefined {
    if (this.quotePending) this.inQuotes = false
    if (this.field === '' && this.row.length === 0) return undefined
    this.endField('')
    const row = this.row
    this.row = []
    return row
  }

  private endField(tail: string): void {
    this.row.push(this.field + tail)
    this.field = ''
    this.quoted = false
  }
}
