import t from 'tap'
import { UrlMemo } from './url-memo.js'

t.test('UrlMemo: a URL parsed once, its result handed out again; failures not remembered', async (t) => {
  const memo = new UrlMemo<{ urn: string }>(6)
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
  for (const url of ['/b', '/c']) memo.get(url, parse(url))
  t.equal(memo.get('/a', parse('/a')), first, '6 characters of URLs are kept')
  memo.get('/d', parse('/d'))
  t.not(memo.get('/a', parse('/a')), first, 'past its characters everything is dropped')
  t.equal(parses, 7)
  const long = `/${'x'.repeat(10)}`
  memo.get(long, parse(long))
  t.equal(memo.get(long, parse(long)).urn.length, 10, 'a URL longer than the memo is answered')
})
