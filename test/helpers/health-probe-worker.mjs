// Probes `/health` every 10 ms on a thread of its own, so the test thread's work (serializing a
// 7 MB body, parsing a 5 MB answer) does not delay the probes' timing. Times are epoch ms with
// sub-millisecond precision (timeOrigin + now), comparable across threads.
import { parentPort, workerData } from 'node:worker_threads'

const port = parentPort
const probes = []
let running = true
port.on('message', () => {
  running = false
})
while (running) {
  const sent = performance.timeOrigin + performance.now()
  const res = await fetch(`${workerData.url}/health`)
  await res.arrayBuffer()
  probes.push({ sent, answered: performance.timeOrigin + performance.now() })
  await new Promise((resolve) => setTimeout(resolve, 10))
}
port.postMessage(probes)
port.close()
