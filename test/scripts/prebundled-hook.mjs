// The module hook of prebundled-deps.mjs: an import of a bundled path resolves to its bundle,
// and a bundle's files load as the plain ES modules they are (no TypeScript hook reads them).
import { readFile } from 'node:fs/promises'

let urls = {}
let bundled = []

export function initialize(data) {
  urls = data.urls
  bundled = data.bundled
}

export function resolve(specifier, context, next) {
  const url = urls[specifier]
  return url ? { url, format: 'module', shortCircuit: true } : next(specifier, context)
}

export async function load(url, context, next) {
  if (!bundled.some((dir) => url.startsWith(dir))) return next(url, context)
  return { format: 'module', source: await readFile(new URL(url)), shortCircuit: true }
}
