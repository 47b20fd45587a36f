import t from 'tap'
import { assignRole, gql as gqlAs, tokenFor } from '../helpers/actors.js'
import { build } from '../helpers/build.js'
import { gql, ingestAspect, restAspects } from '../helpers/mutation-kit.js'

/**
 * Context documents as DataHub serves them: create, edit, move, publish, settings, delete with
 * their subtree, search with who may see what, an asset's related documents, imports from files,
 * change history, and who may do what.
 */

const CREATE = 'mutation($input: CreateDocumentInput!) { createDocument(input: $input) }'
const DOC = `query($urn: String!) { document(urn: $urn) { urn type exists subType
  info { title status { state } contents { text } source { sourceType } created { actor { urn } }
    parentDocument { document { urn } } relatedAssets { asset { urn } } relatedDocuments { document { urn } }
    customProperties { key value } }
  settings { showInGlobalContext } ownership { owners { owner { ... on CorpUser { urn } } type } }
  parentDocuments { count documents { urn } } } }`
const SEARCH = `query($input: SearchDocumentsInput!) { searchDocuments(input: $input) { total documents { urn } } }`
const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,docs.orders,PROD)'
const doc = (id: string) => `urn:li:document:${id}`
const urns = (answer: { data: { searchDocuments: { documents: { urn: string }[] } } }) =>
  answer.data.searchDocuments.documents.map((d) => d.urn).sort()

