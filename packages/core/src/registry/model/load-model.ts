import { readFileSync } from 'node:fs'
import { DEFAULT_BROWSE_PATHS, GRAPHQL_ENTITY_TYPES, graphqlTypeOf, SNAPSHOTS } from '../entity-behaviour.js'
import { checkTestInfo } from '../test-definition.js'
import type {
  AspectSpec,
  EntitySpec,
  KeyFieldSpec,
  RelationshipField,
  SearchableField,
  TimeseriesFieldSpec,
} from '../types.js'
import type { ModelAspect, ModelFile, ModelSearchable } from './model-file.js'

/** Checks DataHub runs in code beyond the schema, by aspect. */
const ASPECT_CHECKS: Readonly<Record<string, AspectSpec['check']>> = {
  testInfo: checkTestInfo,
}

/** DataHub's model as the registry reads it: entity and aspect specs, and the type declarations. */
export interface LoadedModel {
  readonly file: ModelFile
  readonly entities: readonly EntitySpec[]
  readonly aspects: readonly AspectSpec[]
}

let loaded: LoadedModel | undefined

/** Loads `datahub-model.json` once per process. */
export function loadModel(): LoadedModel {
  if (!loaded) {
    const file = JSON.parse(
      readFileSync(new URL('./datahub-model.json', import.meta.url), 'utf8'),
    ) as ModelFile
    loaded = fromModel(file)
  }
  return loaded
}

/** Builds entity and aspect specs from a model file. */
export function fromModel(file: ModelFile): LoadedModel {
  const aspects: AspectSpec[] = Object.entries(file.aspects).map(([name, a]) => aspectSpec(name, a))
  const byName = new Map(aspects.map((a) => [a.name, a]))
  const entities = file.entities.map((e): EntitySpec => {
    const key = byName.get(e.keyAspect)
    const graphqlType = graphqlTypeOf(e.name, GRAPHQL_ENTITY_TYPES)
    const snapshot = SNAPSHOTS[e.name]
    const browse = DEFAULT_BROWSE_PATHS[e.name]
    return {
      name: e.name,
      ...(e.category ? { category: e.category } : {}),
      keyAspect: e.keyAspect,
      keyFields: e.keyFields.map(
        (f): KeyFieldSpec => ({
          name: f.name,
          ...(f.kind === 'urn' ? { urnOf: f.entityType ?? '' } : {}),
          ...(f.symbols ? { enum: f.symbols } : {}),
        }),
      ),
      aspects: e.aspects,
      ...(snapshot ? { snapshot } : {}),
      ...(graphqlType ? { graphqlType } : {}),
      ...(browse ? { defaultBrowsePath: browse } : {}),
      ...(key?.searchable ? { keySearchable: key.searchable } : {}),
      ...(key?.relationships ? { keyRelationships: key.relationships } : {}),
    }
  })
  return { file, entities, aspects }
}

function aspectSpec(name: string, a: ModelAspect): AspectSpec {
  const check = ASPECT_CHECKS[name]
  return {
    name,
    record: a.record,
    ...(a.timeseries ? { timeseries: true } : {}),
    ...(a.searchable ? { searchable: a.searchable.map(searchableField) } : {}),
    ...(a.relationships
      ? {
          relationships: a.relationships.map(
            (r): RelationshipField => ({
              path: r.path,
              name: r.name,
              entityTypes: r.entityTypes,
              ...(r.isLineage ? { isLineage: true } : {}),
              ...(r.isUpstream === false ? { isUpstream: false } : {}),
            }),
          ),
        }
      : {}),
    ...(a.urnValidation
      ? {
          urnValidation: a.urnValidation
            .filter((u) => u.strict && u.entityTypes.length > 0)
            .map((u) => ({ path: u.path, entityTypes: u.entityTypes })),
        }
      : {}),
    ...(a.timeseriesFields
      ? {
          timeseriesFields: a.timeseriesFields.map(
            (f): TimeseriesFieldSpec => ({
              name: f.path
                .split('/')
                .filter((s) => s !== '*')
                .join('.'),
              ...(f.collectionKey ? { collectionKey: f.collectionKey } : {}),
            }),
          ),
        }
      : {}),
    ...(check ? { check } : {}),
  }
}

function searchableField(s: ModelSearchable): SearchableField {
  return {
    path: s.path,
    fieldName: s.fieldName,
    type: s.fieldType,
    ...(s.queryByDefault !== undefined ? { queryByDefault: s.queryByDefault } : {}),
    ...(s.boostScore !== undefined ? { boost: s.boostScore } : {}),
    ...(s.addToFilters ? { addToFilters: true } : {}),
    ...(s.filterNameOverride ? { filterName: s.filterNameOverride } : {}),
    ...(s.enableAutocomplete ? { autocomplete: true } : {}),
    ...(s.hasValuesFieldName ? { hasValuesFieldName: s.hasValuesFieldName } : {}),
  }
}
