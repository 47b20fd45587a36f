import { type Catalog, startCatalog } from './spawn.js'

/** A catalog the timing tests measure, with the two calls they make of it. */
export interface TimingCatalog extends Catalog {
  /** POSTs `text` as it is (a prepared JSON body) to `path`. */
  readonly send: (path: string, text: string) => Promise<Response>
  /** Whether a dataset search for `input` finds anything (a write is indexed). */
  readonly found: (input: string) => Promise<boolean>
}

/**
 * Starts the all-in-one catalog as {@link startCatalog} does, with durability `normal`: the
 * timing tests measure the event loop, not the disk's fsync.
 */
export async function startTimingCatalog(
  t: Parameters<typeof startCatalog>[0],
  name: string,
): Promise<TimingCatalog> {
  const catalog = await startCatalog(t, name, { CATALOG_DURABILITY: 'normal' })
  const send = (path: string, text: string) =>
    fetch(`${catalog.app.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: text,
    })
  const found = async (input: string) => {
    const res = await catalog.post('/entities?action=search', {
      input,
      entity: 'dataset',
      start: 0,
      count: 1,
    })
    return ((await res.json()) as { value: { numEntities: number } }).value.numEntities > 0
  }
  return { ...catalog, send, found }
}