t.test('documents made, edited, moved, found and deleted', async (t) => {
  const { app } = await build(t)
  await ingestAspect(app, 'dataset', DATASET, 'datasetProperties', { name: 'orders', customProperties: {} })
  const made = await gql(app, CREATE, {
    input: {
      id: 'handbook',
      title: 'Handbook',
      contents: { text: 'How we work' },
      state: 'PUBLISHED',
      subType: 'Runbook',
      relatedAssets: [DATASET],
    },
  })
  t.notOk(made.errors, 'no errors')
  t.equal(made.data.createDocument, doc('handbook'))
  const read = (await gql(app, DOC, { urn: doc('handbook') })).data.document
  t.same(read, {
    urn: doc('handbook'),
    type: 'DOCUMENT',
    exists: true,
    subType: 'Runbook',
    info: {
      title: 'Handbook',
      status: { state: 'PUBLISHED' },
      contents: { text: 'How we work' },
      source: { sourceType: 'NATIVE' },
      created: { actor: { urn: 'urn:li:corpuser:datahub' } },
      parentDocument: null,
      relatedAssets: [{ asset: { urn: DATASET } }],
      relatedDocuments: [],
      customProperties: null,
    },
    settings: { showInGlobalContext: true },
    ownership: { owners: [{ owner: { urn: 'urn:li:corpuser:datahub' }, type: 'TECHNICAL_OWNER' }] },
    parentDocuments: { count: 0, documents: [] },
  })
  const taken = await gql(app, CREATE, { input: { id: 'handbook', contents: { text: 'x' } } })
  t.equal(taken.errors?.[0]?.message, 'Document with ID handbook already exists')
  const noParent = await gql(app, CREATE, {
    input: { id: 'x', contents: { text: 'x' }, parentDocument: doc('none') },
  })
  t.equal(noParent.errors?.[0]?.message, `Parent Document with URN ${doc('none')} does not exist`)
  const self = await gql(app, CREATE, {
    input: { id: 'me', contents: { text: 'x' }, parentDocument: doc('me') },
  })
  t.equal(self.errors?.[0]?.message, 'Cannot create a Document with itself as parent')

  // A tree: onboarding under handbook, laptops under onboarding (a draft, context only).
  await gql(app, CREATE, {
    input: {
      id: 'onboarding',
      title: 'Onboarding',
      contents: { text: 'Day one' },
      state: 'PUBLISHED',
      parentDocument: doc('handbook'),
    },
  })
  await gql(app, CREATE, {
    input: {
      id: 'laptops',
      title: 'Laptops',
      contents: { text: 'Get one' },
      parentDocument: doc('onboarding'),
      relatedAssets: [DATASET],
      settings: { showInGlobalContext: false },
    },
  })
  const laptops = (await gql(app, DOC, { urn: doc('laptops') })).data.document
  t.same(
    laptops.parentDocuments,
    { count: 2, documents: [{ urn: doc('onboarding') }, { urn: doc('handbook') }] },
    'nearest parent first',
  )
  t.same(laptops.info.status, { state: 'UNPUBLISHED' }, 'unpublished by default')

  // Search: the caller sees published documents and the unpublished it owns; context-only ones stay out.
  t.same(urns(await gql(app, SEARCH, { input: {} })), [doc('handbook'), doc('onboarding')])
  t.same(urns(await gql(app, SEARCH, { input: { rootOnly: true } })), [doc('handbook')])
  t.same(urns(await gql(app, SEARCH, { input: { parentDocuments: [doc('handbook')] } })), [doc('onboarding')])
  t.same(urns(await gql(app, SEARCH, { input: { types: ['Runbook'] } })), [doc('handbook')])
  t.same(urns(await gql(app, SEARCH, { input: { query: 'day' } })), [doc('onboarding')])
  // An asset's related documents include the context-only ones.
  const related = await gql(
    app,
    `{ dataset(urn: "${DATASET}") { relatedDocuments(input: {}) { total documents { urn } } } }`,
  )
  t.same(related.data.dataset.relatedDocuments.documents.map((d: { urn: string }) => d.urn).sort(), [
    doc('handbook'),
    doc('laptops'),
  ])

  // Edits.
  const EDIT = 'mutation($input: UpdateDocumentContentsInput!) { updateDocumentContents(input: $input) }'
  await gql(app, EDIT, {
    input: { urn: doc('handbook'), title: 'The Handbook', contents: { text: 'How we work, v2' } },
  })
  await gql(app, 'mutation($input: UpdateDocumentStatusInput!) { updateDocumentStatus(input: $input) }', {
    input: { urn: doc('laptops'), state: 'PUBLISHED' },
  })
  await gql(app, 'mutation($input: UpdateDocumentSettingsInput!) { updateDocumentSettings(input: $input) }', {
    input: { urn: doc('laptops'), showInGlobalContext: true },
  })
  await gql(app, 'mutation($input: UpdateDocumentSubTypeInput!) { updateDocumentSubType(input: $input) }', {
    input: { urn: doc('handbook') },
  })
  await gql(
    app,
    'mutation($input: UpdateDocumentRelatedEntitiesInput!) { updateDocumentRelatedEntities(input: $input) }',
    {
      input: { urn: doc('handbook'), relatedAssets: [], relatedDocuments: [doc('laptops')] },
    },
  )
  const edited = (await gql(app, DOC, { urn: doc('handbook') })).data.document
  t.match(edited, {
    subType: null,
    info: {
      title: 'The Handbook',
      contents: { text: 'How we work, v2' },
      relatedAssets: [],
      relatedDocuments: [{ document: { urn: doc('laptops') } }],
    },
  })
  t.equal(
    (await restAspects(app, doc('handbook'))).documentInfo?.value.relatedAssets,
    undefined,
    'an empty list removes it',
  )
  t.same(
    urns(await gql(app, SEARCH, { input: {} })),
    [doc('handbook'), doc('laptops'), doc('onboarding')],
    'published and shown now',
  )
  const history = await gql(
    app,
    `{ document(urn: "${doc('handbook')}") { changeHistory { changeType actor { urn } } } }`,
  )
  t.same(
    history.data.document.changeHistory.map((c: { changeType: string }) => c.changeType),
    ['RELATED_ASSETS_CHANGED', 'RELATED_DOCUMENTS_CHANGED', 'TITLE_CHANGED', 'TEXT_CHANGED', 'CREATED'],
    'newest first, from the stored versions',
  )

  // Moves: never under itself or its own descendant.
  const MOVE = 'mutation($input: MoveDocumentInput!) { moveDocument(input: $input) }'
  const cycle = await gql(app, MOVE, { input: { urn: doc('handbook'), parentDocument: doc('laptops') } })
  t.equal(cycle.errors?.[0]?.message, 'Cannot move document: would create a circular parent reference')
  const toSelf = await gql(app, MOVE, { input: { urn: doc('handbook'), parentDocument: doc('handbook') } })
  t.equal(toSelf.errors?.[0]?.message, 'Cannot move a Document to itself as parent')
  t.same((await gql(app, MOVE, { input: { urn: doc('laptops') } })).data, { moveDocument: true })
  t.same(
    urns(await gql(app, SEARCH, { input: { rootOnly: true } })),
    [doc('handbook'), doc('laptops')],
    'moved to the root',
  )
  await gql(app, MOVE, { input: { urn: doc('laptops'), parentDocument: doc('onboarding') } })

  // Delete takes the live subtree with it (soft).
  t.same((await gql(app, 'mutation($u: String!) { deleteDocument(urn: $u) }', { u: doc('handbook') })).data, {
    deleteDocument: true,
  })
  for (const id of ['handbook', 'onboarding', 'laptops']) {
    t.equal((await restAspects(app, doc(id))).status?.value.removed, true, `${id} soft-deleted`)
  }
  t.same(urns(await gql(app, SEARCH, { input: {} })), [], 'none found')
  t.equal((await gql(app, DOC, { urn: doc('handbook') })).data.document.exists, false)
  const missing = await gql(app, EDIT, { input: { urn: doc('none'), title: 'x' } })
  t.equal(missing.errors?.[0]?.message, `Document with URN ${doc('none')} does not exist`)
})

