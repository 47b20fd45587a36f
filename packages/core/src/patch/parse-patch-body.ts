import { InvalidInputError } from '../errors.js'
import { parsePointer } from './json-pointer.js'
import type { PatchOperation, PatchOpName, PatchRequest } from './types.js'

const OPS: ReadonlySet<string> = new Set<PatchOpName>(['add', 'remove', 'replace', 'move', 'copy', 'test'])
const BODY_FIELDS: ReadonlySet<string> = new Set(['patch', 'arrayPrimaryKeys', 'forceGenericPatch'])

/**
 * Parses the body of a PATCH proposal's aspect: a JSON Patch array, or
 * `{"patch": [...], "arrayPrimaryKeys"?: {field: [keyField, ...]}, "forceGenericPatch"?: boolean}`.
 * A string is parsed as JSON first (the MCP carries `aspect.value` as JSON text). Operation names
 * are case-insensitive, as in DataHub. Throws {@link InvalidInputError} naming what is wrong.
 */
export function parsePatchBody(raw: unknown): PatchRequest {
  const body = typeof raw === 'string' ? parseJson(raw) : raw
  if (Array.isArray(body)) return { operations: parseOperations(body), forceGenericPatch: false }
  if (!isPlainObject(body)) {
    throw new InvalidInputError(
      `PATCH body must be a JSON Patch array or an object with a "patch" array, got ${describe(body)}`,
    )
  }
  const unknown = Object.keys(body).filter((k) => !BODY_FIELDS.has(k))
  if (unknown.length > 0) {
    throw new InvalidInputError(`PATCH body has unknown field(s) ${unknown.map((k) => `"${k}"`).join(', ')}`)
  }
  if (!Array.isArray(body.patch)) {
    throw new InvalidInputError(`PATCH body field "patch" must be an array, got ${describe(body.patch)}`)
  }
  const force = body.forceGenericPatch ?? false
  if (typeof force !== 'boolean') {
    throw new InvalidInputError(
      `PATCH body field "forceGenericPatch" must be a boolean, got ${describe(force)}`,
    )
  }
  const request: PatchRequest = { operations: parseOperations(body.patch), forceGenericPatch: force }
  if (body.arrayPrimaryKeys !== undefined && body.arrayPrimaryKeys !== null) {
    request.arrayPrimaryKeys = parseArrayPrimaryKeys(body.arrayPrimaryKeys)
  }
  return request
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch (err) {
    throw new InvalidInputError(`PATCH body is not valid JSON: ${(err as Error).message}`, { cause: err })
  }
}

function parseOperations(list: unknown[]): PatchOperation[] {
  return list.map((item, i) => parseOperation(item, i))
}

function parseOperation(item: unknown, i: number): PatchOperation {
  const where = `PATCH operation #${i}`
  if (!isPlainObject(item)) throw new InvalidInputError(`${where} must be an object, got ${describe(item)}`)
  if (typeof item.op !== 'string') throw new InvalidInputError(`${where} needs an "op" string`)
  const op = item.op.toLowerCase()
  if (!OPS.has(op)) {
    throw new InvalidInputError(
      `${where} has unsupported op "${item.op}" (expected add, remove, replace, move, copy or test)`,
    )
  }
  if (typeof item.path !== 'string') throw new InvalidInputError(`${where} (${op}) needs a "path" string`)
  parsePointerIn(item.path, where)
  const parsed: PatchOperation = { op: op as PatchOpName, path: item.path }
  if (op === 'move' || op === 'copy') {
    if (typeof item.from !== 'string') throw new InvalidInputError(`${where} (${op}) needs a "from" string`)
    parsePointerIn(item.from, where)
    parsed.from = item.from
  }
  if (op === 'add' || op === 'replace' || op === 'test') {
    if (!('value' in item)) throw new InvalidInputError(`${where} (${op} ${item.path}) needs a "value"`)
    parsed.value = item.value
  }
  return parsed
}

function parsePointerIn(pointer: string, where: string): void {
  try {
    parsePointer(pointer)
  } catch (err) {
    throw new InvalidInputError(`${where}: ${(err as Error).message}`, { cause: err })
  }
}

function parseArrayPrimaryKeys(raw: unknown): Record<string, string[]> {
  if (!isPlainObject(raw)) {
    throw new InvalidInputError(`PATCH body field "arrayPrimaryKeys" must be an object, got ${describe(raw)}`)
  }
  const out: Record<string, string[]> = {}
  for (const [field, keys] of Object.entries(raw)) {
    if (!Array.isArray(keys) || keys.some((k) => typeof k !== 'string' || k === '')) {
      throw new InvalidInputError(`arrayPrimaryKeys["${field}"] must be an array of non-empty field names`)
    }
    Object.defineProperty(out, field, {
      value: [...keys],
      enumerable: true,
      writable: true,
      configurable: true,
    })
  }
  return out
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function describe(v: unknown): string {
  if (v === undefined) return 'nothing'
  if (v === null) return 'null'
  return Array.isArray(v) ? 'an array' : `a ${typeof v}`
}
