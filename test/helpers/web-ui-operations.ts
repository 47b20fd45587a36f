import { readdirSync, readFileSync } from 'node:fs'
import {
  type DefinitionNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  Kind,
  type OperationDefinitionNode,
  parse,
  visit,
} from 'graphql'

/** DataHub's web-UI operation files, vendored unchanged (see test/fixtures/datahub-web-graphql/NOTICE.md). */

const FIXTURES = new URL('../fixtures/datahub-web-graphql/', import.meta.url)

export interface WebUiOperation {
  /** `file:operation`. */
  readonly name: string
  readonly node: OperationDefinitionNode
}

export interface WebUiOperations {
  readonly files: readonly string[]
  readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>
  readonly operations: readonly WebUiOperation[]
  /** The operation with every fragment it reaches, as the UI's client sends it. */
  documentOf(operation: OperationDefinitionNode): DocumentNode
}

/** Every operation and fragment of the vendored files. */
export function loadWebUiOperations(): WebUiOperations {
  const files = readdirSync(FIXTURES)
    .filter((f) => f.endsWith('.graphql'))
    .sort()
  const fragments = new Map<string, FragmentDefinitionNode>()
  const operations: WebUiOperation[] = []
  for (const file of files) {
    for (const def of parse(readFileSync(new URL(file, FIXTURES), 'utf8')).definitions) {
      if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def)
      if (def.kind === Kind.OPERATION_DEFINITION)
        operations.push({ name: `${file}:${def.name?.value}`, node: def })
    }
  }
  const documentOf = (operation: OperationDefinitionNode): DocumentNode => {
    const reached = new Map<string, DefinitionNode>()
    const pending: DefinitionNode[] = [operation]
    while (pending.length > 0) {
      visit(pending.pop() as DefinitionNode, {
        FragmentSpread(node) {
          const fragment = fragments.get(node.name.value)
          if (fragment && !reached.has(node.name.value)) {
            reached.set(node.name.value, fragment)
            pending.push(fragment)
          }
        },
      })
    }
    return { kind: Kind.DOCUMENT, definitions: [operation, ...reached.values()] }
  }
  return { files, fragments, operations, documentOf }
}