t.test('imports from files', async (t) => {
  const { app } = await build(t)
  const flags = await gql(
    app,
    '{ appConfig { featureFlags { contextDocumentsEnabled logicalModelsEnabled } } }',
  )
  t.same(
    flags.data.appConfig.featureFlags,
    { contextDocumentsEnabled: true, logicalModelsEnabled: true },
    "DataHub's UI shows them",
  )
  const IMPORT = `mutation($input: ImportDocumentsFromFilesInput!) { importDocumentsFromFiles(input: $input) {
    createdCount updatedCount failedCount errors documentUrns } }`
  const first = await gql(app, IMPORT, {
    input: {
      documents: [
        { fileName: 'docs/My Notes.md', content: '# Notes' },
        { fileName: 'empty.txt', content: '  ' },
        { fileName: 'data_quality-rules.TXT', content: 'Rules' },
      ],
      useCase: 'SKILL',
    },
  })
  t.same(first.data.importDocumentsFromFiles, {
    createdCount: 2,
    updatedCount: 0,
    failedCount: 0,
    errors: [],
    documentUrns: [doc('upload.my-notes'), doc('upload.data_quality-rules')],
  })
  const notes = (await gql(app, DOC, { urn: doc('upload.my-notes') })).data.document
  t.match(notes, {
    subType: 'SKILL',
    info: { title: 'My Notes', status: { state: 'PUBLISHED' }, contents: { text: '# Notes' } },
  })
  t.same(notes.info.customProperties.map((p: { key: string; value: string }) => [p.key, p.value]).sort(), [
    ['file_extension', '.md'],
    ['import_source', 'file_upload'],
    ['import_source_id', 'upload.My Notes'],
    ['original_filename', 'docs/My Notes.md'],
  ])
  t.equal(
    (await gql(app, DOC, { urn: doc('upload.data_quality-rules') })).data.document.info.title,
    'Data Quality Rules',
  )
  const again = await gql(app, IMPORT, { input: { documents: [{ fileName: 'My Notes.md', content: 'v2' }] } })
  t.match(again.data.importDocumentsFromFiles, { createdCount: 0, updatedCount: 1 }, 'the same name updates')
})

