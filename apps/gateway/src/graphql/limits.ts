import {
  type ASTVisitor,
  type FragmentDefinitionNode,
  GraphQLError,
  Kind,
  type SelectionSetNode,
  type ValidationContext,
} from 'graphql'

/** Limits that keep one GraphQL request from exhausting the server. */
export const GRAPHQL_LIMITS = {
  /** Deepest field nesting allowed in an operation (fragments expanded). */
  maxDepth: 20,
  /** Most field selections in an operation, counting every fragment where it is spread. */
  maxFields: 2000,
  /** Most lexical tokens in a query document (checked while parsing). */
  maxTokens: 20_000,
  /** Most URNs one `entities(urns:)` call may ask for. */
  maxEntities: 500,
} as const

interface Cost {
  readonly depth: number
  readonly fields: number
}

/**
 * A validation rule bounding each operation's depth and field count (DataHub bounds both,
 * with graphql-java's MaxQueryDepth and MaxQueryComplexity). Fragments are measured once and
 * counted wherever they are spread, so a fragment "bomb" is measured at its expanded size
 * without being expanded. Cycles are left to the standard NoFragmentCycles rule.
 */
export function queryLimitsRule(limits: { maxDepth: number; maxFields: number } = GRAPHQL_LIMITS) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>()
    for (const def of context.getDocument().definitions) {
      if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def)
    }
    const measured = new Map<string, Cost>()
    const visiting = new Set<string>()

    const measure = (set: SelectionSetNode | undefined): Cost => {
      let depth = 0
      let fields = 0
      for (const selection of set?.selections ?? []) {
        let cost: Cost
        if (selection.kind === Kind.FIELD) {
          const inner = measure(selection.selectionSet)
          cost = { depth: inner.depth + 1, fields: inner.fields + 1 }
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          cost = measure(selection.selectionSet)
        } else {
          cost = fragment(selection.name.value)
        }
        depth = Math.max(depth, cost.depth)
        // Saturate: a huge count only has to be known to be over the limit.
        fields = Math.min(fields + cost.fields, Number.MAX_SAFE_INTEGER)
      }
      return { depth, fields }
    }

    const fragment = (name: string): Cost => {
      const known = measured.get(name)
      if (known) return known
      const def = fragments.get(name)
      if (!def || visiting.has(name)) return { depth: 0, fields: 0 }
      visiting.add(name)
      const cost = measure(def.selectionSet)
      visiting.delete(name)
      measured.set(name, cost)
      return cost
    }

    return {
      OperationDefinition(node) {
        const cost = measure(node.selectionSet)
        const name = node.name?.value ?? 'anonymous'
        if (cost.depth > limits.maxDepth) {
          context.reportError(
            new GraphQLError(
              `Query depth ${cost.depth} of operation '${name}' exceeds the limit of ${limits.maxDepth}`,
              { nodes: node },
            ),
          )
        }
        if (cost.fields > limits.maxFields) {
          context.reportError(
            new GraphQLError(
              `Query complexity ${cost.fields} (field selections) of operation '${name}' exceeds the limit of ${limits.maxFields}`,
              { nodes: node },
            ),
          )
        }
      },
    }
  }
}
