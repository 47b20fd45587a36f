/**
 * `npm run bench [-- ingest|reads|search|scale|lineage|overload|import]`: runs the benchmarks, each printing its
 * figures beside baselines measured in the same run (all but `scale` when none is named).
 * BENCH_SCALE=0.1 gives a quick smaller run.
 */
import { importBench } from './import.js'
import { ingestBench } from './ingest.js'
import { lineageBench } from './lineage.js'
import { pipelineBench } from './lineage-pipeline.js'
import { overloadBench } from './overload.js'
import { readsBench } from './reads.js'
import { scaleBench } from './scale.js'
import { searchBench } from './search.js'

const suites: Record<string, () => Promise<string[]>> = {
  import: importBench,
  ingest: ingestBench,
  lineage: lineageBench,
  overload: overloadBench,
  pipeline: pipelineBench,
  reads: readsBench,
  scale: scaleBench,
  search: searchBench,
}
/** `scale` (a million datasets by default, ~15 min on 2 cores) runs only when named. */
const DEFAULT = Object.keys(suites).filter((name) => name !== 'scale')
const wanted = process.argv.slice(2)
const names = wanted.length > 0 ? wanted : DEFAULT
for (const name of names) {
  const suite = suites[name]
  if (!suite) {
    process.stderr.write(`unknown benchmark ${name}; known: ${Object.keys(suites).join(', ')}\n`)
    process.exit(2)
  }
  process.stdout.write(`\n== ${name} ==\n`)
  await suite()
}
