/**
 * The scale benchmark's getLineage figures count the raw traversal's CPU over its timed calls
 * only, not over the warm-up rounds `timeInterleaved` also runs. `npx tap bench/lineage-scale.test.ts`
 */
import t from 'tap'
import { timedCpu } from './lineage-scale.js'

t.test('the CPU per call of the timed calls, warm-ups left out', async (t) => {
  // A clock where each call costs what the test says.
  let now = 0
  const clock = (before?: NodeJS.CpuUsage) => ({ user: now - (before?.user ?? 0), system: 0 })
  const cpu = timedCpu(4, clock)
  const call = (i: number, us: number) =>
    cpu.measure(i, () => {
      now += us
      return i
    })
  // As timeInterleaved runs them: warm-ups (i = samples and up) first, then the timed calls.
  for (let i = 4; i < 8; i++) call(i, 1_000)
  for (let i = 0; i < 4; i++) t.equal(call(i, 10 * (i + 1)), i, 'the call answers')
  t.equal(cpu.perCall(), 25, 'the mean of the 4 timed calls (10, 20, 30, 40 µs)')
})
