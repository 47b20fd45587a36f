import { pathToFileURL } from 'node:url'
import t from 'tap'
import Type from 'typebox'
import { Compile } from 'typebox/compile'
import Format from 'typebox/format'
// @ts-expect-error: a plain ES module of the test scripts, without type declarations
import { PREBUNDLED_DIR } from './scripts/prebundle-deps.mjs'

t.test('the tests load typebox and jose from the bundles npm install made', async (t) => {
  const dir = pathToFileURL(PREBUNDLED_DIR).href
  for (const path of ['typebox', 'typebox/compile', 'typebox/value', 'jose'])
    t.ok(import.meta.resolve(path).startsWith(`${dir}/`), `${path}: ${import.meta.resolve(path)}`)
})

t.test(
  'the bundled import paths share one typebox: a format registered through one holds in the others',
  async (t) => {
    Format.Set('prebundled-test-format', (value) => value === 'yes')
    const check = Compile(Type.String({ format: 'prebundled-test-format' }))
    t.equal(check.Check('yes'), true)
    t.equal(check.Check('no'), false)
  },
)
