import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Browser, chromium, type Page } from 'playwright-core'
import { type ExampleName, loadExample, toIngestCall } from '../helpers/examples.js'
import { type Running, startApp } from '../helpers/spawn.js'

/** Debian's chromium, when installed (`apt-get install -y chromium`). */
export const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p))

interface Teardown {
  teardown: (fn: () => unknown) => void
}

/** A POST to the catalog with the admin token; throws with the body on a failure status. */
export async function post(url: string, token: string, path: string, body: unknown): Promise<unknown> {
  const res = await fetch(url + path, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'x-restli-protocol-version': '2.0.0',
    },
    body: JSON.stringify(body),
  })
  const text = await res.text()
  if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${text}`)
  return text ? JSON.parse(text) : null
}

/** The one-process catalog with auth on, in a temp dir, loaded with DataHub example files. */
export async function startLoadedCatalog(
  t: Teardown,
  examples: readonly ExampleName[],
  env: Record<string, string> = {},
): Promise<{ app: Running; token: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-web-ui-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const app = await startApp('apps/gateway/src/all-in-one.ts', {
    PORT: '0',
    CATALOG_DATA_DIR: dir,
    CATALOG_AUTH: 'on',
    ...env,
  })
  t.teardown(() => app.stop())
  const token = readFileSync(join(dir, 'admin.token'), 'utf8').trim()
  for (const name of examples) {
    for (const record of loadExample(name)) {
      const call = toIngestCall(record)
      await post(app.url, token, call.url, call.body)
    }
  }
  return { app, token }
}

/**
 * Headless chromium with one page already holding the session's token (as the login page
 * would leave it), closed on teardown; `external` collects requests leaving the catalog.
 */
export async function openBrowser(
  t: Teardown,
  url: string,
  token: string,
): Promise<{ browser: Browser; page: Page; external: string[] }> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  })
  t.teardown(() => browser.close())
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  await page.addInitScript({ content: `sessionStorage.setItem('catalog.token', ${JSON.stringify(token)})` })
  const external: string[] = []
  page.on('request', (r) => {
    if (!r.url().startsWith(url)) external.push(r.url())
  })
  return { browser, page, external }
}

/** Whether the GraphQL API serves a root field (a not-served one answers "... is not served ..."). */
export async function serves(url: string, token: string, query: string): Promise<boolean> {
  const body = (await post(url, token, '/api/graphql', { query })) as { errors?: { message: string }[] }
  return !body.errors?.some((e) => /is not served by this catalog yet/.test(e.message))
}
