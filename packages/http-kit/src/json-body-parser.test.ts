import { request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { JsonText } from '@catalog/core'
import t, { type Test } from 'tap'
import { createServer } from './create-server.js'
import { CHUNK_ITEMS } from './json-body-chunks.js'
import { jsonBodyParser, largeStringUtf8, parseOnWorker, THREAD_BODY_BYTES } from './json-body-parser.js'

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

t.test(
  'another JSON content type (JSON Patch) parses as application/json does, large bodies too',
  async (t) => {
    const app = createServer({ admission: false, bodyLimit: 64 * 1024 * 1024 })
    app.addContentTypeParser('application/json-patch+json', jsonBodyParser(app))
    app.post('/echo', async (request) => ({ body: request.body }))
    await app.ready()
    t.teardown(() => app.close())
    const post = (payload: string, type: string) =>
      app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': type }, payload })
    const patch = Array.from({ length: THREAD_BODY_BYTES / 40 }, (_, i) => ({
      op: 'add',
      path: `/fields/${i}`,
      value: { fieldPath: `c${i} ☕` },
    }))
    const cases = [
      JSON.stringify(patch),
      JSON.stringify([{ op: 'remove', path: '/a' }]),
      '[{"op": "add",}]',
      `[{"op":"add","pad":"${'x'.repeat(THREAD_BODY_BYTES)}","value":{"__proto__":{"polluted":true}}}]`,
      '',
    ]
    for (const [i, body] of cases.entries()) {
      const json = await post(body, 'application/json')
      const patched = await post(body, 'application/json-patch+json')
      t.equal(patched.statusCode, json.statusCode, `case ${i}: the same status`)
      t.same(patched.json(), json.json(), `case ${i}: the same answer`)
    }
    t.same((await post(cases[0] as string, 'application/json-patch+json')).json().body, patch)
  },
)

t.test('a route naming jsonText paths gets its large values there as JsonText', async (t) => {
  const app = createServer({ admission: false, bodyLimit: 64 * 1024 * 1024 })
  const seen: unknown[] = []
  app.post(
    '/snap',
    { config: { jsonText: { paths: [['items', '*', 'value']], minChars: 100_000 } } },
    async (request) => {
      seen.push(request.body)
      return { ok: true }
    },
  )
  await app.ready()
  t.teardown(() => app.close())
  const post = (payload: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: '/snap', headers: { 'content-type': 'application/json' }, payload })
  const wide = large(THREAD_BODY_BYTES * 2)
  const small = { name: 'naïve ☕', n: [1, 2] }
  const res = await post({ items: [{ value: small }, { value: wide }], value: wide })
  t.equal(res.statusCode, 200)
  const body = seen[0] as { items: Array<{ value: unknown }>; value: unknown }
  t.same(body.items[0]?.value, small, 'a small value stays parsed')
  const text = body.items[1]?.value
  t.ok(text instanceof JsonText, 'a large value at a path comes as JsonText')
  t.equal((text as JsonText).chars, JSON.stringify(wide).length, 'with its length in characters')
  t.same((text as JsonText).parse(), wide, 'which parses to the value sent')
  t.same(JSON.parse(JSON.stringify(body.items[1])), { value: wide }, 'and serializes as it')
  t.same(body.value, wide, 'a large value elsewhere is parsed')
  const bytes = (text as JsonText).take()
  t.equal(new TextDecoder().decode(bytes), JSON.stringify(wide), 'its bytes are the UTF-8 JSON text')
  t.throws(() => (text as JsonText).parse(), 'handed over: no second read')
  // Below THREAD_BODY_BYTES the body is parsed on the event loop, as it was.
  await post({ items: [{ value: { list: Array.from({ length: 2_000 }, (_, i) => `item ${i}`) } }] })
  t.notOk((seen[1] as { items: Array<{ value: unknown }> }).items[0]?.value instanceof JsonText)
})

