import { request } from 'node:http'
import type { AddressInfo } from 'node:net'
import t, { type Test } from 'tap'
import { createServer } from './create-server.js'
import { THREAD_BODY_BYTES } from './json-body-parser.js'

/** A server echoing the parsed body, answered through fastify's inject (the same parsers as over HTTP). */
async function echoServer(t: Test) {
  const app = createServer({ admission: false, bodyLimit: 64 * 1024 * 1024 })
  app.post('/echo', async (request) => ({ body: request.body }))
  await app.ready()
  t.teardown(() => app.close())
  return (payload: string | Buffer) =>
    app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload })
}

/** A JSON document of at least `bytes` bytes: a long escaped string, many small objects, non-ASCII text. */
function large(bytes: number, extra: Record<string, unknown> = {}) {
  const items = Array.from({ length: Math.ceil(bytes / 60) }, (_, i) => ({
    fieldPath: `column_${i}`,
    description: `naïve café ☕ 数据 ${i} "quoted" \\ back`,
  }))
  return { value: JSON.stringify({ items: items.slice(0, 50) }), items, ...extra }
}

t.test('a large body parses to what JSON.parse gives', async (t) => {
  const post = await echoServer(t)
  const doc = large(THREAD_BODY_BYTES * 4)
  const text = JSON.stringify(doc)
  t.ok(Buffer.byteLength(text) > THREAD_BODY_BYTES * 4)
  const res = await post(text)
  t.equal(res.statusCode, 200)
  t.same(res.json().body, doc)
  const bom = await post(`\ufeff${text}`)
  t.equal(bom.statusCode, 200, 'a leading byte order mark is skipped, as fastify does')
  t.same(bom.json().body, doc)
  const scalar = await post(`${' '.repeat(THREAD_BODY_BYTES)}"text"`)
  t.equal(scalar.statusCode, 200, 'a large document that is a string')
  t.equal(scalar.json().body, 'text')
})

t.test('a large body gets the same answers as a small one for bad JSON', async (t) => {
  const post = await echoServer(t)
  const pad = (body: string) => body.replace('{', `{"pad":"${'x'.repeat(THREAD_BODY_BYTES)}",`)
  const cases: Array<[string, string]> = [
    ['malformed', '{"a": [1, 2,}'],
    ['__proto__', '{"a": {"b": 1, "__proto__": {"polluted": true}}}'],
    ['escaped __proto__', '{"a": [{"\\u005f_proto__": {"polluted": true}}]}'],
    ['constructor.prototype', '{"a": {"constructor": {"prototype": {"polluted": true}}}}'],
  ]
  for (const [name, small] of cases) {
    const inline = await post(small)
    const threaded = await post(pad(small))
    t.ok(Buffer.byteLength(pad(small)) >= THREAD_BODY_BYTES, `${name}: the padded body goes to the worker`)
    t.equal(inline.statusCode, 400, `${name}: refused inline`)
    t.equal(threaded.statusCode, inline.statusCode, `${name}: the same status from the worker`)
    t.same(threaded.json(), inline.json(), `${name}: the same body from the worker`)
  }
  const constructorText = pad('{"constructor": "a name", "prototype": {"x": 1}}')
  const accepted = await post(constructorText)
  t.equal(accepted.statusCode, 200, 'a constructor key that is not an object with a prototype is data')
  t.equal(accepted.json().body.constructor, 'a name')
  t.equal(({} as { polluted?: boolean }).polluted, undefined, 'no prototype was touched')
})

t.test('a body sent in small chunks decodes multi-byte characters split across them', async (t) => {
  const app = createServer({ admission: false })
  app.post('/echo', async (req) => ({ body: req.body }))
  await app.listen({ port: 0, host: '127.0.0.1' })
  t.teardown(() => app.close())
  const doc = large(THREAD_BODY_BYTES * 2)
  const bytes = Buffer.from(JSON.stringify(doc))
  const answer = await new Promise<string>((resolve, reject) => {
    const port = (app.server.address() as AddressInfo).port
    const req = request({
      port,
      method: 'POST',
      path: '/echo',
      headers: { 'content-type': 'application/json' },
    })
    req.on('response', (res) => {
      const parts: Buffer[] = []
      res.on('data', (part: Buffer) => parts.push(part))
      res.on('end', () => resolve(Buffer.concat(parts).toString()))
    })
    req.on('error', reject)
    // 997-byte chunks: the boundaries fall inside two- and three-byte characters.
    for (let at = 0; at < bytes.length; at += 997) req.write(bytes.subarray(at, at + 997))
    req.end()
  })
  t.same(JSON.parse(answer).body, doc)
})
