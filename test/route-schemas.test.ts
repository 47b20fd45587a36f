import { warmRouteSchemas } from '@catalog/http-kit'
import t from 'tap'
import { build } from './helpers/build.js'

// Route schemas compile at first use (a listening server compiles the rest in short steps), so a
// schema that cannot compile would not stop the start: every route of the catalog is compiled here.
t.test('every route schema of the one-process catalog compiles', async (t) => {
  const { app, routes } = await build(t)
  const result = await warmRouteSchemas(app)
  t.equal(result.failed, 0, 'no schema fails to compile')
  t.ok(result.compiled > routes.length / 2, `${result.compiled} schemas compiled for ${routes.length} routes`)
  t.same(await warmRouteSchemas(app), { compiled: 0, failed: 0 }, 'nothing left to compile')
})
