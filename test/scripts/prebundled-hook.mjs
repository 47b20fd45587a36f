// The module hook of prebundled-deps.mjs: an import of a bundled path resolves to its bundle.
let urls = {}

export function initialize(data) {
  urls = data
}

export function resolve(specifier, context, next) {
  const url = urls[specifier]
  return url ? { url, format: 'module', shortCircuit: true } : next(specifier, context)
}
