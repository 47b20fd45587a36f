/**
 * DataHub's default `browsePathsV2` (`BrowsePathV2Utils.getDefaultBrowsePathV2`, as
 * `DefaultAspectsUtil` calls it for a new entity: without container paths). A dataset sits under
 * the folders of its lower-cased name split on the platform delimiter (its last part left out),
 * a data job under its data flow, everything else in DataHub's `Default` folder.
 */

type Key = Readonly<Record<string, string>>
interface Entry {
  readonly id: string
  readonly urn?: string
}

/** DataHub's folder for entities it cannot place. */
const DEFAULT_FOLDER: Entry = { id: 'Default' }
/** The platform delimiter DataHub falls back to when the platform's info names none. */
const DELIMITER = '.'

/** The folders of a dataset name: its non-empty parts but the last; none when it has no delimiter. */
function nameFolders(name: string): Entry[] {
  if (!name.includes(DELIMITER)) return []
  const parts = name.split(DELIMITER).filter((p) => p !== '')
  return parts.slice(0, -1).map((id) => ({ id }))
}

/** The default `browsePathsV2` value of a new entity of type `entity` with key `key`. */
export function defaultBrowsePathsV2(entity: string, key: Key): { path: Entry[] } {
  if (entity === 'dataset') {
    const folders = nameFolders((key.name ?? '').toLowerCase())
    return { path: folders.length > 0 ? folders : [DEFAULT_FOLDER] }
  }
  if (entity === 'dataJob' && key.flow) return { path: [{ id: key.flow, urn: key.flow }] }
  return { path: [DEFAULT_FOLDER] }
}
