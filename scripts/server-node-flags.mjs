// The node flags a catalog server runs with. V8 sizes the main thread's young generation when
// node starts, so they cannot be set later from inside the process: the npm start scripts, the
// container's entry point and the tests' servers give them on node's command line.
//
// `--max-semi-space-size=8`: V8's default lets each of the main thread's two semi-spaces grow to
// 16 MB, which a busy server fills and keeps resident; at 8 MB the main thread's heap holds ~16 MB
// less after the scale benchmark's reads and searches, at the same CPU per read (see the README).
//
// `--heap-growing-percent=50`: after each major GC, V8 lets a heap grow to its live size times a
// factor it picks from the GC's speed, up to 4 on a machine with this much memory. Under a burst
// of large ingest batches each batch's objects outlive a few scavenges and are promoted, so the
// main thread's heap climbed from ~50 MB live to ~210 MB (and the search thread's likewise) before
// a major GC. Fixed at 1.5 (the flag is process-wide: every thread's heap), the heaps stay nearer
// their live size: after the ingest benchmark's 1,000,000 aspects the catalog held 397-421 MB
// against 478-607 MB (medians 408 and 526 of 3 alternated runs), at the same server CPU per
// single and batched write within the runs' noise; bench/ingest-rss.ts, 200,000 aspects: 377-386
// against 475-607 MB, main thread's heap ~100 against ~175 MB, CPU per aspect 185 against 177 µs
// (medians of 3). It caps nothing: a large batch still gets all the heap it needs.
import v8 from 'node:v8'

/** The flags, as given on node's command line or in NODE_OPTIONS. */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=8', '--heap-growing-percent=50']

/**
 * Lets the worker threads started from now on size their young generation themselves
 * (`resourceLimits`, else V8's default): V8 reads `--max-semi-space-size` for every new isolate
 * and the flag wins over a worker's `resourceLimits`, so the search worker's 32 MB would shrink to
 * the main thread's 8 (1.03-1.10x the CPU per search). The main thread keeps its size.
 */
export function releaseWorkerYoungGeneration() {
  v8.setFlagsFromString('--max-semi-space-size=0')
}
