import t from 'tap'
import { UrlMemo } from './url-memo.js'

t.test('UrlMemo: a URL parsed once, its result handed out again; failures not remembered', async (t) => {
  const memo = new UrlMemo<{ urn: string }>(3)
  let parses = 0
  const parse = (url: string) => () => {
    parses++
    if (url.includes('%')) throw new Error('malformed')
    return { urn: url.slice(1) }
  }
  const first = memo.get('/a', parse('/a'))
  t.equal(memo.get('/a', parse('/a')), first, 'the same object again')
  t.equal(parses, 1)
  t.throws(() => memo.get('/%', parse('/%')), /malformed/)
  t.throws(() => memo.get('/%', parse('/%')), /malformed/, 'a failure is parsed (and fails) again')
  t.equal(parses, 3)
  for (const url of ['/b', '/c', '/d']) memo.get(url, parse(url))
  t.not(memo.get('/a', parse('/a')), first, 'past its size everything is dropped')
  t.equal(parses, 7)
})
