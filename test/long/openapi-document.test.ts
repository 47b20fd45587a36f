import t from 'tap'
import { Value } from 'typebox/value'
import { build, type Json } from '../helpers/build.js'

const PREFIX = '/openapi/v3/entity'
const DOCS = '/openapi/v3/api-docs'
const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete'] as const

/** Every `$ref` in the document, with where it was found. */
function refs(node: unknown, at = '#', out: Array<[string, string]> = []): Array<[string, string]> {
  if (Array.isArray(node)) {
    for (const [i, v] of node.entries()) refs(v, `${at}/${i}`, out)
  } else if (node !== null && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.push([v, at])
      else refs(v, `${at}/${k}`, out)
    }
  }
  return out
}

/** Resolves `#/components/<kind>/<name>`; undefined when it points nowhere. */
function resolve(doc: Json, ref: string): unknown {
  const m = /^#\/components\/([^/]+)\/([^/]+)$/.exec(ref)
  return m ? doc.components?.[m[1] as string]?.[m[2] as string] : undefined
}

/** The components' schemas with local `$ref`s by name, as TypeBox's Value resolves them. */
function schemaContext(doc: Json): Record<string, Json> {
  const text = JSON.stringify(doc.components.schemas).replaceAll('"#/components/schemas/', '"')
  return JSON.parse(text)
}

t.test('the v3 document is valid OpenAPI and lists every served entity route', async (t) => {
  const { app, registry, routes } = await build(t, { auth: true })
  const res = await app.inject({ method: 'GET', url: DOCS })
  t.equal(res.statusCode, 200, 'served without a token, as the other docs')
  t.match(res.headers['content-type'], /application\/json/)
  const doc = JSON.parse(res.body)
  t.equal(doc.openapi, '3.1.0')
  t.match(doc.info, { title: 'Entity API', version: 'v3' })
  t.ok(doc.components.securitySchemes.bearer, 'bearer auth is declared')

  // Structure: every operation answers something; every `{param}` of a path is declared.
  let operations = 0
  const outside = Object.keys(doc.paths).filter((path) => !path.startsWith(`${PREFIX}/`))
  t.same(outside, [], `every path is under ${PREFIX}`)
  for (const [path, item] of Object.entries<Json>(doc.paths)) {
    const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1])
    for (const method of Object.keys(item)) {
      if (!(METHODS as readonly string[]).includes(method)) t.fail(`${path}: ${method} is not an HTTP method`)
      const op = item[method]
      operations++
      if (Object.keys(op.responses ?? {}).length === 0) t.fail(`${method} ${path} has no responses`)
      const params = (op.parameters ?? []).map((p: Json) => (p.$ref ? resolve(doc, p.$ref) : p))
      for (const name of templated) {
        if (!params.some((p: Json) => p?.in === 'path' && p.name === name && p.required === true)) {
          t.fail(`${method} ${path} does not declare its path parameter ${name}`)
        }
      }
    }
  }
  t.ok(operations > 1000, `${operations} operations`)

  // Every $ref resolves.
  const all = refs(doc)
  const broken = all.filter(([ref]) => resolve(doc, ref) === undefined)
  t.same(broken.slice(0, 5), [], `all ${all.length} $refs resolve`)

  // Every route served under /openapi/v3/entity appears, for every entity type; and nothing else.
  const served = routes.filter((r) => r.path.startsWith(PREFIX))
  t.ok(served.length >= 8, `${served.length} served routes`)
  const expected = new Set<string>()
  for (const r of served) {
    const method = r.method.toLowerCase()
    if (!r.path.includes(':entityName')) {
      expected.add(`${method} ${r.path}`)
      continue
    }
    for (const entity of registry.allEntities()) {
      const base = r.path.replace(':entityName', entity.name)
      if (!base.endsWith('/*')) {
        expected.add(`${method} ${base}`)
        continue
      }
      const one = base.slice(0, -2)
      if (method === 'get' || method === 'delete') expected.add(`${method} ${one}/{urn}`)
      for (const aspect of [entity.keyAspect, ...entity.aspects]) {
        expected.add(`${method} ${one}/{urn}/${aspect}`)
      }
    }
  }
  const documented = new Set<string>()
  for (const [path, item] of Object.entries<Json>(doc.paths)) {
    for (const method of Object.keys(item)) if (method !== 'head') documented.add(`${method} ${path}`)
  }
  const missing = [...expected].filter((e) => !documented.has(e))
  const extra = [...documented].filter((e) => !expected.has(e))
  t.same(missing.slice(0, 5), [], `all ${expected.size} served operations are documented`)
  t.same(extra.slice(0, 5), [], 'only served operations are documented')
  t.ok(doc.paths[`${PREFIX}/dataset/{urn}`].head, 'HEAD is documented')

  // The grouped document is the same; the swagger UI reads it through its config.
  const grouped = await app.inject({ method: 'GET', url: `${DOCS}/10-openapi-v3` })
  t.equal(grouped.body, res.body, 'the 10-openapi-v3 group is the same document')
  const config = JSON.parse((await app.inject({ method: 'GET', url: `${DOCS}/swagger-config` })).body)
  t.equal(config.urls[0].url, `${DOCS}/10-openapi-v3`)
  const ui = await app.inject({ method: 'GET', url: '/openapi/swagger-ui/index.html' })
  t.equal(ui.statusCode, 200)
  t.match(ui.body, `${DOCS}/swagger-config`)
  for (const asset of ui.body.matchAll(/src="([^"]+)"/g)) {
    const got = await app.inject({ method: 'GET', url: asset[1] as string })
    t.equal(got.statusCode, 200, `${asset[1]} is served`)
  }
  const redirect = await app.inject({ method: 'GET', url: '/openapi/swagger-ui' })
  t.equal(redirect.headers.location, '/openapi/swagger-ui/index.html')
  const api = await app.inject({ method: 'GET', url: `${PREFIX}/dataset` })
  t.equal(api.statusCode, 401, 'the API the document describes still needs a token')
})

