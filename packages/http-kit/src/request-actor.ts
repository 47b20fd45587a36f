declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated actor URN, set by the gateway's auth hook. */
    actor?: string
  }
}

export {}