t.test(
  "who may: MANAGE_DOCUMENTS, or EDIT_ENTITY on the document; unpublished ones are their owners'",
  async (t) => {
    const built = await build(t, { auth: true })
    const alice = 'urn:li:corpuser:alice'
    const bob = 'urn:li:corpuser:bob'
    await assignRole(built, alice, 'Admin')
    await assignRole(built, bob, 'Reader')
    const [aliceToken, bobToken] = [await tokenFor(built, alice), await tokenFor(built, bob)]
    const refused = await gqlAs(built.app, aliceToken, CREATE, { input: { contents: { text: 'x' } } })
    t.equal(refused.body.errors?.[0]?.extensions?.code, 403, 'no default role holds MANAGE_DOCUMENTS')
    const imported = await gqlAs(
      built.app,
      aliceToken,
      'mutation { importDocumentsFromFiles(input: {documents: [{fileName: "a.md", content: "a"}]}) { createdCount } }',
    )
    t.equal(
      imported.body.errors?.[0]?.message,
      'Unauthorized to import documents. Requires MANAGE_DOCUMENTS privilege.',
    )
    // The root user makes one unpublished document owned by alice, and one published.
    await gqlAs(built.app, built.adminToken, CREATE, {
      input: {
        id: 'plan',
        title: 'Plan',
        contents: { text: 'secret plan' },
        owners: [{ ownerUrn: alice, ownerEntityType: 'CORP_USER', type: 'TECHNICAL_OWNER' }],
      },
    })
    const ghost = await gqlAs(built.app, built.adminToken, CREATE, {
      input: {
        id: 'ghost',
        contents: { text: 'x' },
        owners: [
          { ownerUrn: 'urn:li:corpuser:nobody', ownerEntityType: 'CORP_USER', type: 'TECHNICAL_OWNER' },
        ],
      },
    })
    t.equal(
      ghost.body.errors?.[0]?.message,
      'Failed to change ownership for resource(s). Owner with urn urn:li:corpuser:nobody does not exist.',
    )
    await gqlAs(built.app, built.adminToken, CREATE, {
      input: { id: 'faq', contents: { text: 'faq' }, state: 'PUBLISHED' },
    })
    const seen = (token: string) =>
      gqlAs(built.app, token, SEARCH, { input: {} }).then((a) =>
        a.body.data.searchDocuments.documents.map((d: { urn: string }) => d.urn).sort(),
      )
    t.same(
      await seen(aliceToken),
      [doc('faq'), doc('plan')],
      'alice: published, and the unpublished she owns',
    )
    t.same(await seen(bobToken), [doc('faq')], 'bob: published only')
    const across = (token: string) =>
      gqlAs(
        built.app,
        token,
        '{ searchAcrossEntities(input: {types: [DOCUMENT], query: "*"}) { searchResults { entity { urn } } } }',
      ).then((a) =>
        a.body.data.searchAcrossEntities.searchResults
          .map((r: { entity: { urn: string } }) => r.entity.urn)
          .sort(),
      )
    t.same(await across(bobToken), [doc('faq')], 'nor through the general search')
    t.same(await across(aliceToken), [doc('faq'), doc('plan')])
    const edit = await gqlAs(
      built.app,
      aliceToken,
      'mutation { updateDocumentStatus(input: {urn: "urn:li:document:faq", state: UNPUBLISHED}) }',
    )
    t.same(edit.body.data, { updateDocumentStatus: true }, 'EDIT_ENTITY on the document is enough')
    const bobEdit = await gqlAs(
      built.app,
      bobToken,
      'mutation { updateDocumentStatus(input: {urn: "urn:li:document:faq", state: PUBLISHED}) }',
    )
    t.equal(bobEdit.body.errors?.[0]?.extensions?.code, 403, 'a Reader may not')
  },
)

t.test('no parent cycles: crossing moves, imports under themselves or under nothing', async (t) => {
  const { app } = await build(t)
  for (const id of ['x', 'y'])
    await gql(app, CREATE, { input: { id, contents: { text: id }, state: 'PUBLISHED' } })
  const MOVE = 'mutation($input: MoveDocumentInput!) { moveDocument(input: $input) }'
  const [a, b] = await Promise.all([
    gql(app, MOVE, { input: { urn: doc('x'), parentDocument: doc('y') } }),
    gql(app, MOVE, { input: { urn: doc('y'), parentDocument: doc('x') } }),
  ])
  t.equal([a, b].filter((r) => r.errors).length, 1, 'one of two crossing moves is refused')
  t.equal(urns(await gql(app, SEARCH, { input: { rootOnly: true } })).length, 1, 'one root is left')

  const IMPORT = `mutation($input: ImportDocumentsFromFilesInput!) { importDocumentsFromFiles(input: $input) {
    createdCount failedCount errors } }`
  const orphan = await gql(app, IMPORT, {
    input: { documents: [{ fileName: 'a.md', content: 'a' }], parentDocumentUrn: doc('none') },
  })
  t.equal(orphan.errors?.[0]?.message, `Parent Document with URN ${doc('none')} does not exist`)
  await gql(app, IMPORT, { input: { documents: [{ fileName: 'a.md', content: 'a' }] } })
  const underItself = await gql(app, IMPORT, {
    input: { documents: [{ fileName: 'a.md', content: 'a, again' }], parentDocumentUrn: doc('upload.a') },
  })
  t.same(underItself.data.importDocumentsFromFiles, {
    createdCount: 0,
    failedCount: 1,
    errors: ['upload.a: Cannot move document: would create a circular parent reference'],
  })
  t.equal((await restAspects(app, doc('upload.a'))).documentInfo?.value.contents.text, 'a', 'not written')
})
