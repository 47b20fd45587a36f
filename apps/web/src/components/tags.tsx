import type { TagRef, TermRef } from '../api/types.js'
import { shortUrn, tagName } from '../lib/display.js'

/** Tag and glossary-term pills. */
export function Tags({
  tags,
  terms,
}: {
  tags?: TagRef[] | null | undefined
  terms?: TermRef[] | null | undefined
}) {
  if (!tags?.length && !terms?.length) return null
  return (
    <span className="pills">
      {tags?.map((t) => (
        <span key={t.tag.urn} className="pill tag" title={t.tag.urn}>
          {tagName(t)}
        </span>
      ))}
      {terms?.map((t) => (
        <span key={t.term.urn} className="pill term" title={t.term.urn}>
          {t.term.name ?? shortUrn(t.term.urn)}
        </span>
      ))}
    </span>
  )
}
