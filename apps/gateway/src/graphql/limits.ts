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
  /** Deepest field nesting allowed in an operation, fragments expanded (DataHub's default, GRAPHQL_QUERY_DEPTH_LIMIT). */
  maxDepth: 50,
  /**
   * Most field selections written in an operation, each fragment counted once however often it
   * is spread (DataHub's default, GRAPHQL_QUERY_COMPLEXITY_LIMIT).
   */
  maxFields: 2000,
  /**
   * Most field selections once every fragment spread is expanded: DataHub's own `getDataset`
   * expands to about 10,300; a fragment "bomb" doubling at each level goes far beyond.
   */
  maxExpandedFields: 50_000,
  /** Most lexical tokens in a query document (checked while parsing). */
  maxTokens: 20_000,
  /** Most URNs `entities(urns:)` may ask for in one request, over all its aliases. */
  maxEntities: 500,
} as const

interface Cost {
  readonly depth: number
  /** Field selections with every spread expanded (saturating). */
  readonly expanded: number
  /** Field selections written in this selection set itself, spreads not followed. */
  readonly own: number
  /** Fragments spread from this selection set, directly. */
  readonly spreads: ReadonlySet<string>
}

type Limits = Pick<typeof GRAPHQL_LIMITS, 'maxDepth' | 'maxFields' | 'maxExpandedFields'>

/**
 * A validation rule bounding each operation's depth and size (DataHub bounds both, with
 * graphql-java's MaxQueryDepth and MaxQueryComplexity). The size counts what was written: the
 * operation's fields plus those of every fragment it reaches, each fragment once. The expanded
 * size is bounded too, measured without expanding (each fragment measured once), so a fragment
 * bomb is refused at once. Cycles are left to the standard NoFragmentCycles rule.
 */
export function queryLimitsRule(limits: Limits = GRAPHQL_LIMITS) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>()
    for (const def of context.getDocument().definitions) {
      if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def)
    }
    const measured = new Map<string, Cost>()
    const visiting = new Set<string>()
    const none: Cost = { depth: 0, expanded: 0, own: 0, spreads: new Set() }

    const measure = (set: SelectionSetNode | undefined): Cost => {
      let depth = 0
      let expanded = 0
      let own = 0
      const spreads = new Set<string>()
      for (const selection of set?.selections ?? []) {
        let inner: Cost
        if (selection.kind === Kind.FIELD) {
          inner = measure(selection.selectionSet)
          depth = Math.max(depth, inner.depth + 1)
          expanded += inner.expanded + 1
          own += inner.own + 1
        } else {
          if (selection.kind === Kind.INLINE_FRAGMENT) {
            inner = measure(selection.selectionSet)
            own += inner.own
          } else {
            spreads.add(selection.name.value)
            inner = fragment(selection.name.value)
          }
          depth = Math.max(depth, inner.depth)
          expanded += inner.expanded
        }
        for (const name of inner.spreads) spreads.add(name)
        // Saturate: a huge count only has to be known to be over the limit.
        expanded = Math.min(expanded, Number.MAX_SAFE_INTEGER)
      }
      return { depth, expanded, own, spreads }
    }

    const fragment = (name: string): Cost => {
      const known = measured.get(name)
      if (known) return { ...known, own: 0, spreads: new Set() }
      const def = fragments.get(name)
      if (!def || visiting.has(name)) return none
      visiting.add(name)
      const cost = measure(def.selectionSet)
      visiting.delete(name)
      measured.set(name, cost)
      return { ...cost, own: 0, spreads: new Set() }
    }

    /** Fields written in the operation plus those of each fragment it reaches, once each. */
    const written = (cost: Cost): number => {
      const reached = new Set<string>()
      const queue = [...cost.spreads]
      let total = cost.own
      while (queue.length > 0) {
        const name = queue.pop() as string
        if (reached.has(name)) continue
        reached.add(name)
        const def = measured.get(name)
        if (!def) continue
        total += def.own
        queue.push(...def.spreads)
      }
      return total
    }

    return {
      OperationDefinition(node) {
        const cost = measure(node.selectionSet)
        const name = node.name?.value ?? 'anonymous'
        const report = (message: string) => context.reportError(new GraphQLError(message, { nodes: node }))
        if (cost.depth > limits.maxDepth) {
          report(`Query depth ${cost.depth} of operation '${name}' exceeds the limit of ${limits.maxDepth}`)
        }
        const fields = written(cost)
        if (fields > limits.maxFields) {
          report(
            `Query complexity ${fields} (field selections) of operation '${name}' exceeds the limit of ${limits.maxFields}`,
          )
        } else if (cost.expanded > limits.maxExpandedFields) {
          report(
            `Query size ${cost.expanded} (field selections, fragments expanded) of operation '${name}' exceeds the limit of ${limits.maxExpandedFields}`,
          )
        }
      },
    }
  }
}
