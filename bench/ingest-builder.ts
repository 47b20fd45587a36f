/**
 * The ingest work above the store, in process: batches of 100 proposals of new datasets turned
 * into a store batch ({@link BatchBuilder}: URN, registry validation, canonical JSON, edges,
 * default aspects), then what the SQLite store asks of it (each new entity's default aspects
 * and their canonical JSON). No HTTP, no SQLite: the CPU of the ingest path's own code per
 * aspect, steadier than a server's on a shared machine. Compare two trees with it by running it
 * in each, alternately.
 *
 * `node --import tsx bench/ingest-builder.ts [rounds]` (default 3,000 rounds of 100).
 */
import { canonicalJson, Registry } from '@catalog/core'
import type { Proposal } from '../apps/metadata-service/src/schemas/ingest.js'
import { BatchBuilder } from '../apps/metadata-service/src/services/batch-builder.js'
import { benchProposal as proposal } from './ingest-proposal.js'

const BATCH = 100
const ROUNDS = Number(process.argv[2] ?? 3_000)
const WARM_UP_ROUNDS = 2_000

const registry = new Registry()

let next = 0
/** Characters made, so that nothing is optimized away. */
let made = 0

/** One call's work; returns its CPU µs (the proposals are made before the clock starts). */
function round(): number {
  const proposals = Array.from({ length: BATCH }, () => proposal(next++))
  const before = process.cpuUsage()
  const builder = new BatchBuilder(registry, { time: Date.now(), actor: 'urn:li:corpuser:datahub' })
  for (let k = 0; k < proposals.length; k++) builder.addProposal(proposals[k] as Proposal, `proposals[${k}]`)
  const batch = builder.build()
  for (const m of batch.mutations) {
    if (m.kind === 'upsert') made += (m.valueJson ?? canonicalJson(m.value)).length + m.edges.length
  }
  for (const d of batch.defaults ?? []) {
    for (const a of d.aspects) made += canonicalJson(a.value).length + a.edges.length
  }
  const used = process.cpuUsage(before)
  return used.user + used.system
}

for (let i = 0; i < WARM_UP_ROUNDS; i++) round()
let us = 0
for (let i = 0; i < ROUNDS; i++) us += round()
process.stdout.write(
  `ingest above the store: ${(us / (ROUNDS * BATCH)).toFixed(2)} CPU-µs per aspect (${ROUNDS * BATCH} aspects of new datasets, ${made} characters made)\n`,
)
