import type { LoadedEntity } from '../entity-loader.js'
import {
  auditStamp,
  browsePaths,
  customProperties,
  editableDescription,
  globalTags,
  glossaryTerms,
  institutionalMemory,
  type Mapped,
  optionalStamp,
  ownership,
  status,
  str,
  subTypes,
} from './common.js'
import { type EntityMapping, existsField } from './types.js'

type Json = Record<string, unknown>
const obj = (v: unknown): Json | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined

/** `ChangeAuditStamps`; null when absent. */
function changeStamps(v: unknown): Mapped | null {
  const s = obj(v)
  return s
    ? {
        created: auditStamp(s.created),
        lastModified: auditStamp(s.lastModified),
        deleted: optionalStamp(s.deleted),
      }
    : null
}

/** The members every kind of cell has. */
function cellBase(c: Json): Mapped {
  return {
    cellTitle: str(c.cellTitle) ?? '',
    cellId: str(c.cellId) ?? '',
    changeAuditStamps: changeStamps(c.changeAuditStamps),
  }
}

/** `NotebookCell` as DataHub's NotebookMapper (its query cell under the schema's `queryChell`). */
function cell(v: unknown): Mapped | null {
  const c = obj(v)
  if (!c || typeof c.type !== 'string') return null
  const text = obj(c.textCell)
  const query = obj(c.queryCell)
  const chart = obj(c.chartCell)
  return {
    type: c.type,
    textCell: text ? { ...cellBase(text), text: str(text.text) ?? '' } : null,
    queryChell: query
      ? {
          ...cellBase(query),
          rawQuery: str(query.rawQuery) ?? '',
          lastExecuted: optionalStamp(query.lastExecuted),
        }
      : null,
    chartCell: chart ? cellBase(chart) : null,
  }
}

/**
 * `Notebook` as DataHub's NotebookMapper: tool and id from the key, the platform named after the
 * tool, info, editable description, content (no cells without `notebookContent`) and the aspects
 * notebooks share with other assets.
 */
function mapNotebook(e: LoadedEntity): Mapped {
  const a = e.aspects
  const info = a.notebookInfo
  const tool = e.key.notebookTool ?? ''
  return {
    urn: e.urn,
    tool,
    notebookId: e.key.notebookId ?? '',
    platform: { urn: `urn:li:dataPlatform:${tool}` },
    info: info
      ? {
          title: str(info.title),
          description: str(info.description),
          externalUrl: str(info.externalUrl),
          customProperties: customProperties(info.customProperties, e.urn),
          changeAuditStamps: changeStamps(info.changeAuditStamps),
        }
      : null,
    editableProperties: editableDescription(a.editableNotebookProperties),
    content: {
      cells: (Array.isArray(a.notebookContent?.cells) ? a.notebookContent.cells : [])
        .map(cell)
        .filter((c) => c !== null),
    },
    ownership: ownership(a.ownership, e.urn),
    status: status(a.status),
    tags: globalTags(a.globalTags, e.urn),
    institutionalMemory: institutionalMemory(a.institutionalMemory, e.urn),
    glossaryTerms: glossaryTerms(a.glossaryTerms, e.urn),
    subTypes: subTypes(a.subTypes),
    browsePaths: browsePaths(a.browsePaths),
    exists: existsField(e),
  }
}

export const NOTEBOOK_MAPPING: EntityMapping = {
  typeName: 'Notebook',
  entityType: 'NOTEBOOK',
  aspects: [
    'notebookInfo',
    'notebookContent',
    'editableNotebookProperties',
    'ownership',
    'status',
    'globalTags',
    'institutionalMemory',
    'glossaryTerms',
    'subTypes',
    'browsePaths',
  ],
  map: mapNotebook,
}