t.test('request bodies the schemas accept are written; ones they refuse are refused', async (t) => {
  const { app } = await build(t)
  const doc = JSON.parse((await app.inject({ method: 'GET', url: DOCS })).body)
  const context = schemaContext(doc)
  const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,openapi.doc,PROD)'
  const body = [
    {
      urn,
      status: { value: { removed: false } },
      datasetProperties: { value: { description: 'documented', customProperties: { team: 'core' } } },
      ownership: {
        value: {
          owners: [{ owner: 'urn:li:corpuser:jdoe', type: 'DATAOWNER' }],
          lastModified: { time: 0, actor: 'urn:li:corpuser:jdoe' },
        },
      },
      globalTags: { value: { tags: [{ tag: 'urn:li:tag:Doc' }] } },
    },
  ]
  const op = doc.paths[`${PREFIX}/dataset`].post
  const schema = op.requestBody.content['application/json'].schema
  const check = (value: unknown) =>
    Value.Check(context, JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"')), value)
  t.ok(check(body), 'the sample body validates against DatasetEntityRequest_v3')
  const written = await app.inject({ method: 'POST', url: `${PREFIX}/dataset`, payload: body })
  t.equal(written.statusCode, 200, 'and the server takes it')
  const response = doc.paths[`${PREFIX}/dataset`].post.responses['200'].content['application/json'].schema
  const answer = JSON.parse(written.body)
  t.ok(
    Value.Check(
      context,
      JSON.parse(JSON.stringify(response).replaceAll('"#/components/schemas/', '"')),
      answer,
    ),
    'the answer validates against its response schema',
  )

  const bad = structuredClone(body)
  ;(bad[0] as Json).status.value.removed = 'yes'
  t.notOk(check(bad), 'a string for a boolean breaks the schema')
  const refused = await app.inject({ method: 'POST', url: `${PREFIX}/dataset`, payload: bad })
  t.equal(refused.statusCode, 422, 'and the server refuses it')
  const missing = structuredClone(body)
  delete (missing[0] as Json).ownership.value.owners
  t.notOk(check(missing), 'a required member missing breaks the schema')
  t.equal((await app.inject({ method: 'POST', url: `${PREFIX}/dataset`, payload: missing })).statusCode, 422)

  // One aspect through its own path, with its own request schema.
  const aspectOp = doc.paths[`${PREFIX}/dataset/{urn}/datasetProperties`].post
  const aspectSchema = JSON.parse(
    JSON.stringify(aspectOp.requestBody.content['application/json'].schema).replaceAll(
      '"#/components/schemas/',
      '"',
    ),
  )
  const item = { value: { description: 'one aspect' } }
  t.ok(Value.Check(context, aspectSchema, item))
  t.notOk(Value.Check(context, aspectSchema, { value: { description: 7 } }))
  const one = await app.inject({
    method: 'POST',
    url: `${PREFIX}/dataset/${encodeURIComponent(urn)}/datasetProperties`,
    payload: item,
  })
  t.equal(one.statusCode, 200)
})
