import { Authorizer, DEFAULT_POLICIES, MUTATIONS_WITH_RULES, type PolicySource } from '@catalog/auth'
import { ForbiddenError, ROOT_ACTOR } from '@catalog/core'
import t from 'tap'
import { authorizeMutation, authorizeMutations } from './authorize-mutations.js'
import type { CatalogContext } from './context.js'
import { datahubSchema } from './schema/index.js'

const ALICE = 'urn:li:corpuser:alice'

/**
 * Mutations that act on the caller's own records only, the form answers, which their resolvers
 * check (the caller must be assigned to the form), and the deletes of home page templates and
 * modules, which their resolvers check in DataHub's order: open to every authenticated caller.
 */
const OPEN = new Set([
  'acceptRole',
  'updateUserSetting',
  'updateCorpUserViewsSettings',
  'updateUserHomePageSettings',
  'updateCorpUserLocaleSettings',
  'batchUpdateStepStates',
  'submitFormPrompt',
  'verifyForm',
  'deletePageTemplate',
  'deletePageModule',
])

/** A request context of `actor` holding `roles`, over DataHub's default policies. */
function contextOf(actor: string, roles: string[]): CatalogContext {
  const source: PolicySource = {
    policies: async () => DEFAULT_POLICIES.map((p) => p.info),
    actor: async (urn) => ({ urn, groups: [], roles }),
    resource: async (urn) => ({ type: urn.split(':')[2] ?? '', urn, owners: [], domains: [], tags: [] }),
  }
  const client = { getEntities: async () => new Map() }
  return { actor, authorizer: new Authorizer(source), client } as unknown as CatalogContext
}

const mutations = Object.keys(datahubSchema().getMutationType()?.getFields() ?? {})

t.test(
  'every mutation of DataHub schema is refused to a Reader (input or not), but the open ones',
  async (t) => {
    t.ok(mutations.length > 150, `${mutations.length} mutations`)
    const reader = contextOf(ALICE, ['urn:li:dataHubRole:Reader'])
    const refused: string[] = []
    for (const name of mutations) {
      const outcome = await authorizeMutation(name, {}, reader).then(
        () => 'allowed',
        (err) => (err instanceof ForbiddenError ? 'refused' : `failed: ${err}`),
      )
      if (OPEN.has(name)) t.equal(outcome, 'allowed', `${name}: open`)
      else if (outcome === 'refused') refused.push(name)
      else t.fail(`${name}: ${outcome}`)
    }
    t.equal(refused.length, mutations.length - OPEN.size, 'all others refused')
    t.ok(
      MUTATIONS_WITH_RULES.every((name) => mutations.includes(name)),
      'every rule names a mutation of the schema',
    )
  },
)

t.test('the root user passes every check; an Admin every mutation without a rule', async (t) => {
  const root = contextOf(ROOT_ACTOR, [])
  const admin = contextOf('urn:li:corpuser:carol', ['urn:li:dataHubRole:Admin'])
  const editor = contextOf(ALICE, ['urn:li:dataHubRole:Editor'])
  for (const name of mutations) await authorizeMutation(name, {}, root)
  t.pass('root: nothing refused')
  const unruled = mutations.filter((m) => !MUTATIONS_WITH_RULES.includes(m))
  t.ok(unruled.length > 0)
  for (const name of unruled) {
    await authorizeMutation(name, {}, admin)
    await t.rejects(
      authorizeMutation(name, {}, editor),
      ForbiddenError,
      `${name}: no rule, an Editor is refused`,
    )
  }
})

t.test('authorizeMutations runs the check before the resolver, for every Mutation field', async (t) => {
  let ran = 0
  const resolvers = authorizeMutations({
    Query: { me: () => 'me' },
    Mutation: {
      addTag: () => {
        ran++
        return true
      },
    },
  })
  t.equal((resolvers.Query as Record<string, () => string>).me?.(), 'me', 'queries untouched')
  const addTag = (resolvers.Mutation as Record<string, (...a: unknown[]) => Promise<unknown>>).addTag
  const input = {
    input: { tagUrn: 'urn:li:tag:t', resourceUrn: 'urn:li:dataset:(urn:li:dataPlatform:hive,x,PROD)' },
  }
  await t.rejects(
    addTag?.(undefined, input, contextOf(ALICE, ['urn:li:dataHubRole:Reader']), {}) as Promise<unknown>,
    {
      message: 'Unauthorized to perform this action. Please contact your DataHub administrator.',
    },
  )
  t.equal(ran, 0, 'the resolver did not run')
  t.equal(await addTag?.(undefined, input, contextOf(ALICE, ['urn:li:dataHubRole:Editor']), {}), true)
  t.equal(ran, 1)
  const authOff = { actor: ROOT_ACTOR } as unknown as CatalogContext
  t.equal(await addTag?.(undefined, input, authOff, {}), true, 'no authorizer (auth off): not checked')
})
