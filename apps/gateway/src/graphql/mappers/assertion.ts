import { parseUrn } from '@catalog/core'
import type { AspectValue } from '../clients/metadata-client.js'
import type { LoadedEntity } from '../entity-loader.js'
import { globalTags, type Mapped, optionalStamp, ownership, ref, status, str } from './common.js'
import type { EntityMapping, FieldContext } from './types.js'

type Json = Record<string, unknown>
const obj = (v: unknown): Json | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])

/** DataHub's platform of an assertion without a `dataPlatformInstance` aspect. */
const UNKNOWN_PLATFORM = 'urn:li:dataPlatform:unknown'

/** A string map as `[StringMapEntry]`. */
export function stringMapEntries(v: unknown): Mapped[] {
  return Object.entries(obj(v) ?? {}).map(([key, value]) => ({ key, value: str(value) }))
}

/** `SchemaFieldRef` of a schema field URN: the URN and its field path (the key's second member). */
function schemaFieldRef(urn: unknown): Mapped | null {
  const parsed = parsedUrn(urn)
  const path = parsed?.entityType === 'schemaField' ? parsed.parts[1] : undefined
  return path !== undefined ? { urn, path } : null
}

/** A stored URN parsed; undefined when it does not parse. */
function parsedUrn(urn: unknown): ReturnType<typeof parseUrn> | undefined {
  if (typeof urn !== 'string') return undefined
  try {
    return parseUrn(urn)
  } catch {
    return undefined
  }
}

function parameter(v: unknown): Mapped | null {
  const p = obj(v)
  return p && typeof p.value === 'string' && typeof p.type === 'string'
    ? { value: p.value, type: p.type }
    : null
}

/** DataHub's `AssertionMapper.mapDatasetAssertionInfo`. */
function datasetAssertion(v: unknown): Mapped | null {
  const a = obj(v)
  if (!a || typeof a.dataset !== 'string') return null
  const params = obj(a.parameters)
  return {
    datasetUrn: a.dataset,
    scope: str(a.scope) ?? 'UNKNOWN',
    fields: list(a.fields)
      .map(schemaFieldRef)
      .filter((f) => f !== null),
    aggregation: str(a.aggregation),
    operator: str(a.operator) ?? '_NATIVE_',
    parameters: params
      ? {
          value: parameter(params.value),
          minValue: parameter(params.minValue),
          maxValue: parameter(params.maxValue),
        }
      : null,
    nativeType: str(a.nativeType),
    nativeParameters: stringMapEntries(a.nativeParameters),
    logic: str(a.logic),
  }
}

/** DataHub's `AssertionMapper.mapCustomAssertionInfo`. */
function customAssertion(v: unknown): Mapped | null {
  const c = obj(v)
  if (!c || typeof c.entity !== 'string') return null
  return { type: str(c.type) ?? '', entityUrn: c.entity, field: schemaFieldRef(c.field), logic: str(c.logic) }
}

/**
 * `AssertionInfo` as DataHub's `AssertionMapper.mapAssertionInfo`: type, description, external
 * URL, source and last update, with the dataset and custom kinds mapped; the freshness, volume,
 * SQL, field and schema kinds (DataHub Cloud's monitors) answer null here.
 */
function assertionInfo(v: AspectValue | undefined): Mapped | null {
  if (!v || typeof v.type !== 'string') return null
  const source = obj(v.source)
  return {
    type: v.type,
    description: str(v.description),
    externalUrl: str(v.externalUrl),
    lastUpdated: optionalStamp(v.lastUpdated),
    datasetAssertion: datasetAssertion(v.datasetAssertion),
    customAssertion: customAssertion(v.customAssertion),
    source:
      source && typeof source.type === 'string'
        ? { type: source.type, created: optionalStamp(source.created) }
        : null,
    freshnessAssertion: null,
    volumeAssertion: null,
    sqlAssertion: null,
    fieldAssertion: null,
    schemaAssertion: null,
  }
}

function actions(v: AspectValue | undefined): Mapped | null {
  if (!v) return null
  const of = (xs: unknown) =>
    list(xs)
      .map((x) => str(obj(x)?.type))
      .filter((t) => t !== null)
      .map((type) => ({ type }))
  return { onSuccess: of(v.onSuccess), onFailure: of(v.onFailure) }
}

/** `Assertion` as DataHub's `AssertionMapper` (run events come from their own resolver). */
function mapAssertion(e: LoadedEntity): Mapped {
  const a = e.aspects
  const platform = str(a.dataPlatformInstance?.platform)
  return {
    urn: e.urn,
    platform: ref(platform ?? UNKNOWN_PLATFORM, ['dataPlatform']) ?? { urn: UNKNOWN_PLATFORM },
    info: assertionInfo(a.assertionInfo),
    status: status(a.status),
    tags: globalTags(a.globalTags, e.urn),
    ownership: ownership(a.ownership, e.urn),
    actions: actions(a.assertionActions),
  }
}

export const ASSERTION_MAPPING: EntityMapping = {
  typeName: 'Assertion',
  entityType: 'ASSERTION',
  aspects: ['assertionInfo', 'dataPlatformInstance', 'status', 'globalTags', 'ownership', 'assertionActions'],
  map: mapAssertion,
}

/** Assertions of one entity DataHub's health badge looks at, at most. */
const HEALTH_ASSERTIONS = 500
/** The entity types an `Asserts` edge may point at (the assertions' relationship targets). */
const ASSERTED_TYPES = ['dataset', 'dataJob']

/**
 * The assertions entry of an entity's `health`, as DataHub's EntityHealthResolver computes it:
 * none without assertions or without any completed run of them; else FAIL naming the assertions
 * whose latest completed run on this entity did not succeed ("2 of 5 assertions are failing"),
 * or PASS ("All assertions are passing").
 */
export async function assertionsHealth(urn: string, ctx: FieldContext): Promise<Mapped | null> {
  if (!ASSERTED_TYPES.some((type) => urn.startsWith(`urn:li:${type}:`))) return null
  const page = await ctx.client.relationships({
    urn,
    direction: 'INCOMING',
    types: ['Asserts'],
    start: 0,
    count: HEALTH_ASSERTIONS,
  })
  const assertions = [...new Set(page.relationships.map((r) => r.entity))]
  if (assertions.length === 0) return null
  const latest = await Promise.all(
    assertions.map(async (assertion) => {
      const [run] = await ctx.client.timeseries({
        urn: assertion,
        entity: 'assertion',
        aspect: 'assertionRunEvent',
        limit: 1,
        filter: {
          criteria: [
            { field: 'asserteeUrn', values: [urn] },
            { field: 'status', values: ['COMPLETE'] },
          ],
        },
      })
      return run ? str(obj(run.result)?.type) : undefined
    }),
  )
  if (latest.every((type) => type === undefined)) return null
  const failing = assertions.filter((_, i) => latest[i] !== undefined && latest[i] !== 'SUCCESS')
  return failing.length > 0
    ? {
        type: 'ASSERTIONS',
        status: 'FAIL',
        message: `${failing.length} of ${assertions.length} assertions are failing`,
        causes: failing,
      }
    : { type: 'ASSERTIONS', status: 'PASS', message: 'All assertions are passing', causes: null }
}
