import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { applyPatch, parsePatchBody, Registry } from '@catalog/core'
import t from 'tap'
import { build, getJson, ingestRecord, type Json, postJson } from '../helpers/build.js'
import { GOLDEN_DIR, preJsonTransform } from '../helpers/examples.js'

/**
 * DataHub's own ingestion output, every record of every golden file (`test/fixtures/datahub/golden`),
 * sent as DataHub's Python REST emitter sends it: MCEs to `/entities?action=ingest`, MCPs (PATCH
 * included) to `ingestProposal`. Every record must be accepted, and every versioned aspect must read
 * back field for field as the last write left it.
 */

const registry = new Registry()
const enc = encodeURIComponent
const files = readdirSync(GOLDEN_DIR)
  .filter((f) => f.endsWith('.json'))
  .sort()

/** Avro's union member tag, which the Python emitter may leave in a value; DataHub drops it. */
function withoutDiscriminators(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDiscriminators)
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value))
    if (k !== 'fieldDiscriminator') out[k] = withoutDiscriminators(v)
  return out
}

interface Expected {
  entityType: string
  value: Record<string, unknown>
}

/** What each written (urn, aspect) should hold after the file, replaying its records in order. */
function replay(records: Json[], into: Map<string, Map<string, Expected>>, series: Map<string, Set<number>>) {
  const put = (urn: string, entityType: string, aspect: string, value: Record<string, unknown>) => {
    const m = into.get(urn) ?? new Map<string, Expected>()
    m.set(aspect, { entityType, value })
    into.set(urn, m)
  }
  for (const raw of records) {
    const r = preJsonTransform(raw) as Json
    if (r.proposedSnapshot) {
      const [record, snapshot] = Object.entries(r.proposedSnapshot)[0] as [string, Json]
      const entity = registry.entityBySnapshot(record)
      if (!entity) continue
      for (const member of snapshot.aspects) {
        const [aspectRecord, value] = Object.entries(member)[0] as [string, Record<string, unknown>]
        const spec = registry.aspectByRecord(aspectRecord)
        if (spec)
          put(snapshot.urn, entity.name, spec.name, withoutDiscriminators(value) as Record<string, unknown>)
      }
      continue
    }
    const body = r.aspect.json ?? JSON.parse(r.aspect.value)
    const spec = registry.aspect(registry.entity(r.entityType), r.aspectName)
    if (spec.timeseries) {
      const key = `${r.entityUrn}|${spec.name}`
      const times = series.get(key) ?? new Set<number>()
      times.add(body.timestampMillis)
      series.set(key, times)
      continue
    }
    if (r.changeType === 'DELETE') {
      into.get(r.entityUrn)?.delete(spec.name)
      continue
    }
    if (r.changeType === 'PATCH') {
      const current = into.get(r.entityUrn)?.get(spec.name)?.value
      put(r.entityUrn, r.entityType, spec.name, applyPatch(spec.name, current, parsePatchBody(body)))
      continue
    }
    put(r.entityUrn, r.entityType, spec.name, withoutDiscriminators(body) as Record<string, unknown>)
  }
}

t.test('every record of every DataHub golden file is accepted and reads back', async (t) => {
  const { app } = await build(t)
  const expected = new Map<string, Map<string, Expected>>()
  const series = new Map<string, Set<number>>()
  let records = 0
  const refused: string[] = []
  for (const file of files) {
    const parsed = JSON.parse(readFileSync(join(GOLDEN_DIR, file), 'utf8')) as Json
    const list: Json[] = Array.isArray(parsed) ? parsed : [parsed]
    for (const record of list) {
      const { call, res } = await ingestRecord(app, record)
      records++
      if (res.statusCode !== 200)
        refused.push(`${file}: ${call.urn} ${res.statusCode} ${res.body.slice(0, 300)}`)
    }
    replay(list, expected, series)
  }
  t.ok(files.length >= 50, `${files.length} golden files`)
  t.same(refused, [], `all ${records} records accepted`)

  let aspects = 0
  const mismatched: string[] = []
  for (const [urn, byAspect] of expected) {
    const names = [...byAspect.keys()]
    const { status, body } = await getJson(app, `/entitiesV2/${enc(urn)}?aspects=List(${names.join(',')})`)
    if (status !== 200) {
      mismatched.push(`${urn}: entitiesV2 answered ${status}`)
      continue
    }
    for (const [aspect, want] of byAspect) {
      aspects++
      const got = body.aspects?.[aspect]?.value
      // A version says whether it is its set's latest (DataHub's side effect computes it): each
      // golden version set holds one version, its latest.
      const value = aspect === 'versionProperties' ? { isLatest: true, ...want.value } : want.value
      if (JSON.stringify(sorted(got)) !== JSON.stringify(sorted(value))) {
        mismatched.push(
          `${urn} ${aspect}\n  sent ${JSON.stringify(want.value).slice(0, 400)}\n  read ${JSON.stringify(got)?.slice(0, 400)}`,
        )
      }
    }
  }
  t.same(
    mismatched,
    [],
    `${aspects} versioned aspects of ${expected.size} entities read back field for field`,
  )

  let points = 0
  const missing: string[] = []
  for (const [key, times] of series) {
    const [urn, aspect] = key.split('|') as [string, string]
    const entity = registry.resolveUrn(urn).entity.name
    const { body } = await postJson(app, '/aspects?action=getTimeseriesAspectValues', { urn, entity, aspect })
    const got = new Set(body.value.values.map((v: Json) => JSON.parse(v.aspect.value).timestampMillis))
    for (const time of times) {
      points++
      if (!got.has(time)) missing.push(`${key} @ ${time}`)
    }
  }
  t.same(missing, [], `${points} time-series points of ${series.size} series read back`)
})

/** JSON with object members in key order, so that member order does not count. */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sorted((value as Record<string, unknown>)[k])]),
  )
}
