// The node flags a catalog server runs with. V8 sizes the main thread's young generation when
// node starts, so they cannot be set later from inside the process: the npm start scripts, the
// container's entry point and the tests' servers give them on node's command line.
//
// `--max-semi-space-size=8`: V8's default lets each of the main thread's two semi-spaces grow to
// 16 MB, which a busy server fills and keeps resident; at 8 MB the main thread's heap holds ~16 MB
// less after the scale benchmark's reads and searches, at the same CPU per read (see the README).

import v8 from 'node:v8'

/** The flags, as given on node's command line or in NODE_OPTIONS. */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=8']

/**
 * Lets the worker threads started from now on size their young generation themselves
 * (`resourceLimits`, else V8's default): V8 reads `--max-semi-space-size` for every new isolate
 * and the flag wins over a worker's `resourceLimits`, so the search worker's 32 MB would shrink to
 * the main thread's 8 (1.03-1.10x the CPU per search). The main thread keeps its size.
 */
export function releaseWorkerYoungGeneration() {
  v8.setFlagsFromString('--max-semi-space-size=0')
}
