import { type ChangeLogEntry, parseUrn, Registry } from '@catalog/core'
import { DocumentDeriver } from './document-deriver.js'
import type { FilterInput } from './filters.js'
import type { SearchIndex, SearchResultPage, SortCriterion } from './port.js'
import { RequestBuilder } from './request-builder.js'
import { SearchSchema } from './search-schema.js'

const STAMP = { time: 1_700_000_000_000, actor: 'urn:li:corpuser:datahub' }

/** A dataset URN. */
export const ds = (name: string, platform = 'hive', origin = 'PROD') =>
  `urn:li:dataset:(urn:li:dataPlatform:${platform},${name},${origin})`

/** Change-log entries and requests for the contract suite, built like the real service builds them. */
export class ContractFixture {
  readonly registry = new Registry()
  readonly schema = new SearchSchema(this.registry)
  readonly deriver = new DocumentDeriver(this.schema)
  readonly requests = new RequestBuilder(this.schema)
  private seq = 0

  /** An UPSERT entry. */
  upsert(urn: string, aspect: string, value: Record<string, unknown>): ChangeLogEntry {
    return {
      seq: ++this.seq,
      urn,
      entityType: parseUrn(urn).entityType,
      aspect,
      change: 'UPSERT',
      value,
      created: STAMP,
    }
  }

  /** A DELETE entry; `entityDeleted` for the key aspect. */
  remove(urn: string, aspect: string, entityDeleted = false): ChangeLogEntry {
    return {
      seq: ++this.seq,
      urn,
      entityType: parseUrn(urn).entityType,
      aspect,
      change: 'DELETE',
      ...(entityDeleted ? { entityDeleted: true } : {}),
      created: STAMP,
    }
  }

  /** The entries DataHub writes for a new dataset: key, browse path, platform instance, then `aspects`. */
  dataset(
    name: string,
    aspects: Record<string, Record<string, unknown>>,
    platform = 'hive',
    origin = 'PROD',
  ) {
    const urn = ds(name, platform, origin)
    const ref = this.registry.resolveUrn(urn)
    const defaults = this.registry.defaultAspects(ref).filter((d) => !(d.aspect in aspects))
    return [
      ...defaults.map((d) => this.upsert(urn, d.aspect, d.value)),
      ...Object.entries(aspects).map(([aspect, value]) => this.upsert(urn, aspect, value)),
    ]
  }

  /** Applies entries through the deriver, cursor at the last one. */
  async apply(index: SearchIndex, entries: readonly ChangeLogEntry[]) {
    return index.apply(this.deriver.changes(entries), entries.at(-1)?.seq ?? 0)
  }

  async search(
    index: SearchIndex,
    input: string,
    opts: {
      entity?: string | string[]
      start?: number
      count?: number
      filter?: FilterInput
      sort?: SortCriterion
      includeSoftDeleted?: boolean
    } = {},
  ): Promise<SearchResultPage> {
    const entity = opts.entity ?? 'dataset'
    return index.search(
      this.requests.search({
        input,
        entityTypes: Array.isArray(entity) ? entity : [entity],
        start: opts.start ?? 0,
        count: opts.count ?? 100,
        ...(opts.filter ? { filter: opts.filter } : {}),
        ...(opts.sort ? { sort: opts.sort } : {}),
        ...(opts.includeSoftDeleted ? { includeSoftDeleted: true } : {}),
      }),
    )
  }

  /** URNs of a search, in order. */
  async urns(index: SearchIndex, input: string, opts: Parameters<ContractFixture['search']>[2] = {}) {
    return (await this.search(index, input, opts)).hits.map((h) => h.urn)
  }
}

/** What each contract case works on: the index under test and its fixture. */
export interface ContractContext {
  readonly index: SearchIndex
  readonly fx: ContractFixture
}

export const tag = (t: string) => ({ tags: [{ tag: `urn:li:tag:${t}` }] })
export const owners = (...names: string[]) => ({
  owners: names.map((n) => ({ owner: `urn:li:corpuser:${n}`, type: 'DATAOWNER' })),
})

/** A small catalog used by most tests. */
export function seed(fx: ContractFixture) {
  return [
    ...fx.dataset('orders_daily', {
      datasetProperties: {
        name: 'Orders Daily',
        description: 'Daily snapshot of customer orders',
        created: { time: 1000 },
      },
      globalTags: tag('Legacy'),
      ownership: owners('jdoe'),
    }),
    ...fx.dataset('customers', {
      datasetProperties: {
        name: 'Customers',
        description: 'All customers, joined with orders nightly',
        created: { time: 2000 },
      },
      ownership: owners('alice'),
    }),
    ...fx.dataset(
      'inventory_levels',
      {
        datasetProperties: { name: 'Inventory levels', description: 'Stock per warehouse' },
        schemaMetadata: {
          schemaName: 'inventory',
          platform: 'urn:li:dataPlatform:kafka',
          version: 0,
          hash: '',
          platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
          fields: [
            {
              fieldPath: 'warehouse_id',
              nativeDataType: 'int',
              type: { type: { 'com.linkedin.schema.NumberType': {} } },
            },
            {
              fieldPath: 'sku',
              nativeDataType: 'string',
              type: { type: { 'com.linkedin.schema.StringType': {} } },
              globalTags: tag('Legacy'),
            },
          ],
        },
      },
      'kafka',
    ),
    ...fx.dataset(
      'payments',
      {
        datasetProperties: {
          name: 'Payments',
          description: 'Card payments, settled daily',
          created: { time: 3000 },
        },
        ownership: owners('jdoe', 'alice'),
      },
      'kafka',
      'DEV',
    ),
  ]
}
