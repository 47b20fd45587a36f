import type { FastifyReply } from 'fastify'

/**
 * Sends an answer already written as JSON text, in the shape of the route's response schema:
 * fastify sends a string with a JSON content type as it is, without its serializer.
 */
export function sendJsonText(reply: FastifyReply, text: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(text)
}
