/** Strings quoted lately: aspect names, entity names and actors repeat in every answer. */
const memo = new Map<string, string>()
/** Strings remembered at most (all are dropped past it): names are few, actors may not be. */
const MAX_STRINGS = 4096

/** `JSON.stringify(text)` for a string, remembered for the strings that come again. */
export function quoted(text: string): string {
  let json = memo.get(text)
  if (json === undefined) {
    json = JSON.stringify(text)
    if (memo.size >= MAX_STRINGS) memo.clear()
    memo.set(text, json)
  }
  return json
}
