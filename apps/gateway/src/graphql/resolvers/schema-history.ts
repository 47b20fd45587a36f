import { parseUrn } from '@catalog/core'
import type { TimelineTransaction } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'

/** DataHub's `TimelineUtils.truncateSemanticVersion`: `1.2.0-computed` is `1.2.0`. */
function truncate(semVer: string): string {
  return semVer.endsWith('-computed') ? semVer.slice(0, semVer.lastIndexOf('-computed')) : semVer
}

/** A dotted numeric version as numbers; undefined for anything else (not compared). */
function versionOf(semVer: string | null): number[] | undefined {
  if (semVer === null) return undefined
  const text = truncate(semVer)
  return /^\d+(\.\d+)*$/.test(text) ? text.split('.').map(Number) : undefined
}

function compare(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0)
    if (d !== 0) return d
  }
  return 0
}

/** Transactions with a version, newest version first (a stable sort: equal versions keep their order). */
function byVersionDescending(transactions: readonly TimelineTransaction[]) {
  return transactions
    .flatMap((tx) => {
      const version = versionOf(tx.semVer)
      return version ? [{ version, tx }] : []
    })
    .sort((a, b) => compare(b.version, a.version))
}

const versionStruct = (tx: TimelineTransaction) => ({
  semanticVersion: truncate(tx.semVer ?? ''),
  semanticVersionTimestamp: tx.timestamp,
  versionStamp: tx.versionStamp,
})

const CHANGE_WORDS: Readonly<Record<string, string>> = { ADD: 'Added', MODIFY: 'Modified', REMOVE: 'Removed' }

/** The schema changes of a dataset: DataHub reads the timeline's TECHNICAL_SCHEMA category over all time. */
function schemaTimeline(ctx: CatalogContext, datasetUrn: string): Promise<TimelineTransaction[]> {
  return ctx.client.timeline({ urn: datasetUrn, categories: ['TECHNICAL_SCHEMA'], startTime: 0, endTime: 0 })
}

/** DataHub's `SchemaBlameMapper`: the last change of each field at or before `cutoff`. */
function schemaBlame(transactions: readonly TimelineTransaction[], cutoff: string | null | undefined) {
  const last = transactions.at(-1)
  if (!last) return { version: null, schemaFieldBlameList: null }
  const limit = versionOf(cutoff ?? last.semVer)
  if (!limit) return { version: null, schemaFieldBlameList: null }
  const selected = byVersionDescending(transactions).filter((v) => compare(v.version, limit) <= 0)
  const first = selected[0]
  if (!first) return { version: null, schemaFieldBlameList: null }
  const blame = new Map<string, { fieldPath: string; schemaFieldChange: Record<string, unknown> }>()
  for (const { tx } of selected) {
    for (const event of tx.changeEvents) {
      const fieldUrn = event.modifier
      if (event.category !== 'TECHNICAL_SCHEMA' || fieldUrn === null || blame.has(fieldUrn)) continue
      let fieldPath: string | undefined
      try {
        const urn = parseUrn(fieldUrn)
        fieldPath = urn.entityType === 'schemaField' ? urn.parts[1] : undefined
      } catch {
        fieldPath = undefined
      }
      if (fieldPath === undefined) continue
      const operation = event.operation ?? ''
      const word = CHANGE_WORDS[operation]
      // DataHub's mapper fails on an operation its GraphQL enum lacks (and the field answers null).
      if (!word) throw new Error(`No ChangeOperationType ${operation}`)
      blame.set(fieldUrn, {
        fieldPath,
        schemaFieldChange: {
          timestampMillis: tx.timestamp,
          lastSemanticVersion: truncate(tx.semVer ?? ''),
          versionStamp: tx.versionStamp,
          changeType: operation,
          lastSchemaFieldChange: `${word} in v${truncate(tx.semVer ?? '')}`,
        },
      })
    }
  }
  return {
    version: versionStruct(first.tx),
    schemaFieldBlameList: [...blame.values()].filter((b) => b.schemaFieldChange.changeType !== 'REMOVE'),
  }
}

/** DataHub's `SchemaVersionListMapper`: the latest version and every version, newest first. */
function schemaVersionList(transactions: readonly TimelineTransaction[]) {
  const last = transactions.at(-1)
  if (!last) return null
  return {
    latestVersion: versionStruct(last),
    version: null,
    semanticVersionList: byVersionDescending(transactions).map(({ tx }) => versionStruct(tx)),
  }
}

interface SchemaBlameInput {
  readonly datasetUrn: string
  readonly version?: string | null
}

/**
 * Root queries of a dataset's schema history (the schema tab's blame and version picker), from
 * the timeline. As DataHub's resolvers do, any failure (a malformed URN included) answers null.
 */
export const schemaHistoryQueries = {
  /** DataHub's `GetSchemaBlameResolver`. */
  getSchemaBlame: async (_: unknown, { input }: { input: SchemaBlameInput }, ctx: CatalogContext) => {
    try {
      return schemaBlame(await schemaTimeline(ctx, input.datasetUrn), input.version)
    } catch (err) {
      ctx.log.error({ err, urn: input.datasetUrn }, 'Failed to list schema blame data')
      return null
    }
  },

  /** DataHub's `GetSchemaVersionListResolver`. */
  getSchemaVersionList: async (
    _: unknown,
    { input }: { input: { readonly datasetUrn: string } },
    ctx: CatalogContext,
  ) => {
    try {
      return schemaVersionList(await schemaTimeline(ctx, input.datasetUrn))
    } catch (err) {
      ctx.log.error({ err, urn: input.datasetUrn }, 'Failed to list schema blame data')
      return null
    }
  },
}
