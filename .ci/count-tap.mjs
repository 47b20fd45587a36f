// Counts the test points of a TAP stream (tap 21 output): leaf assertions pass or fail;
// a subtest that failed without any failing leaf (a crash, a timeout, a file that found no
// tests) counts as one failure. Prints the closing line CI reads: `N passed, N failed, N skipped`.
import { readFileSync } from 'node:fs'

const [file, exitCode = '0'] = process.argv.slice(2)
const lines = readFileSync(file, 'utf8').split('\n')
const point = /^(\s*)(ok|not ok) \d+(?: - ([^#]*))?(?:#\s*(SKIP|TODO)\b.*|#.*)?$/i
const subtest = /^(\s*)# Subtest: /
let passed = 0
let failed = 0
let skipped = 0
const open = [] // { indent, failedLeaves }

for (const line of lines) {
  const sub = subtest.exec(line)
  if (sub) {
    open.push({ indent: sub[1].length, failedLeaves: 0 })
    continue
  }
  const m = point.exec(line)
  if (!m) continue
  const indent = m[1].length
  const ok = m[2] === 'ok'
  const directive = (m[4] ?? '').toUpperCase()
  const top = open[open.length - 1]
  if (top && top.indent === indent) {
    open.pop()
    if (!ok && top.failedLeaves === 0 && directive !== 'TODO') {
      failed++
      for (const o of open) o.failedLeaves++
    } else if (open.length > 0) {
      open[open.length - 1].failedLeaves += top.failedLeaves
    }
    continue
  }
  if (directive === 'SKIP') skipped++
  else if (ok || directive === 'TODO') passed++
  else {
    failed++
    if (top) top.failedLeaves++
  }
}
if (Number(exitCode) !== 0 && failed === 0) failed = 1
process.stdout.write(`${passed} passed, ${failed} failed, ${skipped} skipped\n`)
process.exit(failed > 0 ? 1 : 0)
