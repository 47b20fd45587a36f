import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { UnavailableError } from '@catalog/core'
import t from 'tap'
import { httpActiveCheck } from './http-active-check.js'

t.test('a known token stays valid for a short while when the metadata service is down', async (t) => {
  const server = createServer((req, res) => {
    res.statusCode = req.headers.authorization === 'Bearer live' ? 200 : 401
    res.end('{}')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  let clock = 1_000_000
  const check = httpActiveCheck(url, 1000, { staleIfUnavailableMs: 60_000, now: () => clock })

  t.equal(await check('a', 'live'), true)
  t.equal(await check('b', 'revoked'), false)
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))

  clock += 30_000
  t.equal(await check('a', 'live'), true, 'the last answer stands in during the outage')
  t.equal(await check('b', 'revoked'), false, 'a revoked token stays revoked')
  await t.rejects(check('c', 'live'), UnavailableError, 'an unknown token cannot be checked')
  clock += 31_000
  await t.rejects(check('a', 'live'), UnavailableError, 'past the stale window the outage shows')
})

t.test('a token the metadata service authenticates but may not read its own entity is active', async (t) => {
  const server = createServer((req, res) => {
    res.statusCode = req.headers.authorization === 'Bearer no-view' ? 403 : 401
    res.end('{}')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise((resolve) => server.close(resolve)))
  const check = httpActiveCheck(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 1000)
  t.equal(await check('a', 'no-view'), true, '403 comes after authentication')
  t.equal(await check('b', 'revoked'), false)
})
