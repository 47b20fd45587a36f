import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { startServices } from '../helpers/split-build.js'

/**
 * The split-mode replay picks the services' ports before either listens (each must know the
 * other's address). A port taken in the meantime failed a CI run with EADDRINUSE; the start
 * is now retried on new ports.
 */
t.test('a port taken before the metadata service listens: both start again on new ports', async (t) => {
  const taken = createServer()
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => taken.close(() => resolve())))
  const address = taken.address()
  const takenPort = typeof address === 'object' && address ? address.port : 0
  const dir = mkdtempSync(join(tmpdir(), 'catalog-split-ports-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  let next = 28_000 + Math.floor(Math.random() * 2_000)
  const picked: number[] = []
  const pickPort = async () => {
    const port = picked.length === 0 ? takenPort : next++
    picked.push(port)
    return port
  }
  const { metadataUrl, searchUrl } = await startServices(
    t,
    { CATALOG_DATA_DIR: dir, CATALOG_AUTH: 'off' },
    pickPort,
  )
  t.equal(picked.length, 4, 'a second pair of ports was picked')
  t.not(metadataUrl, `http://127.0.0.1:${takenPort}`)
  for (const url of [metadataUrl, searchUrl]) {
    const res = await fetch(`${url}/health`)
    t.equal(res.status, 200, `${url} answers`)
  }
})
