import { parseUrn } from '@catalog/core'
import type { LoadedEntity } from '../entity-loader.js'
import { auditStamp, customProperties, type Mapped, ref, str } from './common.js'
import type { EntityMapping } from './types.js'

type Json = Record<string, unknown>
const obj = (v: unknown): Json | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])

/** The dataset of a query subject: the dataset itself, or the dataset of a schema field. */
function subjectDataset(entity: string): string | undefined {
  try {
    const urn = parseUrn(entity)
    if (urn.entityType === 'dataset') return entity
    return urn.entityType === 'schemaField' ? urn.parts[0] : undefined
  } catch {
    return undefined
  }
}

/** `QueryProperties` as DataHub's QueryMapper; null without a statement. */
function properties(v: Json | undefined, urn: string): Mapped | null {
  const statement = obj(v?.statement)
  if (!v || typeof statement?.value !== 'string') return null
  const created = auditStamp(v.created)
  return {
    statement: { value: statement.value, language: str(statement.language) ?? 'SQL' },
    source: str(v.source) ?? 'SYSTEM',
    name: str(v.name),
    description: str(v.description),
    created,
    createdOn: { time: created.time, actor: ref(created.actor, ['corpuser']) ?? null },
    lastModified: auditStamp(v.lastModified),
    origin: ref(v.origin) ?? null,
    customProperties: customProperties(v.customProperties, urn),
  }
}

/**
 * `QueryEntity` as DataHub's QueryMapper: properties, the subjects (each a dataset; a schema
 * field subject names its dataset, its field itself answers null here) and the platform.
 */
function mapQuery(e: LoadedEntity): Mapped {
  const a = e.aspects
  const subjects = a.querySubjects
    ? list(a.querySubjects.subjects)
        .map((s) => str(obj(s)?.entity))
        .map((entity) => (entity ? subjectDataset(entity) : undefined))
        .filter((d): d is string => d !== undefined)
        .map((dataset) => ({ dataset: { urn: dataset }, schemaField: null }))
    : null
  return {
    urn: e.urn,
    properties: properties(a.queryProperties, e.urn),
    subjects,
    platform: ref(a.dataPlatformInstance?.platform, ['dataPlatform']) ?? null,
  }
}

export const QUERY_MAPPING: EntityMapping = {
  typeName: 'QueryEntity',
  entityType: 'QUERY',
  aspects: ['queryProperties', 'querySubjects', 'dataPlatformInstance'],
  map: mapQuery,
}
