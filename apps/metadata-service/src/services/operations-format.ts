/**
 * Java's `String.format("%.2f", x)` (English locale): the shortest decimal that identifies
 * the double, rounded half-up to two places; `NaN` and `Infinity` spelled as Java does.
 * (JavaScript's `toFixed` rounds the binary value instead: `(1.005).toFixed(2)` is `1.00`,
 * Java prints `1.01`.)
 */
export function javaFixed2(x: number): string {
  if (Number.isNaN(x)) return 'NaN'
  if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : '-Infinity'
  const negative = x < 0 || Object.is(x, -0)
  const [mantissa, exp] = Math.abs(x).toExponential().split('e') as [string, string]
  const digits = mantissa.replace('.', '')
  // value = 0.<digits> * 10^(exponent + 1); scale to hundredths.
  const point = Number(exp) + 1
  const wholeLength = point + 2
  let kept: string
  let roundUp: boolean
  if (wholeLength <= 0) {
    kept = '0'
    roundUp = wholeLength === 0 && Number(digits[0]) >= 5
  } else {
    const padded = digits.padEnd(wholeLength, '0')
    kept = padded.slice(0, wholeLength)
    roundUp = Number(digits[wholeLength] ?? '0') >= 5
  }
  let hundredths = BigInt(kept)
  if (roundUp) hundredths += 1n
  const text = hundredths.toString().padStart(3, '0')
  const out = `${text.slice(0, -2)}.${text.slice(-2)}`
  return negative ? `-${out}` : out
}
