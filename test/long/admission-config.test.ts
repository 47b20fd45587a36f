import t from 'tap'
import { startCatalog } from '../helpers/spawn.js'

/** `CATALOG_MAX_INFLIGHT_WRITES` reaches the server's admission control. */
t.test('CATALOG_MAX_INFLIGHT_WRITES=1: concurrent writes beyond one get 429 naming the limit', async (t) => {
  const { app } = await startCatalog(t, 'admission', { CATALOG_MAX_INFLIGHT_WRITES: '1' })
  const write = (i: number) =>
    fetch(`${app.url}/aspects?action=ingestProposal`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        proposal: {
          entityType: 'tag',
          entityUrn: `urn:li:tag:t${i}`,
          changeType: 'UPSERT',
          aspectName: 'tagProperties',
          aspect: { contentType: 'application/json', value: JSON.stringify({ name: `t${i}` }) },
        },
      }),
    })
  const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => write(i)))
  const refused = answers.filter((r) => r.status === 429)
  t.ok(
    answers.some((r) => r.status === 200),
    'one at a time gets in',
  )
  t.ok(refused.length > 0, `${refused.length} of 40 concurrent writes refused`)
  t.equal(refused[0]?.headers.get('retry-after'), '1')
  t.match(await refused[0]?.json(), { status: 429, message: /too many writes in flight \(limit 1\)/ })
  t.same(
    answers.filter((r) => r.status !== 200 && r.status !== 429).map((r) => r.status),
    [],
    'nothing else',
  )
})
