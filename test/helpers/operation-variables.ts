import {
  type GraphQLInputType,
  type GraphQLSchema,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  type OperationDefinitionNode,
  typeFromAST,
  visit,
} from 'graphql'
import type { Json } from './build.js'

/**
 * Variables for one of the web UI's operations, built from its variable definitions: urns of
 * the entity type the operation reads (from `urnsByType`, keyed by the urn's lower-cased entity
 * type), and DataHub's UI defaults for the rest (start 0, count 10, query "*").
 */
export function operationVariables(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  urnsByType: ReadonlyMap<string, string>,
): Record<string, Json> {
  const fieldOf = variableFields(operation)
  const urnFor = (variable: string): string => {
    const field = fieldOf.get(variable)
    const candidates = [
      field,
      field && ROOT_TYPES.get(field),
      ...entityTypesIn(operation.name?.value ?? '', urnsByType),
    ]
    for (const c of candidates) {
      const urn = c && urnsByType.get(c.toLowerCase())
      if (urn) return urn
    }
    return urnsByType.get('dataset') ?? ''
  }
  const variables: Record<string, Json> = {}
  for (const def of operation.variableDefinitions ?? []) {
    const name = def.variable.name.value
    const type = typeFromAST(schema, def.type as never) as GraphQLInputType | undefined
    if (!type) continue
    const required = isNonNullType(type) && !def.defaultValue
    if (!required && !DEFAULTS.has(name)) continue
    variables[name] = valueFor(name, type, () => urnFor(name), 0)
  }
  return variables
}

/** Root fields whose entity type is not their name (lower-cased). */
const ROOT_TYPES = new Map([['connection', 'datahubconnection']])

const DEFAULTS = new Map<string, Json>([
  ['start', 0],
  ['count', 10],
  ['query', '*'],
])

/**
 * Optional input fields the UI always sets (the entity a lineage search starts from, the type an
 * autocomplete suggests): DataHub fails without them as this catalog does.
 */
const SENT = new Set(['urn', 'type'])

function valueFor(name: string, type: GraphQLInputType, urn: () => string, depth: number): Json {
  if (isNonNullType(type)) return valueFor(name, type.ofType, urn, depth)
  if (isListType(type)) return [valueFor(name, type.ofType, urn, depth)]
  if (DEFAULTS.has(name)) return DEFAULTS.get(name)
  if (isEnumType(type)) return type.name === 'EntityType' ? 'DATASET' : type.getValues()[0]?.value
  if (isInputObjectType(type)) {
    const value: Record<string, Json> = {}
    if (depth > 4) return value
    for (const field of Object.values(type.getFields())) {
      const required = isNonNullType(field.type) && field.defaultValue === undefined
      if (required || DEFAULTS.has(field.name) || SENT.has(field.name))
        value[field.name] = valueFor(field.name, field.type, urn, depth + 1)
    }
    return value
  }
  if (isScalarType(type)) {
    if (type.name === 'Boolean') return false
    if (['Int', 'Long', 'Float'].includes(type.name)) return /count|limit|size/i.test(name) ? 10 : 0
    return /urn/i.test(name) ? urn() : /query/i.test(name) ? '*' : 'test'
  }
  return null
}

/** The field whose argument (or argument's input object) each variable feeds. */
function variableFields(operation: OperationDefinitionNode): Map<string, string> {
  const fields = new Map<string, string>()
  const stack: string[] = []
  visit(operation, {
    Field: { enter: (node) => void stack.push(node.name.value), leave: () => void stack.pop() },
    Variable(node) {
      const field = stack.at(-1)
      if (field && !fields.has(node.name.value)) fields.set(node.name.value, field)
    },
  })
  return fields
}

/** Entity types named in an operation's name (`getMLFeatureTable` names mlFeatureTable), longest first. */
function entityTypesIn(operationName: string, urnsByType: ReadonlyMap<string, string>): string[] {
  const name = operationName.toLowerCase()
  return [...urnsByType.keys()].filter((t) => name.includes(t)).sort((a, b) => b.length - a.length)
}
