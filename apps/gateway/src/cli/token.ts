/**
 * `npm run token -- --actor urn:li:corpuser:alice --ttl 30d [--name <name>] [--description <text>]`
 * mints an access token for an actor and prints it on stdout (details go to stderr as pino
 * logs). `npm run token -- --revoke <token id>` revokes one. It works on the store and secret
 * of CATALOG_DATA_DIR (or CATALOG_TOKEN_SECRET), so run it where the catalog keeps its data;
 * the running server sees the new or revoked token at once (revocations within seconds).
 */
import { parseArgs } from 'node:util'
import {
  accessTokenUrn,
  loadOrCreateSecret,
  parseTtl,
  readTokenInfo,
  storeActiveCheck,
  TokenService,
  tokenDeleteProposal,
  tokenInfoProposal,
} from '@catalog/auth'
import { configOrExit } from '@catalog/config'
import { CatalogError, InvalidInputError, parseUrn, Registry, ROOT_ACTOR } from '@catalog/core'
import { createMetadataServices, openStore } from '@catalog/metadata-service'
import pino from 'pino'

const USAGE =
  'usage: npm run token -- --actor <corpuser urn> [--ttl 30d|12h|1y|never] [--name <name>] [--description <text>]\n' +
  '       npm run token -- --revoke <token id>'

const log = pino({ base: { app: 'token' } }, pino.destination(2))

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      actor: { type: 'string' },
      ttl: { type: 'string', default: '30d' },
      name: { type: 'string' },
      description: { type: 'string' },
      revoke: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  })
  if (values.help || (!values.actor && !values.revoke)) {
    process.stderr.write(`${USAGE}\n`)
    return values.help ? 0 : 2
  }
  const config = configOrExit()
  const store = await openStore(config)
  try {
    const ingest = createMetadataServices(new Registry(), store).ingest
    const secret = loadOrCreateSecret(config.CATALOG_DATA_DIR, config.CATALOG_TOKEN_SECRET)
    const tokens = new TokenService(secret.secret, storeActiveCheck(store))
    if (values.revoke) {
      const id = values.revoke
      if (!(await readTokenInfo(store, id))) throw new InvalidInputError(`Access token ${id} does not exist`)
      await ingest.ingestProposals([tokenDeleteProposal(id)], ROOT_ACTOR)
      log.info({ tokenId: id }, `revoked access token ${id}`)
      return 0
    }
    const actor = values.actor as string
    if (parseUrn(actor).entityType !== 'corpuser') {
      throw new InvalidInputError(`--actor must be a corpuser urn (urn:li:corpuser:<name>), got ${actor}`)
    }
    const issued = tokens.issue({
      actorUrn: actor,
      ownerUrn: ROOT_ACTOR,
      ttlMs: parseTtl(values.ttl as string),
      name: values.name ?? `cli token for ${actor}`,
      ...(values.description ? { description: values.description } : {}),
    })
    await ingest.ingestProposals([tokenInfoProposal(issued.id, issued.info)], ROOT_ACTOR)
    log.info(
      {
        tokenId: issued.id,
        urn: accessTokenUrn(issued.id),
        actor,
        expiresAt: issued.info.expiresAt ? new Date(issued.info.expiresAt).toISOString() : 'never',
      },
      `minted an access token for ${actor}`,
    )
    process.stdout.write(`${issued.accessToken}\n`)
    return 0
  } finally {
    await store.close()
  }
}

main().then(
  (code) => {
    process.exitCode = code
  },
  (err: unknown) => {
    if (err instanceof CatalogError) log.error({ err: err.message }, err.message)
    else if ((err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS'))
      log.error(`${(err as Error).message}\n${USAGE}`)
    else log.error({ err }, 'token command failed')
    process.exitCode =
      err instanceof CatalogError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') ? 2 : 1
  },
)
