import { diffAssociations, TERMS } from '../associations.js'
import type { Differ } from '../types.js'

/** `glossaryTerms` (GLOSSARY_TERM): DataHub's GlossaryTermsChangeEventGenerator. */
export const glossaryTermsDiffer: Differ = (previous, next, ctx) =>
  ctx.category === 'GLOSSARY_TERM'
    ? diffAssociations(TERMS, previous?.terms, next?.terms, ctx.entityUrn, ctx.auditStamp)
    : []