t.test('a route naming largeStrings paths gets its large strings there with their UTF-8 bytes', async (t) => {
  const app = createServer({ admission: false, bodyLimit: 64 * 1024 * 1024 })
  const seen: Array<{ items: Array<{ aspect: { value: string } }> }> = []
  app.post(
    '/propose',
    { config: { largeStrings: { paths: [['items', '*', 'aspect', 'value']], minChars: 100_000 } } },
    async (request) => {
      seen.push(request.body as (typeof seen)[number])
      return { ok: true }
    },
  )
  await app.ready()
  t.teardown(() => app.close())
  // Multi-byte characters everywhere, so that some straddle the decoder's 256 KiB pieces.
  const big = JSON.stringify(large(THREAD_BODY_BYTES * 3))
  const items = [
    { aspect: { value: '{"small":"☕"}' } },
    { aspect: { value: big } },
    { aspect: { value: `${big}😀` } },
    { aspect: { value: `\ufeff${big}` } },
    { aspect: { value: `${big}\ud800` } },
  ]
  const res = await app.inject({
    method: 'POST',
    url: '/propose',
    headers: { 'content-type': 'application/json' },
    payload: { items, pad: 'x'.repeat(THREAD_BODY_BYTES) },
  })
  t.equal(res.statusCode, 200)
  const body = seen[0] as (typeof seen)[number]
  t.same(
    body.items.map((item) => item.aspect.value),
    items.map((item) => item.aspect.value),
    'every string as sent',
  )
  const [small, first, second] = body.items.map((item) => item.aspect) as [
    { value: string },
    { value: string },
    { value: string },
  ]
  t.equal(largeStringUtf8(small, 'value'), undefined, 'a short string comes without bytes')
  const utf8 = largeStringUtf8(first, 'value')
  t.ok(utf8?.buffer instanceof SharedArrayBuffer, 'a large one with its bytes in shared memory')
  t.equal(new TextDecoder().decode(utf8), big, 'which are its UTF-8')
  t.equal(new TextDecoder().decode(largeStringUtf8(second, 'value')), `${big}😀`)
  const [, , , bom, lone] = body.items.map((item) => item.aspect) as Array<{ value: string }>
  const bomBytes = largeStringUtf8(bom as object, 'value')
  t.ok(bomBytes && Buffer.from(`\ufeff${big}`).equals(Buffer.from(bomBytes)), 'a leading U+FEFF is kept')
  t.equal(largeStringUtf8(lone as object, 'value'), undefined, 'a lone surrogate keeps the string as it is')
  first.value = 'replaced'
  t.equal(largeStringUtf8(first, 'value'), undefined, 'a replaced string no longer has them')
  t.equal(largeStringUtf8(first, 'other'), undefined)
})

t.test('long top-level arrays come back whole and in order, with large values inside them', async (t) => {
  const item = (i: number) => ({ i, name: `item ${i} ☕` })
  const lengths = [CHUNK_ITEMS - 1, CHUNK_ITEMS, CHUNK_ITEMS + 1, CHUNK_ITEMS * 4, CHUNK_ITEMS * 4 + 7]
  const body: Record<string, unknown> = { pad: 'x'.repeat(THREAD_BODY_BYTES), nested: { deep: [item(1)] } }
  for (const n of lengths) body[`list_${n}`] = Array.from({ length: n }, (_, i) => item(i))
  const wide = large(THREAD_BODY_BYTES)
  const entities = Array.from({ length: CHUNK_ITEMS * 3 }, (_, i) => ({
    value: i === 1_200 ? wide : item(i),
  }))
  body.entities = entities
  const parsed = (await parseOnWorker([Buffer.from(JSON.stringify(body))], {
    paths: [['entities', '*', 'value']],
    minChars: 100_000,
  })) as Record<string, unknown> & { entities: Array<{ value: unknown }> }
  const text = parsed.entities[1_200]?.value
  t.ok(text instanceof JsonText, 'a large value at its place in a chunked array')
  t.same((text as JsonText).parse(), wide)
  parsed.entities[1_200] = { value: wide }
  t.same(parsed, body, 'everything else as JSON.parse gives it')
  t.same(Object.keys(parsed), Object.keys(body), 'members in their order')
})
