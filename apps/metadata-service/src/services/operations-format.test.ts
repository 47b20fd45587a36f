import t from 'tap'
import { javaFixed2 } from './operations-format.js'

t.test('javaFixed2 prints as Java\'s String.format("%.2f")', async (t) => {
  const cases: Array<[number, string]> = [
    [(5 / 14) * 100, '35.71'],
    [(12 / 14) * 100, '85.71'],
    [(1 / 8) * 100, '12.50'],
    [0.125, '0.13'],
    [1.005, '1.01'],
    [0.005, '0.01'],
    [0.004, '0.00'],
    [99.995, '100.00'],
    [100, '100.00'],
    [0, '0.00'],
    [1e-9, '0.00'],
    [123456789.125, '123456789.13'],
    [-2.5, '-2.50'],
    [Number.NaN, 'NaN'],
    [Number.POSITIVE_INFINITY, 'Infinity'],
  ]
  for (const [x, want] of cases) t.equal(javaFixed2(x), want, `${x} -> ${want}`)
})
