// Container health probe: exits 0 when GET /health answers 200 within 3 s, 1 otherwise.
// URL: the first argument, else HEALTHCHECK_URL, else the gateway's port on localhost.
const url =
  process.argv[2] ?? process.env.HEALTHCHECK_URL ?? `http://127.0.0.1:${process.env.PORT ?? '8080'}/health`

try {
  const response = await fetch(url, { signal: AbortSignal.timeout(3000) })
  process.exitCode = response.ok ? 0 : 1
} catch {
  process.exitCode = 1
}
