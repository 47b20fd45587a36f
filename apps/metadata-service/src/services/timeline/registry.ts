import { datasetPropertiesDiffer, editableDatasetPropertiesDiffer } from './differs/dataset-description.js'
import { domainsDiffer } from './differs/domains.js'
import { editableSchemaMetadataDiffer } from './differs/editable-schema-metadata.js'
import { globalTagsDiffer } from './differs/global-tags.js'
import { glossaryTermsDiffer } from './differs/glossary-terms.js'
import { deprecationDiffer, statusDiffer } from './differs/lifecycle.js'
import { ownershipDiffer } from './differs/ownership.js'
import { schemaMetadataDiffer } from './differs/schema-metadata.js'
import type { ChangeCategory, Differ } from './types.js'

type CategoryTable = Partial<Record<ChangeCategory, Readonly<Record<string, Differ>>>>

/**
 * Which aspects feed which category, per entity type (DataHub's TimelineServiceImpl tables).
 * DEPRECATION and LIFECYCLE on datasets are ours: DataHub's timeline has no generator there.
 */
export const TIMELINE_DIFFERS: Readonly<Record<string, CategoryTable>> = {
  dataset: {
    TAG: {
      schemaMetadata: schemaMetadataDiffer,
      editableSchemaMetadata: editableSchemaMetadataDiffer,
      globalTags: globalTagsDiffer,
    },
    OWNERSHIP: { ownership: ownershipDiffer },
    DOCUMENTATION: {
      editableDatasetProperties: editableDatasetPropertiesDiffer,
      datasetProperties: datasetPropertiesDiffer,
      editableSchemaMetadata: editableSchemaMetadataDiffer,
      schemaMetadata: schemaMetadataDiffer,
    },
    GLOSSARY_TERM: {
      glossaryTerms: glossaryTermsDiffer,
      editableSchemaMetadata: editableSchemaMetadataDiffer,
    },
    TECHNICAL_SCHEMA: { schemaMetadata: schemaMetadataDiffer },
    DOMAIN: { domains: domainsDiffer },
    DEPRECATION: { deprecation: deprecationDiffer },
    LIFECYCLE: { deprecation: deprecationDiffer, status: statusDiffer },
  },
  glossaryTerm: {
    OWNERSHIP: { ownership: ownershipDiffer },
    DOMAIN: { domains: domainsDiffer },
  },
  domain: { OWNERSHIP: { ownership: ownershipDiffer } },
  dataProduct: {
    OWNERSHIP: { ownership: ownershipDiffer },
    TAG: { globalTags: globalTagsDiffer },
    GLOSSARY_TERM: { glossaryTerms: glossaryTermsDiffer },
    DOMAIN: { domains: domainsDiffer },
  },
}
