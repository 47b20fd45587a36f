import type { Registry } from '@catalog/core'
import type { CatalogServer } from '@catalog/http-kit'
import { openApiV3Document } from '../../services/openapi-document.js'
import { stringifyInSteps } from '../../services/openapi-document-json.js'

/** Where SpringDoc serves DataHub's documents (the OpenAPI servlet is mounted at `/openapi`). */
const DOCS = '/openapi/v3/api-docs'
/** DataHub's v3 group (`SpringWebConfig`); older releases named it `openapi-v3`. */
const GROUP = '10-openapi-v3'
const GROUP_NAME = '1. DataHub v3 (OpenAPI)'
const UI = '/openapi/swagger-ui'
/** The swagger UI assets, as `/restli/docs` serves them. */
const ASSETS = '/restli/docs/static'

const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>DataHub OpenAPI</title>
<link rel="stylesheet" href="${ASSETS}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${ASSETS}/swagger-ui-bundle.js"></script>
<script src="${ASSETS}/swagger-ui-standalone-preset.js"></script>
<script>
window.ui = SwaggerUIBundle({
  configUrl: '${DOCS}/swagger-config',
  dom_id: '#swagger-ui',
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout'
})
</script>
</body>
</html>
`

/**
 * DataHub's OpenAPI documents where SpringDoc serves them: the v3 entity API generated from the
 * registry at `/openapi/v3/api-docs` (and its group `/openapi/v3/api-docs/10-openapi-v3`), the
 * swagger UI's config and the UI at `/openapi/swagger-ui/index.html`. Public, as the other docs.
 * The document is built on first use, in steps, and kept (the registry does not change while running).
 */
export async function openApiDocsRoutes(
  app: CatalogServer,
  { registry }: { readonly registry: Registry },
): Promise<void> {
  let document: Promise<string> | undefined
  const schema = { hide: true }
  for (const url of [DOCS, `${DOCS}/${GROUP}`, `${DOCS}/openapi-v3`]) {
    app.get(url, { schema }, async (_request, reply) => {
      document ??= openApiV3Document(registry).then((doc) => stringifyInSteps(doc))
      // A failed build is not kept: the next request tries again.
      document.catch(() => {
        document = undefined
      })
      return reply.type('application/json').send(await document)
    })
  }

  app.get(`${DOCS}/swagger-config`, { schema }, async () => ({
    configUrl: `${DOCS}/swagger-config`,
    urls: [{ url: `${DOCS}/${GROUP}`, name: GROUP_NAME }],
    validatorUrl: '',
  }))
  app.get(`${UI}/index.html`, { schema }, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(page),
  )
  // With ignoreTrailingSlash this also answers `/openapi/swagger-ui/`.
  app.get(UI, { schema }, async (_request, reply) => reply.redirect(`${UI}/index.html`))
}
