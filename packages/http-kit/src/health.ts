import '@fastify/swagger'
import type { FastifyInstance } from 'fastify'

/** `/health` (the process answers) and `/ready` (its backends answer), for every app. */
export async function healthRoutes(
  app: FastifyInstance,
  opts: { readonly ready?: () => Promise<boolean> },
): Promise<void> {
  app.get('/health', { schema: { hide: true } }, async () => ({ status: 'ok' }))
  app.get('/ready', { schema: { hide: true } }, async (_request, reply) => {
    const ok = opts.ready ? await opts.ready().catch(() => false) : true
    return reply.status(ok ? 200 : 503).send({ status: ok ? 'ready' : 'unavailable' })
  })
}
