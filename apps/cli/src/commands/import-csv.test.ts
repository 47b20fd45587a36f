import t from 'tap'
import { CsvReader } from './import-csv.js'

const TEXT = 'a,b,c\r\n"x,1","he said ""hi""","multi\nline"\n1,,3\n"",q,"z"'
const ROWS = [
  ['a', 'b', 'c'],
  ['x,1', 'he said "hi"', 'multi\nline'],
  ['1', '', '3'],
  ['', 'q', 'z'],
]

t.test('quoted separators, doubled quotes and line breaks, in chunks of every size', async (t) => {
  for (let size = 1; size <= TEXT.length; size++) {
    const reader = new CsvReader()
    const rows: string[][] = []
    for (let i = 0; i < TEXT.length; i += size) rows.push(...reader.push(TEXT.slice(i, i + size)))
    const last = reader.end()
    if (last) rows.push(last)
    t.same(rows, ROWS, `chunks of ${size}`)
  }
})

t.test('a final line break ends the last row; blank lines are no rows', async (t) => {
  const reader = new CsvReader()
  t.same(reader.push('a,b\n\nc,d\n'), [
    ['a', 'b'],
    ['c', 'd'],
  ])
  t.equal(reader.end(), undefined)
})
