import type { AddressInfo } from 'node:net'
import t, { type Test } from 'tap'
import { inParts, rawPost } from '../../../test/helpers/raw-post.js'
import { BODY_BLOCK_BYTES } from './body-blocks.js'
import { createServer } from './create-server.js'

/** A listening server echoing the parsed JSON body, with a route of its own limit. */
async function echoServer(t: Test) {
  const app = createServer({ admission: false, bodyLimit: 8 * 1024 * 1024 })
  app.post('/echo', async (req) => ({ body: req.body }))
  app.post('/small', { bodyLimit: 1_000 }, async (req) => ({ body: req.body }))
  await app.listen({ port: 0, host: '127.0.0.1' })
  t.teardown(() => app.close())
  return (app.server.address() as AddressInfo).port
}

t.test('a body of several blocks arrives whole, with or without a content-length', async (t) => {
  const port = await echoServer(t)
  const doc = { text: 'é☕'.repeat(BODY_BLOCK_BYTES / 2), n: [1, 2, 3] }
  const bytes = Buffer.from(JSON.stringify(doc))
  t.ok(bytes.length > 2 * BODY_BLOCK_BYTES, 'more than two blocks')
  const chunked = await rawPost(port, '/echo', inParts(bytes, 65_521))
  t.equal(chunked.status, 200, 'chunked')
  t.same(JSON.parse(chunked.body).body, doc)
  const sized = await rawPost(port, '/echo', inParts(bytes, 65_521), { 'content-length': bytes.length })
  t.equal(sized.status, 200, 'with a content-length')
  t.same(JSON.parse(sized.body).body, doc)
  const small = await rawPost(port, '/echo', [Buffer.from('{"a":'), Buffer.from('1}')])
  t.same(JSON.parse(small.body).body, { a: 1 }, 'a small chunked body')
})

t.test("a body over the route's limit is refused as fastify refuses it", async (t) => {
  const port = await echoServer(t)
  const body = Buffer.from(JSON.stringify({ text: 'x'.repeat(2_000) }))
  const announced = await rawPost(port, '/small', [body], { 'content-length': body.length })
  t.equal(announced.status, 413, 'announced by its content-length')
  t.equal(JSON.parse(announced.body).message, 'Request body is too large')
  const streamed = await rawPost(port, '/small', inParts(body, 300))
  t.equal(streamed.status, 413, 'found while it streams (no content-length)')
  t.equal(JSON.parse(streamed.body).message, 'Request body is too large')
  const ok = await rawPost(port, '/small', [Buffer.from('{"a":1}')])
  t.equal(ok.status, 200, 'a body under the limit passes')
})

t.test("an empty JSON body gets fastify's answer", async (t) => {
  const port = await echoServer(t)
  const empty = await rawPost(port, '/echo', [], { 'content-length': 0 })
  t.equal(empty.status, 400)
  t.equal(
    JSON.parse(empty.body).message,
    "Body cannot be empty when content-type is set to 'application/json'",
  )
})
