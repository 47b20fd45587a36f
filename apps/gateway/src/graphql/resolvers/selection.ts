import {
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLResolveInfo,
  Kind,
  type SelectionSetNode,
} from 'graphql'

/** Fields of an entity answered from its reference alone, without loading it. */
const FROM_REFERENCE = new Set(['urn', 'type', '__typename'])

/**
 * Whether the query selects, below the field being resolved and along `path` (`searchResults`,
 * `entity`), any field that needs the entity loaded: anything but `urn`, `type` and `__typename`,
 * through inline fragments and fragment spreads.
 */
export function selectsLoadedFields(info: GraphQLResolveInfo, path: readonly string[]): boolean {
  let sets: SelectionSetNode[] = info.fieldNodes.flatMap((n) => (n.selectionSet ? [n.selectionSet] : []))
  for (const name of path) {
    sets = fieldsOf(sets, info.fragments)
      .filter((f) => f.name.value === name)
      .flatMap((f) => (f.selectionSet ? [f.selectionSet] : []))
    if (sets.length === 0) return false
  }
  return fieldsOf(sets, info.fragments).some((f) => !FROM_REFERENCE.has(f.name.value))
}

/** The fields of selection sets, fragments expanded (each fragment once). */
function fieldsOf(
  sets: readonly SelectionSetNode[],
  fragments: Readonly<Record<string, FragmentDefinitionNode>>,
): FieldNode[] {
  const out: FieldNode[] = []
  const seen = new Set<string>()
  const walk = (set: SelectionSetNode) => {
    for (const s of set.selections) {
      if (s.kind === Kind.FIELD) out.push(s)
      else if (s.kind === Kind.INLINE_FRAGMENT) walk(s.selectionSet)
      else if (!seen.has(s.name.value)) {
        seen.add(s.name.value)
        const fragment = fragments[s.name.value]
        if (fragment) walk(fragment.selectionSet)
      }
    }
  }
  for (const set of sets) walk(set)
  return out
}
