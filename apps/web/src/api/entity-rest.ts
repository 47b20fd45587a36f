import facts from 'virtual:model-facts'
import type { TimeseriesEvent } from '../lib/timeseries.js'
import { restGet, restPost } from './client.js'

/** The entity type named by a URN: `urn:li:dataset:(...)` → `dataset`. */
export const entityTypeOf = (urn: string) => urn.split(':')[2] ?? ''

export interface Related {
  readonly type: string
  readonly entity: string
}

/** Relationships read per direction (DataHub's default page of `/relationships`). */
export const RELATED_PAGE = 100

/**
 * One direction of an entity's edges, over every relationship name the model gives that
 * direction for its type (`GET /relationships`); `total` counts past the page.
 */
export async function relationships(
  urn: string,
  direction: 'INCOMING' | 'OUTGOING',
): Promise<{ total: number; relationships: Related[] }> {
  const type = entityTypeOf(urn)
  const names = (direction === 'OUTGOING' ? facts.outgoing : facts.incoming)[type] ?? []
  if (names.length === 0) return { total: 0, relationships: [] }
  const query = `direction=${direction}&urn=${encodeURIComponent(urn)}&types=List(${names.join(',')})&count=${RELATED_PAGE}`
  const body = await restGet<{ total: number; relationships: Related[] }>(`/relationships?${query}`)
  return body ?? { total: 0, relationships: [] }
}

/** Values read per aspect (newest first, as the API answers). */
export const TIMESERIES_LIMIT = 500

/** The model's time-series aspects for an entity's type. */
export const timeseriesAspects = (urn: string): readonly string[] => facts.timeseries[entityTypeOf(urn)] ?? []

/** The newest values of one time-series aspect (`POST /aspects?action=getTimeseriesAspectValues`). */
export async function timeseriesValues(urn: string, aspect: string): Promise<TimeseriesEvent[]> {
  const body = await restPost<{ value: { values: { aspect: { value: string } }[] } }>(
    '/aspects?action=getTimeseriesAspectValues',
    { urn, entity: entityTypeOf(urn), aspect, limit: TIMESERIES_LIMIT },
  )
  return body.value.values.map((v) => JSON.parse(v.aspect.value) as TimeseriesEvent)
}

/** Every latest aspect of an entity, by name, as the OpenAPI v3 read answers (`{value, ...}`). */
export async function rawAspects(urn: string): Promise<Record<string, unknown>> {
  const body = await restGet<Record<string, unknown>>(
    `/openapi/v3/entity/${encodeURIComponent(entityTypeOf(urn))}/${encodeURIComponent(urn)}`,
  )
  const { urn: _urn, ...aspects } = body ?? {}
  return aspects
}
