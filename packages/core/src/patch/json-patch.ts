import { ValidationError } from '../errors.js'
import { formatPointer, parsePointer } from './json-pointer.js'
import { cloneTree, isObj, type Tree, toTree, treeEquals } from './tree.js'
import type { PatchOperation } from './types.js'

/**
 * Applies RFC 6902 operations to a tree, in order, and returns the new root (the input is
 * modified), with DataHub's leniency: missing parent objects are created first, and removing a
 * missing member does nothing. A failing operation throws {@link ValidationError} naming the operation and its path;
 * the caller discards the half-patched tree, so a patch applies whole or not at all.
 */
export function applyOperations(root: Tree, operations: readonly PatchOperation[]): Tree {
  let doc = root
  operations.forEach((op, i) => {
    try {
      doc = applyOne(doc, op)
    } catch (err) {
      if (!(err instanceof PatchFailure)) throw err
      throw new ValidationError(`PATCH operation #${i} (${op.op} ${op.path}) failed: ${err.message}`)
    }
  })
  return doc
}

class PatchFailure extends Error {}

function applyOne(doc: Tree, op: PatchOperation): Tree {
  const path = parsePointer(op.path)
  vivify(doc, path.slice(0, -1))
  switch (op.op) {
    case 'add':
      return add(doc, path, toTree(op.value))
    case 'remove':
      if (!has(doc, path)) return doc
      return remove(doc, path).doc
    case 'replace': {
      get(doc, path)
      return add(remove(doc, path).doc, path, toTree(op.value), true)
    }
    case 'move': {
      const from = parsePointer(op.from as string)
      if (isPrefix(from, path) && from.length < path.length) {
        throw new PatchFailure(`cannot move ${op.from} into its own child`)
      }
      const taken = remove(doc, from)
      return add(taken.doc, path, taken.value)
    }
    case 'copy':
      return add(doc, path, cloneTree(get(doc, parsePointer(op.from as string))))
    case 'test': {
      if (!treeEquals(get(doc, path), toTree(op.value))) throw new PatchFailure('value differs')
      return doc
    }
  }
}

/**
 * DataHub creates the missing objects on an operation's path before it applies the operation, so
 * `add /owners/<urn>/<type>` works when there is no `<urn>` yet, and removing what is not there
 * is a no-op. Only objects are created: a path through an array or a scalar still fails.
 */
function vivify(doc: Tree, parents: readonly string[]): void {
  let node: Tree = doc
  for (const token of parents) {
    if (!isObj(node)) return
    let next = node.get(token)
    if (next === undefined) {
      next = new Map()
      node.set(token, next)
    }
    node = next
  }
}

function has(doc: Tree, path: readonly string[]): boolean {
  try {
    get(doc, path)
    return true
  } catch (err) {
    if (err instanceof PatchFailure) return false
    throw err
  }
}

function isPrefix(a: readonly string[], b: readonly string[]): boolean {
  return a.length <= b.length && a.every((t, i) => t === b[i])
}

function get(doc: Tree, path: readonly string[]): Tree {
  let node: Tree = doc
  for (let i = 0; i < path.length; i++) {
    const token = path[i] as string
    if (isObj(node)) {
      const next = node.get(token)
      if (next === undefined) throw missing(path, i)
      node = next
    } else if (Array.isArray(node)) {
      const index = arrayIndex(token, node.length - 1, path, i)
      node = node[index] as Tree
    } else {
      throw missing(path, i)
    }
  }
  return node
}

function add(doc: Tree, path: readonly string[], value: Tree, replacing = false): Tree {
  if (path.length === 0) return value
  const parent = get(doc, path.slice(0, -1))
  const token = path[path.length - 1] as string
  if (isObj(parent)) {
    parent.set(token, value)
  } else if (Array.isArray(parent)) {
    if (token === '-' && !replacing) parent.push(value)
    else parent.splice(arrayIndex(token, parent.length, path, path.length - 1), 0, value)
  } else {
    throw new PatchFailure(`${formatPointer(path.slice(0, -1))} is not an object or array`)
  }
  return doc
}

function remove(doc: Tree, path: readonly string[]): { doc: Tree; value: Tree } {
  if (path.length === 0) return { doc: null, value: doc }
  const parent = get(doc, path.slice(0, -1))
  const token = path[path.length - 1] as string
  if (isObj(parent)) {
    const value = parent.get(token)
    if (value === undefined) throw missing(path, path.length - 1)
    parent.delete(token)
    return { doc, value }
  }
  if (Array.isArray(parent)) {
    const index = arrayIndex(token, parent.length - 1, path, path.length - 1)
    const [value] = parent.splice(index, 1)
    return { doc, value: value as Tree }
  }
  throw missing(path, path.length - 1)
}

function arrayIndex(token: string, max: number, path: readonly string[], at: number): number {
  if (!/^(0|[1-9][0-9]*)$/.test(token)) {
    throw new PatchFailure(`"${token}" at ${formatPointer(path.slice(0, at + 1))} is not an array index`)
  }
  const index = Number(token)
  if (index > max)
    throw new PatchFailure(`array index ${token} at ${formatPointer(path.slice(0, at))} is out of bounds`)
  return index
}

function missing(path: readonly string[], at: number): PatchFailure {
  return new PatchFailure(`no value at ${formatPointer(path.slice(0, at + 1))}`)
}
