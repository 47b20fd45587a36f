import { LARGE_ASPECT_CHARS } from '@catalog/core'

/**
 * Route config of the snapshot ingest routes: an aspect value of a large body whose JSON text
 * is {@link LARGE_ASPECT_CHARS} or longer reaches the ingest service as `JsonText` from the JSON
 * body worker, which the large-aspect worker validates without the event loop ever holding the
 * object (a 16 MB schema's structured copy and re-serialization held it ~170 ms).
 */
export const SNAPSHOT_JSON_TEXT = {
  ingest: {
    jsonText: { paths: [['entity', 'value', '*', 'aspects', '*', '*']], minChars: LARGE_ASPECT_CHARS },
  },
  batchIngest: {
    jsonText: { paths: [['entities', '*', 'value', '*', 'aspects', '*', '*']], minChars: LARGE_ASPECT_CHARS },
  },
} as const
