/**
 * Regexes of metadata tests (`regex_match`): compiled for RE2, which matches in linear time,
 * after a check that refuses patterns a backtracking engine would run away on.
 */
import { RE2JS } from 're2js'
import { ValidationError } from '../errors.js'

/** Longest accepted pattern. */
export const MAX_REGEX_CHARS = 256

/**
 * Compiles a `regex_match` pattern for the linear-time RE2 engine (no backtracking, so no
 * input can make a match run away). Refused: patterns longer than the limit, RE2 syntax
 * errors (lookaround and backreferences are not RE2), and patterns a backtracking engine
 * would run away on (a repeated group holding a quantifier, or an ambiguous alternation),
 * so a definition stays safe wherever it is evaluated.
 */
export function compileTestRegex(pattern: string, where = ''): RE2JS {
  if (pattern.length > MAX_REGEX_CHARS) {
    fail(where, `the regex is longer than ${MAX_REGEX_CHARS} characters`)
  }
  const problem = backtrackingHazard(pattern)
  if (problem) fail(where, `the regex ${JSON.stringify(pattern)} could run away: ${problem}`)
  try {
    return RE2JS.compile(pattern)
  } catch (err) {
    fail(where, `the regex ${JSON.stringify(pattern)} is not valid: ${(err as Error).message}`)
  }
}

/**
 * Why a backtracking engine could take exponential time on the pattern, or undefined: a
 * repeated group (`*`, `+`, `{n,}`, `{n,m}` with m > 1) that contains a quantifier, or an
 * alternation whose branches are not plain literals with distinct first characters.
 */
function backtrackingHazard(pattern: string): string | undefined {
  interface Frame {
    start: number
    quantified: boolean
    alternation: boolean
  }
  const stack: Frame[] = [{ start: 0, quantified: false, alternation: false }]
  let i = 0
  while (i < pattern.length) {
    const c = pattern[i] as string
    const top = stack[stack.length - 1] as Frame
    if (c === '\\') {
      i += 2
    } else if (c === '[') {
      i = classEnd(pattern, i)
    } else if (c === '(') {
      let body = i + 1
      if (pattern[body] === '?') {
        const named = /^\?(?:P?<[A-Za-z_][A-Za-z0-9_]*>|[a-zA-Z]*:|[=!]|<[=!])/.exec(pattern.slice(body))
        body += named ? named[0].length : 1
      }
      stack.push({ start: body, quantified: false, alternation: false })
      i = body
    } else if (c === ')') {
      if (stack.length === 1) return undefined
      const frame = stack.pop() as Frame
      const parent = stack[stack.length - 1] as Frame
      const q = quantifierAt(pattern, i + 1)
      if (q.repeats) {
        if (frame.quantified) return 'a repeated group contains a quantifier (nested quantifiers)'
        if (frame.alternation && !literalBranches(pattern.slice(frame.start, i))) {
          return 'a repeated group contains an alternation whose branches can match the same text'
        }
      }
      parent.quantified ||= frame.quantified || q.length > 0
      i += 1 + q.length
    } else if (c === '|') {
      top.alternation = true
      i++
    } else {
      const q = quantifierAt(pattern, i)
      if (q.length > 0) {
        top.quantified = true
        i += q.length
      } else {
        i++
      }
    }
  }
  return undefined
}

/** The quantifier starting at `i` (with a lazy `?`), its length and whether it repeats. */
function quantifierAt(pattern: string, i: number): { length: number; repeats: boolean } {
  const c = pattern[i]
  let length = 0
  let repeats = false
  if (c === '*' || c === '+') {
    length = 1
    repeats = true
  } else if (c === '?') {
    length = 1
  } else if (c === '{') {
    const m = /^\{(\d*)(,?)(\d*)\}/.exec(pattern.slice(i))
    if (m) {
      length = m[0].length
      const max = m[2] === '' ? Number(m[1]) : m[3] === '' ? Number.POSITIVE_INFINITY : Number(m[3])
      repeats = max > 1
    }
  }
  if (length > 0 && pattern[i + length] === '?') length++
  return { length, repeats }
}

function classEnd(pattern: string, open: number): number {
  let i = open + 1
  if (pattern[i] === '^') i++
  if (pattern[i] === ']') i++
  while (i < pattern.length && pattern[i] !== ']') i += pattern[i] === '\\' ? 2 : 1
  return i + 1
}

function literalBranches(body: string): boolean {
  const branches = body.split('|')
  if (branches.some((b) => b.length === 0 || /[\\^$.|?*+()[\]{}]/.test(b))) return false
  return new Set(branches.map((b) => b[0])).size === branches.length
}

function fail(where: string, message: string): never {
  throw new ValidationError(`${where || '/'}: ${message}`)
}
