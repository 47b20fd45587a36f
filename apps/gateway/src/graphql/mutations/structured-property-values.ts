import { parseUrn } from '@catalog/core'

/** The aspect of a structured property's definition. */
export const DEFINITION = 'propertyDefinition'

/** DataHub's `PropertyValueInput`. */
export interface PropertyValueInput {
  readonly stringValue?: string | null
  readonly numberValue?: number | null
}

/** A stored `PrimitivePropertyValue`: the union `{string}` or `{double}` (empty when neither was given). */
export type Primitive = { readonly string?: string; readonly double?: number }

/** The parts of a stored `StructuredPropertyDefinition` the value checks read. */
export interface PropertyDefinition {
  readonly valueType?: string
  readonly cardinality?: string
  readonly allowedValues?: ReadonlyArray<{ readonly value?: Primitive }>
  readonly typeQualifier?: { readonly allowedTypes?: readonly string[] }
  readonly immutable?: boolean
}

/** DataHub's `StructuredPropertyUtils.mapPropertyValueInput`: the string, else the number. */
export function toPrimitive(input: PropertyValueInput): Primitive {
  if (input.stringValue != null) return { string: input.stringValue }
  if (input.numberValue != null) return { double: input.numberValue }
  return {}
}

/** Java's `Double.toString` for the numbers a GraphQL `Float` carries. */
function javaDouble(n: number): string {
  const size = Math.abs(n)
  if (!Number.isFinite(n)) return String(n)
  if (size !== 0 && (size >= 1e7 || size < 1e-3)) {
    const [mantissa = '', exponent = ''] = n.toExponential().split('e')
    return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}E${Number(exponent)}`
  }
  return Number.isInteger(n) ? n.toFixed(1) : String(n)
}

/** How DataHub prints a value in its messages (a Pegasus union's DataMap: `{string=a}`). */
export function valueText(v: Primitive): string {
  if (v.string !== undefined) return `{string=${v.string}}`
  if (v.double !== undefined) return `{double=${javaDouble(v.double)}}`
  return '{}'
}

const listText = (values: readonly Primitive[]) => `[${values.map(valueText).join(', ')}]`
const same = (a: Primitive | undefined, b: Primitive) => a?.string === b.string && a?.double === b.double

/** DataHub's `getValueTypeId`: the id of the type URN without `datahub.`, lower-cased. */
export function valueTypeId(typeUrn: string): string {
  const id = typeUrn.split(':').slice(3).join(':')
  return (id.startsWith('datahub.') ? (id.split('.')[1] ?? '') : id).toLowerCase()
}

/** DataHub's `isValidDate`: `YYYY-MM-DD`, a real day, from 1000-01-01 to 9999-12-31. */
function isValidDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s)
  if (!m) return false
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const date = new Date(Date.UTC(y, mo - 1, d))
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d && y >= 1000
}

/** Java's `Double.parseDouble` accepts it. */
function isJavaDouble(s: string): boolean {
  const t = s.trim()
  if (t === '') return false
  return /^[+-]?(NaN|Infinity|((\d+\.?\d*|\.\d+)([eE][+-]?\d+)?)[fFdD]?)$/.test(t)
}

/** DataHub's `StructuredPropertiesValidator.validateType`: the message, or undefined when valid. */
function typeError(propertyUrn: string, definition: PropertyDefinition, v: Primitive): string | undefined {
  const prefix = `Property: ${propertyUrn}, value: ${valueText(v)}`
  const type = valueTypeId(definition.valueType ?? '')
  if (['string', 'rich_text', 'date', 'urn'].includes(type)) {
    if (v.string === undefined) return `${prefix} should be a string`
    if (type === 'date' && !isValidDate(v.string)) return `${prefix} should be a date with format YYYY-MM-DD`
    if (type === 'urn') {
      let entityType: string
      try {
        entityType = parseUrn(v.string).entityType
      } catch {
        return `${prefix} should be an urn`
      }
      const allowed = definition.typeQualifier?.allowedTypes
      if (allowed && !allowed.some((t) => valueTypeId(t) === entityType.toLowerCase())) {
        return `${prefix} is not of any supported urn types:[${allowed.join(', ')}]`
      }
    }
    return undefined
  }
  if (type === 'number') {
    if (v.double !== undefined) return undefined
    return v.string !== undefined && isJavaDouble(v.string) ? undefined : `${prefix} should be a number`
  }
  return `Validation support for type ${definition.valueType} is not yet implemented.`
}

/**
 * DataHub's `StructuredPropertiesValidator` for one assignment: cardinality (SINGLE unless the
 * definition says MULTIPLE), then each value's type and membership of `allowedValues`. Returns
 * DataHub's message of the first failure, or undefined when the values are valid.
 */
export function assignmentError(
  propertyUrn: string,
  definition: PropertyDefinition,
  values: readonly Primitive[],
): string | undefined {
  if ((definition.cardinality ?? 'SINGLE') === 'SINGLE' && values.length > 1) {
    return `Property: ${propertyUrn} has cardinality 1, but multiple values were assigned: ${listText(values)}`
  }
  for (const v of values) {
    const error = typeError(propertyUrn, definition, v)
    if (error) return error
    const allowed = definition.allowedValues
    if (allowed && !allowed.some((a) => same(a.value, v))) {
      const defined = allowed.map((a) => a.value ?? {})
      return `Property: ${propertyUrn}, value: ${valueText(v)} should be one of ${listText(defined)}`
    }
  }
  return undefined
}
