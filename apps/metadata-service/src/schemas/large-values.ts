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

/**
 * Route config of the proposal ingest routes: an aspect text of a large body (a string, JSON
 * inside) {@link LARGE_ASPECT_CHARS} long or longer comes from the JSON body worker with its
 * UTF-8 bytes, which the large-aspect worker takes as they are (`largeStringUtf8`); the string
 * itself is rebuilt on the event loop in pieces. Copying a 7 MB string from the worker at once
 * held the event loop 60-85 ms.
 */
export const PROPOSAL_LARGE_STRINGS = {
  ingestProposal: {
    largeStrings: { paths: [['proposal', 'aspect', 'value']], minChars: LARGE_ASPECT_CHARS },
  },
  ingestProposalBatch: {
    largeStrings: { paths: [['proposals', '*', 'aspect', 'value']], minChars: LARGE_ASPECT_CHARS },
  },
} as const
