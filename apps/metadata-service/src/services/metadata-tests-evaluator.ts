import { compileTestRegex, type TestDefinition, type TestPredicate, type TestRule } from '@catalog/core'

type Regex = ReturnType<typeof compileTestRegex>

/** The entity a test looks at: its URN, type and latest aspect values by name. */
export interface TestSubject {
  readonly urn: string
  readonly entityType: string
  readonly aspects: ReadonlyMap<string, unknown>
}

/** What a test says about an entity: it does not apply, or it passes or fails. */
export type TestVerdict = 'NOT_APPLICABLE' | 'SUCCESS' | 'FAILURE'

/**
 * Evaluates a parsed test definition against an entity. A property resolves to every value at
 * its path (arrays are walked element by element, missing members give nothing); each
 * operator holds when SOME resolved value satisfies it, except `exists`, which needs a
 * non-empty value. Regexes run on RE2 (linear time).
 */
export class TestEvaluator {
  private readonly regexes = new Map<string, Regex>()

  /** NOT_APPLICABLE when the entity type is not in `on.types` or `on.conditions` fails. */
  verdict(definition: TestDefinition, subject: TestSubject): TestVerdict {
    if (!definition.on.types.includes(subject.entityType)) return 'NOT_APPLICABLE'
    if (definition.on.conditions && !this.holds(definition.on.conditions, subject)) return 'NOT_APPLICABLE'
    return this.holds(definition.rules, subject) ? 'SUCCESS' : 'FAILURE'
  }

  /** Whether a rule holds for the entity. */
  holds(rule: TestRule, subject: TestSubject): boolean {
    if ('and' in rule) return rule.and.every((r) => this.holds(r, subject))
    if ('or' in rule) return rule.or.some((r) => this.holds(r, subject))
    if ('not' in rule) return !this.holds(rule.not, subject)
    return this.predicate(rule, resolve(rule.property, subject))
  }

  private predicate(p: TestPredicate, found: readonly unknown[]): boolean {
    switch (p.operator) {
      case 'exists':
        return found.some(present)
      case 'equals':
        return found.some((v) => isScalar(v) && p.values.includes(String(v)))
      case 'contains_any':
        return found.some((v) => typeof v === 'string' && p.values.some((s) => v.includes(s)))
      case 'starts_with':
        return found.some((v) => typeof v === 'string' && p.values.some((s) => v.startsWith(s)))
      case 'regex_match':
        return found.some(
          (v) => typeof v === 'string' && p.values.some((s) => this.regex(s).matcher(v).find()),
        )
      case 'greater_than':
      case 'less_than': {
        const limit = Number(p.values[0])
        return found.some((v) => {
          const n = numberOf(v)
          return n !== undefined && (p.operator === 'greater_than' ? n > limit : n < limit)
        })
      }
      case 'is_true':
        return found.some((v) => v === true || v === 'true')
      case 'is_false':
        return found.some((v) => v === false || v === 'false')
    }
  }

  private regex(pattern: string): Regex {
    let compiled = this.regexes.get(pattern)
    if (!compiled) {
      compiled = compileTestRegex(pattern)
      this.regexes.set(pattern, compiled)
    }
    return compiled
  }
}

/** Every value at `property`: `urn`, `entityType`, or `aspect.field.field...`. */
export function resolve(property: string, subject: TestSubject): unknown[] {
  if (property === 'urn') return [subject.urn]
  if (property === 'entityType') return [subject.entityType]
  const [aspect, ...path] = property.split('.')
  let current: unknown[] = flatten([subject.aspects.get(aspect as string)])
  for (const segment of path) {
    const next: unknown[] = []
    for (const v of current) {
      if (v !== null && typeof v === 'object' && !Array.isArray(v) && segment in v) {
        next.push((v as Record<string, unknown>)[segment])
      }
    }
    current = flatten(next)
  }
  return current
}

function flatten(values: readonly unknown[]): unknown[] {
  const out: unknown[] = []
  for (const v of values) {
    if (Array.isArray(v)) out.push(...flatten(v))
    else if (v !== undefined && v !== null) out.push(v)
  }
  return out
}

/** Not blank: a non-whitespace string, any number or boolean, a non-empty object. */
function present(v: unknown): boolean {
  if (typeof v === 'string') return v.trim().length > 0
  if (typeof v === 'object' && v !== null) return Object.keys(v).length > 0
  return true
}

function isScalar(v: unknown): v is string | number | boolean {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'
}

function numberOf(v: unknown): number | undefined {
  if (typeof v === 'number') return v
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v)
  return undefined
}
