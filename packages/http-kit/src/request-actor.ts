declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated actor URN, set by the gateway's auth hook. */
    actor?: string
    /** The `type` claim of the bearer token the actor was authenticated with (`PERSONAL`, `SERVICE`, ...). */
    tokenType?: string
  }
}

export {}
