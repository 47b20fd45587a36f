import { MAX_URN_LENGTH } from '@catalog/core'
import { type CatalogServer, RestliErrorSchema } from '@catalog/http-kit'
import type { MetadataStore } from '@catalog/store'
import { type Static, Type } from 'typebox'
import { lookUpSchemaField } from '../services/schema-field-lookup.js'

export const SchemaFieldQuerySchema = Type.Object({
  urn: Type.String({ minLength: 1, maxLength: MAX_URN_LENGTH }),
  fieldPath: Type.String({ minLength: 1 }),
})
export type SchemaFieldQuery = Static<typeof SchemaFieldQuerySchema>

export const SchemaFieldAnswerSchema = Type.Object({
  hasSchema: Type.Boolean(),
  hasField: Type.Boolean(),
})

/**
 * `POST /internal/schema-field`: whether a dataset's latest `schemaMetadata` has a field of a
 * path, answered from the stored text without sending it (the gateway's GraphQL field mutations
 * in split mode). A POST, as a field path may be longer than a URL should be.
 */
export async function internalSchemaFieldRoutes(
  app: CatalogServer,
  { store }: { readonly store: MetadataStore },
): Promise<void> {
  app.post(
    '/internal/schema-field',
    {
      schema: {
        summary: "Whether a dataset's schema has a field (used by the gateway's GraphQL in split mode)",
        tags: ['internal'],
        body: SchemaFieldQuerySchema,
        response: { 200: SchemaFieldAnswerSchema, 400: RestliErrorSchema },
      },
    },
    async (request) => lookUpSchemaField(store, request.body.urn, request.body.fieldPath),
  )
}
