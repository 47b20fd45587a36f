import {
  closeSync,
  createReadStream,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  statSync,
} from 'node:fs'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { InvalidInputError } from '@catalog/core'
import { CsvReader } from './import-csv.js'

/** One input record: parsed JSON, or the reason it could not be read (then it counts as failed). */
export type InputRecord = { readonly value: Record<string, unknown> } | { readonly error: string }

/** An input file of `catalog import`. */
export interface ImportInput {
  readonly path: string
  /** Size and modification time: progress saved for another version of the file is not reused. */
  readonly fingerprint: string
  readonly bytes: number
}

/** The columns of DataHub's `metadata_aspect_v2` (`createdfor` is optional). */
export const ASPECT_ROW_COLUMNS = [
  'urn',
  'aspect',
  'version',
  'metadata',
  'systemmetadata',
  'createdon',
  'createdby',
]

const EXTENSIONS = /\.(json|jsonl|ndjson|csv)$/i

/** The files of the given paths: a file itself, or every .json/.jsonl/.ndjson/.csv file under a directory, sorted. */
export function importInputs(paths: readonly string[]): ImportInput[] {
  return paths.flatMap((p) => {
    const path = resolve(p)
    if (!existsSync(path)) throw new InvalidInputError(`${p}: no such file or directory`)
    const files = statSync(path).isDirectory()
      ? readdirSync(path, { recursive: true, encoding: 'utf8' })
          .filter((f) => EXTENSIONS.test(f))
          .sort()
          .map((f) => join(path, f))
      : [path]
    return files.map((file) => {
      const st = statSync(file)
      return { path: file, fingerprint: `${st.size}:${Math.round(st.mtimeMs)}`, bytes: st.size }
    })
  })
}

/**
 * The records of a file, in order, as (record, bytes read so far). A JSON array (DataHub's
 * file sink) or single JSON object is parsed whole; JSON lines and CSV stream. Records before
 * `skip` are passed over unparsed where the format allows (JSON lines), and yielded as `skipped`.
 * `read.bytes` follows how far into the file the reader is (for a progress bar).
 */
export async function* readInput(
  input: ImportInput,
  skip: number,
  read: { bytes: number } = { bytes: 0 },
): AsyncGenerator<InputRecord | 'skipped', void, undefined> {
  if (/\.csv$/i.test(input.path)) {
    yield* csvRecords(input.path, skip, read)
    return
  }
  const head = readHead(input.path)
  if (head.startsWith('[')) {
    const list = parseArray(input.path)
    for (let i = 0; i < list.length; i++) {
      read.bytes = Math.round((input.bytes * (i + 1)) / list.length)
      yield i < skip ? 'skipped' : asRecord(list[i])
    }
    return
  }
  let index = 0
  let pretty = ''
  for await (const line of createInterface({ input: createReadStream(input.path), crlfDelay: Infinity })) {
    read.bytes += line.length + 1
    if (pretty !== '' || (index === 0 && line.trim() !== '' && !isJsonLine(line))) {
      pretty += `${line}\n` // one pretty-printed object, not JSON lines
      continue
    }
    if (line.trim() === '') continue
    yield index++ < skip ? 'skipped' : parseLine(line)
  }
  if (pretty !== '') yield skip > 0 ? 'skipped' : parseLine(pretty)
}

function readHead(path: string): string {
  const fd = openSync(path, 'r')
  try {
    const buf = Buffer.alloc(4096)
    return buf
      .subarray(0, readSync(fd, buf, 0, buf.length, 0))
      .toString('utf8')
      .trimStart()
  } finally {
    closeSync(fd)
  }
}

function isJsonLine(line: string): boolean {
  try {
    JSON.parse(line)
    return true
  } catch {
    return false
  }
}

function parseArray(path: string): unknown[] {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as unknown[]
  } catch (err) {
    throw new InvalidInputError(`${path} is not JSON: ${(err as Error).message}`)
  }
}

function parseLine(line: string): InputRecord {
  try {
    return asRecord(JSON.parse(line))
  } catch (err) {
    return { error: `not JSON: ${(err as Error).message}` }
  }
}

function asRecord(value: unknown): InputRecord {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { error: 'not a JSON object' }
  return { value: value as Record<string, unknown> }
}

async function* csvRecords(
  path: string,
  skip: number,
  read: { bytes: number },
): AsyncGenerator<InputRecord | 'skipped'> {
  const reader = new CsvReader()
  let header: string[] | undefined
  let index = 0
  const toRecord = (row: string[]): InputRecord | 'skipped' | undefined => {
    if (!header) {
      header = row.map((h) => h.trim().toLowerCase())
      const missing = ASPECT_ROW_COLUMNS.filter((c) => !header?.includes(c))
      if (missing.length > 0)
        throw new InvalidInputError(
          `${path}: not a metadata_aspect_v2 export (no ${missing.join(', ')} column)`,
        )
      return undefined
    }
    if (index++ < skip) return 'skipped'
    if (row.length !== header.length)
      return { error: `a row of ${row.length} fields under a header of ${header.length}` }
    const value: Record<string, unknown> = {}
    header.forEach((h, i) => {
      value[h] = row[i]
    })
    return { value }
  }
  for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
    read.bytes += (chunk as string).length
    for (const row of reader.push(chunk as string)) {
      const r = toRecord(row)
      if (r) yield r
    }
  }
  const last = reader.end()
  if (last) {
    const r = toRecord(last)
    if (r) yield r
  }
}
