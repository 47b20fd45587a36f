import { createHash } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { createServer } from '@catalog/http-kit'
import t, { type Test } from 'tap'
import { inParts, rawPost } from '../../../test/helpers/raw-post.js'
import { proxyRoutes } from './proxy.js'

/** A backend that answers what it got (length and digest) and, on GET, a large body; a gateway in front. */
async function gatewayOver(t: Test, bodyLimit = 64 * 1024 * 1024) {
  const backend = createServer({ admission: false, bodyLimit })
  const seen = { requests: 0 }
  backend.addHook('onRequest', async () => {
    seen.requests++
  })
  backend.removeAllContentTypeParsers()
  backend.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body))
  backend.post('/aspects', async (req) => {
    const body = req.body as Buffer
    return {
      bytes: body.length,
      sha: createHash('sha256').update(body).digest('hex'),
      type: req.headers['content-type'],
      length: req.headers['content-length'],
    }
  })
  backend.get('/large', async (_req, reply) => reply.type('application/json').send(LARGE))
  const base = await backend.listen({ port: 0, host: '127.0.0.1' })
  t.teardown(() => backend.close())
  const gateway = createServer({ admission: false, bodyLimit })
  await gateway.register(proxyRoutes, { targets: { metadata: base, search: base } })
  await gateway.listen({ port: 0, host: '127.0.0.1' })
  t.teardown(() => gateway.close())
  return { port: (gateway.server.address() as AddressInfo).port, seen }
}

const LARGE = JSON.stringify({ text: 'é☕x'.repeat(1_500_000) })

/** Posts `body` to the gateway's `/aspects` in 64 KB writes (chunked unless `headers` give a content-length). */
const post = (port: number, body: Buffer, headers: Record<string, string> = {}) =>
  rawPost(port, '/aspects', inParts(body, 65_536), headers)

t.test('the split-mode proxy passes large bodies on byte for byte, both ways', async (t) => {
  const { port } = await gatewayOver(t)
  const body = Buffer.from(LARGE)
  const sized: Record<string, string> = { 'content-length': String(body.length) }
  for (const headers of [{}, sized]) {
    const res = await post(port, body, headers)
    t.equal(res.status, 200)
    t.same(
      JSON.parse(res.body),
      {
        bytes: body.length,
        sha: createHash('sha256').update(body).digest('hex'),
        type: 'application/json',
        length: String(body.length),
      },
      `the request body arrives whole, its length told${'content-length' in headers ? ' (with a content-length)' : ' (chunked)'}`,
    )
  }
  const got = await fetch(`http://127.0.0.1:${port}/large`)
  t.equal(got.headers.get('content-type'), 'application/json; charset=utf-8')
  t.equal(got.headers.get('content-length'), String(Buffer.byteLength(LARGE)), 'with its length')
  t.equal(await got.text(), LARGE, 'a large answer comes back whole')
})

t.test('the proxy refuses a body over its limit as the services do, and forwards nothing', async (t) => {
  const { port, seen } = await gatewayOver(t, 1_000)
  const res = await post(port, Buffer.from(JSON.stringify({ text: 'x'.repeat(5_000) })))
  t.equal(res.status, 413)
  t.equal(JSON.parse(res.body).message, 'Request body is too large')
  t.equal(seen.requests, 0, 'nothing reached the service')
})
