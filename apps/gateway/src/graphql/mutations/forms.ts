import { randomUUID } from 'node:crypto'
import { type EntityRef, ForbiddenError, InvalidInputError } from '@catalog/core'
import type { AspectValue, MetadataProposal } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import { type EntitySource, list, obj, schemaFieldUrn } from '../mappers/common.js'
import { FORM_INFO } from '../mappers/form.js'
import { searchOf } from '../resolvers/search.js'
import { type OrFilters, SEARCHABLE_TYPES, toFilter } from '../resolvers/search-input.js'
import { compareAndSetEach } from './compare-and-set.js'
import { deleteWithReferences } from './entity-references.js'
import { type PatchOp, patch, pointer } from './patch.js'
import { propertyValuesPatch } from './structured-properties.js'
import { type PropertyValueInput, toPrimitive } from './structured-property-values.js'
import { currentAspect, nameOf, resolveInput, stampOf, typedRef, upsert, write } from './support.js'

const FORMS = 'forms'
const PROMPT_TYPES = ['STRUCTURED_PROPERTY', 'FIELDS_STRUCTURED_PROPERTY']
/** Assets a dynamic assignment gives the form to at most, in pages of {@link PAGE}. */
const MAX_DYNAMIC_ASSETS = 10_000
const PAGE = 500
/** Assets a form being deleted can be taken off: as many as one search reads (else the delete is refused). */
const MAX_HOLDERS = 10_000
/** The entity types DataHub's dynamic form assignment searches. */
const DYNAMIC_TYPES = [
  'dataset',
  'dataJob',
  'dataFlow',
  'chart',
  'dashboard',
  'corpuser',
  'corpGroup',
  'domain',
  'container',
  'glossaryTerm',
  'glossaryNode',
  'mlModel',
  'mlModelGroup',
  'mlFeatureTable',
  'mlFeature',
  'mlPrimaryKey',
  'dataProduct',
  'schemaField',
]

interface PromptInput {
  readonly id?: string | null
  readonly title: string
  readonly description?: string | null
  readonly type: string
  readonly structuredPropertyParams?: { readonly urn: string } | null
  readonly required?: boolean | null
}

interface CreateFormInput {
  readonly id?: string | null
  readonly name: string
  readonly description?: string | null
  readonly type?: string | null
  readonly prompts?: readonly PromptInput[] | null
  readonly actors?: { owners?: boolean | null; users?: string[] | null; groups?: string[] | null } | null
}

interface UpdateFormInput {
  readonly urn: string
  readonly name?: string | null
  readonly description?: string | null
  readonly type?: string | null
  readonly promptsToAdd?: readonly PromptInput[] | null
  readonly promptsToRemove?: readonly string[] | null
  readonly actors?: {
    owners?: boolean | null
    usersToAdd?: string[] | null
    usersToRemove?: string[] | null
    groupsToAdd?: string[] | null
    groupsToRemove?: string[] | null
  } | null
}

type Json = Record<string, unknown>
type Stamp = { time: number; actor: string }

/** DataHub's FormUtils prompt mapping: an id (a UUID without one) and a structured property for either type. */
function storedPrompt(ctx: CatalogContext, p: PromptInput): Json {
  if (PROMPT_TYPES.includes(p.type) && !p.structuredPropertyParams) {
    throw new InvalidInputError(
      'Provided prompt with type STRUCTURED_PROPERTY or FIELDS_STRUCTURED_PROPERTY and no structured property params',
    )
  }
  const prompt: Json = {
    id: p.id ?? randomUUID(),
    title: p.title,
    type: p.type,
    required: p.required === true,
  }
  if (p.description != null) prompt.description = p.description
  if (p.structuredPropertyParams) {
    prompt.structuredPropertyParams = {
      urn: typedRef(ctx, p.structuredPropertyParams.urn, 'structuredProperty').urn,
    }
  }
  return prompt
}

const urnsOf = (ctx: CatalogContext, urns: readonly string[] | null | undefined, type: string) =>
  (urns ?? []).map((u) => typedRef(ctx, u, type).urn)

/**
 * DataHub's CreateFormResolver (MANAGE_DOCUMENTATION_FORMS, checked by `authorizeMutation`):
 * `urn:li:form:<id>` (a UUID without one) with its name, type, prompts and assigned actors;
 * written whole, as DataHub does (an existing form of that id is replaced).
 */
async function createForm(_: unknown, args: { input: CreateFormInput }, ctx: CatalogContext) {
  const { input } = args
  nameOf(input.name, 'A form')
  const form = typedRef(ctx, `urn:li:form:${input.id?.trim() ? input.id : randomUUID()}`, 'form')
  const info: Json = { name: input.name, type: input.type ?? 'COMPLETION' }
  if (input.description != null) info.description = input.description
  info.prompts = (input.prompts ?? []).map((p) => storedPrompt(ctx, p))
  const actors: Json = { owners: input.actors?.owners ?? true }
  if (input.actors?.users) actors.users = urnsOf(ctx, input.actors.users, 'corpuser')
  if (input.actors?.groups) actors.groups = urnsOf(ctx, input.actors.groups, 'corpGroup')
  info.actors = actors
  await write(ctx, [upsert(form, FORM_INFO, info)])
  return { urn: form.urn }
}

/** A form that must exist (have its info): its reference and info, else a 400 with `message`. */
async function existingForm(ctx: CatalogContext, urn: string, message?: string): Promise<[EntityRef, Json]> {
  const form = typedRef(ctx, urn, 'form')
  const info = await currentAspect(ctx, form.urn, FORM_INFO)
  if (!info) throw new InvalidInputError(message ?? `Form ${form.urn} does not exist.`)
  return [form, info]
}

/**
 * DataHub's UpdateFormResolver (MANAGE_DOCUMENTATION_FORMS): one PATCH of the form's info, so
 * prompts are added or removed by id and actors by URN without losing concurrent edits.
 */
async function updateForm(_: unknown, args: { input: UpdateFormInput }, ctx: CatalogContext) {
  const { input } = args
  const [form] = await existingForm(ctx, input.urn, `Form with urn ${input.urn} does not exist`)
  const ops: PatchOp[] = []
  if (input.name != null) ops.push({ op: 'add', path: '/name', value: nameOf(input.name, 'A form') })
  if (input.description != null) ops.push({ op: 'add', path: '/description', value: input.description })
  if (input.type != null) ops.push({ op: 'add', path: '/type', value: input.type })
  for (const p of input.promptsToAdd ?? []) {
    const prompt = storedPrompt(ctx, p)
    ops.push({ op: 'add', path: pointer('prompts', prompt.id as string), value: prompt })
  }
  for (const id of input.promptsToRemove ?? []) ops.push({ op: 'remove', path: pointer('prompts', id) })
  const actors = input.actors
  if (actors?.owners != null) ops.push({ op: 'add', path: '/actors/owners', value: actors.owners })
  const members: Array<[string, string[] | null | undefined, string[] | null | undefined, string]> = [
    ['users', actors?.usersToAdd, actors?.usersToRemove, 'corpuser'],
    ['groups', actors?.groupsToAdd, actors?.groupsToRemove, 'corpGroup'],
  ]
  for (const [member, add, remove, type] of members) {
    for (const u of urnsOf(ctx, add, type))
      ops.push({ op: 'add', path: pointer('actors', member, u), value: u })
    for (const u of urnsOf(ctx, remove, type)) ops.push({ op: 'remove', path: pointer('actors', member, u) })
  }
  if (ops.length > 0) await write(ctx, [patch(form, FORM_INFO, ops)])
  return { urn: form.urn }
}

/**
 * DataHub's DeleteFormResolver (MANAGE_DOCUMENTATION_FORMS): the form taken off every asset
 * holding it (assigned, completed or verified; found by search, soft-deleted ones too), then
 * hard-deleted. The holders are all found before any is written (each write takes an asset out of
 * the search's results); {@link MAX_HOLDERS} or more are refused, nothing written.
 */
async function deleteForm(_: unknown, args: { input: { urn: string } }, ctx: CatalogContext) {
  const form = typedRef(ctx, args.input.urn, 'form')
  const holding = ['incompleteForms', 'completedForms', 'verifiedForms'].map((field) => ({
    and: [{ field, values: [form.urn] }],
  }))
  const entities = SEARCHABLE_TYPES.filter((t) => ctx.registry.hasAspect(ctx.registry.entity(t), FORMS))
  const holders: EntityRef[] = []
  await eachMatchingPage(ctx, entities, holding, MAX_HOLDERS, true, async (assets) => {
    holders.push(...assets)
  })
  // A search reads at most 10,000 results: at that many, more may hold the form.
  if (holders.length >= MAX_HOLDERS) {
    throw new InvalidInputError(
      `Form ${form.urn} is on ${MAX_HOLDERS} assets or more: remove it from them (batchRemoveForm) first`,
    )
  }
  for (let at = 0; at < holders.length; at += PAGE) {
    await changeForms(ctx, holders.slice(at, at + PAGE), (forms) => withoutForm(forms, form.urn, true))
  }
  await deleteWithReferences(ctx, form)
  return true
}

/**
 * `visit` for each page of the assets of `entities` that can have forms and match `orFilters` (at
 * most `max`, in pages of {@link PAGE}; soft-deleted ones too when asked). The pages are read by
 * offset: `visit` must not take assets out of the results.
 */
async function eachMatchingPage(
  ctx: CatalogContext,
  entities: readonly string[],
  orFilters: OrFilters,
  max: number,
  includeSoftDeleted: boolean,
  visit: (assets: EntityRef[]) => Promise<void>,
): Promise<void> {
  const { filter } = toFilter(orFilters)
  for (let start = 0; start < max; start += PAGE) {
    const page = await searchOf(ctx).searchAcrossEntities({
      input: '*',
      entities,
      start,
      count: Math.min(PAGE, max - start),
      ...(filter ? { filter } : {}),
      searchFlags: { fulltext: true, skipAggregates: true, skipHighlighting: true, includeSoftDeleted },
    })
    const assets = page.metadata.urns
      .map((u) => resolveInput(ctx, u))
      .filter((a) => ctx.registry.hasAspect(a.entity, FORMS))
    await visit(assets)
    if (start + PAGE >= page.numEntities) break
  }
}

/** The JSON objects of a list (anything else left out). */
function records(x: unknown): Json[] {
  return list(x).flatMap((r) => {
    const o = obj(r)
    return o ? [o] : []
  })
}

/** The stored `forms` of an asset, its three lists always present. */
function formsOf(v: AspectValue | undefined): {
  incompleteForms: Json[]
  completedForms: Json[]
  verifications: Json[]
} {
  return {
    incompleteForms: records(v?.incompleteForms),
    completedForms: records(v?.completedForms),
    verifications: records(v?.verifications),
  }
}

/**
 * One write changing the `forms` of each of `assets` from what was read, with `alongside` in the
 * same write ({@link compareAndSetEach}).
 */
function changeForms(
  ctx: CatalogContext,
  assets: readonly EntityRef[],
  change: (forms: ReturnType<typeof formsOf>, asset: EntityRef) => ReturnType<typeof formsOf> | undefined,
  alongside: readonly MetadataProposal[] = [],
): Promise<void> {
  return compareAndSetEach(
    ctx,
    assets,
    FORMS,
    (current, asset) => change(formsOf(current), asset) as AspectValue | undefined,
    alongside,
  )
}

/** `forms` with `form` assigned (its prompts all to do) unless it is there already. */
function assigned(forms: ReturnType<typeof formsOf>, form: string, info: Json, stamp: Stamp) {
  if ([...forms.incompleteForms, ...forms.completedForms].some((f) => f.urn === form)) return undefined
  const prompts = list(info.prompts).flatMap((p) => {
    const id = obj(p)?.id
    return typeof id === 'string' ? [{ id, lastModified: stamp }] : []
  })
  forms.incompleteForms.push({ urn: form, incompletePrompts: prompts, completedPrompts: [] })
  return forms
}

/** The assets of a batch call: each must exist. */
async function existingAssets(ctx: CatalogContext, urns: readonly string[]): Promise<EntityRef[]> {
  const assets = urns.map((u) => resolveInput(ctx, u))
  for (const asset of assets) {
    if (!ctx.registry.hasAspect(asset.entity, FORMS)) {
      throw new InvalidInputError(`${asset.urn} cannot have forms`)
    }
    if (!(await ctx.client.exists(asset.urn)))
      throw new InvalidInputError(`Entity ${asset.urn} does not exist`)
  }
  return assets
}

/**
 * DataHub's BatchAssignFormResolver (MANAGE_DOCUMENTATION_FORMS): the form, which must exist,
 * added to each asset's incomplete forms with every prompt to do; an asset that has it keeps it.
 */
async function batchAssignForm(
  _: unknown,
  args: { input: { formUrn: string; entityUrns: string[] } },
  ctx: CatalogContext,
) {
  const [form, info] = await existingForm(ctx, args.input.formUrn)
  const assets = await existingAssets(ctx, args.input.entityUrns)
  const stamp = stampOf(ctx)
  await changeForms(ctx, assets, (forms) => assigned(forms, form.urn, info, stamp))
  return true
}

/** DataHub's BatchRemoveFormResolver: the form taken off each asset's forms (its verification is kept). */
async function batchRemoveForm(
  _: unknown,
  args: { input: { formUrn: string; entityUrns: string[] } },
  ctx: CatalogContext,
) {
  const [form] = await existingForm(ctx, args.input.formUrn)
  const assets = await existingAssets(ctx, args.input.entityUrns)
  await changeForms(ctx, assets, (forms) => withoutForm(forms, form.urn, false))
  return true
}

/** `forms` without `form` (and, with `verifications`, its verification too); undefined when it is not there. */
function withoutForm(forms: ReturnType<typeof formsOf>, form: string, verifications: boolean) {
  const has = (f: Json) => f.urn === form
  const verified = verifications && forms.verifications.some((v) => v.form === form)
  if (!forms.incompleteForms.some(has) && !forms.completedForms.some(has) && !verified) return undefined
  return {
    incompleteForms: forms.incompleteForms.filter((f) => !has(f)),
    completedForms: forms.completedForms.filter((f) => !has(f)),
    verifications: verifications ? forms.verifications.filter((v) => v.form !== form) : forms.verifications,
  }
}

/** The caller's groups (`groupMembership` and `nativeGroupMembership`). */
async function groupsOf(ctx: CatalogContext): Promise<string[]> {
  const aspects = (
    await ctx.client.getEntities([ctx.actor], ['groupMembership', 'nativeGroupMembership'])
  ).get(ctx.actor)?.aspects
  return [
    ...list(aspects?.groupMembership?.groups),
    ...list(aspects?.nativeGroupMembership?.nativeGroups),
  ].filter((g): g is string => typeof g === 'string')
}

/**
 * DataHub's `isFormAssignedToUser`: the caller is one of the form's users, in one of its groups,
 * or (when the form assigns owners) an owner of the asset, directly or through a group.
 */
async function assignedToCaller(ctx: CatalogContext, info: Json, asset?: string): Promise<boolean> {
  const actors = obj(info.actors)
  if (list(actors?.users).includes(ctx.actor)) return true
  const groups = await groupsOf(ctx)
  if (list(actors?.groups).some((g) => groups.includes(g as string))) return true
  if (!asset || actors?.owners === false) return false
  const owners = list((await currentAspect(ctx, asset, 'ownership'))?.owners).map((o) => obj(o)?.owner)
  return owners.some((o) => o === ctx.actor || groups.includes(o as string))
}

/**
 * `FormActorAssignment.isAssignedToMe`, as DataHub's IsFormAssignedToMeResolver: the caller is one
 * of the form's users or in one of its groups (owners are not asked: no asset here).
 */
export const formActorResolvers = {
  isAssignedToMe: (
    source: { users?: EntitySource[] | null; groups?: EntitySource[] | null },
    _: unknown,
    ctx: CatalogContext,
  ) =>
    assignedToCaller(ctx, {
      actors: {
        users: (source.users ?? []).map((u) => u.urn),
        groups: (source.groups ?? []).map((g) => g.urn),
      },
      // As DataHub's resolver: false when it cannot tell (a non-null field nulls the form else).
    }).catch(() => false),
}

/** The form's association on an asset, or a 400 when the form is not assigned to it. */
function associationOf(forms: ReturnType<typeof formsOf>, form: string, asset: string): Json {
  const found = [...forms.completedForms, ...forms.incompleteForms].find((f) => f.urn === form)
  if (!found) throw new InvalidInputError(`Form ${form} has not been assigned to entity ${asset}`)
  return found
}

/**
 * DataHub's `updateFormCompletion`: a form whose required prompts are all done is completed,
 * else incomplete (a verification form then loses its verification).
 */
function withCompletion(forms: ReturnType<typeof formsOf>, association: Json, info: Json, form: string) {
  const done = new Set(list(association.completedPrompts).map((p) => obj(p)?.id))
  const required = list(info.prompts).filter((p) => obj(p)?.required === true)
  const complete = required.every((p) => done.has(obj(p)?.id))
  const others = (l: Json[]) => l.filter((f) => f.urn !== form)
  if (complete) {
    return {
      ...forms,
      incompleteForms: others(forms.incompleteForms),
      completedForms: [...others(forms.completedForms), association],
    }
  }
  return {
    incompleteForms: [...others(forms.incompleteForms), association],
    completedForms: others(forms.completedForms),
    verifications:
      info.type === 'VERIFICATION' ? forms.verifications.filter((v) => v.form !== form) : forms.verifications,
  }
}

interface SubmitInput {
  readonly promptId: string
  readonly formUrn: string
  readonly type: string
  readonly fieldPath?: string | null
  readonly structuredPropertyParams?: {
    readonly structuredPropertyUrn: string
    readonly values: readonly PropertyValueInput[]
  } | null
}

/**
 * DataHub's SubmitFormPromptResolver: the answer's structured property values written on the
 * asset (or, for a column prompt, on the column), the prompt marked done (a column prompt once
 * every column of the schema is answered) and the form's completion recomputed, all in one
 * write. The form must be assigned to the asset; the caller must be assigned to the form (as
 * `verifyForm` asks) or may edit the asset's properties.
 */
async function submitFormPrompt(_: unknown, args: { urn: string; input: SubmitInput }, ctx: CatalogContext) {
  const { input } = args
  const params = input.structuredPropertyParams
  if (!params) {
    throw new InvalidInputError(`Failed to provide structured property params for prompt type ${input.type}`)
  }
  const field = input.type === 'FIELDS_STRUCTURED_PROPERTY'
  if (field && !input.fieldPath) {
    throw new InvalidInputError('Failed to provide fieldPath for prompt type FIELDS_STRUCTURED_PROPERTY')
  }
  const asset = resolveInput(ctx, args.urn)
  const [form, info] = await existingForm(ctx, input.formUrn)
  const property = typedRef(ctx, params.structuredPropertyUrn, 'structuredProperty').urn
  await authorizeAnswer(ctx, info, form.urn, asset.urn)
  checkPrompt(info, form.urn, input, property)
  const schemaFields = field ? await fieldPathsOf(ctx, asset.urn) : []
  if (field && !schemaFields.includes(input.fieldPath as string)) {
    throw new InvalidInputError(`Field ${input.fieldPath} is not a column of ${asset.urn}`)
  }
  const target = field ? resolveInput(ctx, schemaFieldUrn(asset.urn, input.fieldPath as string)) : asset
  const values = new Map([[property, params.values.map(toPrimitive)]])
  const answer = await propertyValuesPatch(ctx, target, values)
  const stamp = stampOf(ctx)
  await changeForms(
    ctx,
    [asset],
    (forms) => {
      const association = associationOf(forms, form.urn, asset.urn)
      const completed = records(association.completedPrompts)
      const incomplete = records(association.incompletePrompts)
      const prompt: Json = {
        ...([...completed, ...incomplete].find((p) => p.id === input.promptId) ?? { id: input.promptId }),
        lastModified: stamp,
      }
      if (field) {
        const fields = obj(prompt.fieldAssociations)
        const done = records(fields?.completedFieldPrompts).filter((f) => f.fieldPath !== input.fieldPath)
        done.push({ fieldPath: input.fieldPath, lastModified: stamp })
        prompt.fieldAssociations = {
          completedFieldPrompts: done,
          incompleteFieldPrompts: records(fields?.incompleteFieldPrompts).filter(
            (f) => f.fieldPath !== input.fieldPath,
          ),
        }
        const answered = new Set(done.map((f) => f.fieldPath))
        if (!schemaFields.every((p) => answered.has(p))) {
          // Not every column answered yet: only the column's answer is kept, the prompt stays
          // in the list it was in (DataHub's behaviour), to do unless it was done already.
          const place = (l: Json[]) => l.map((p) => (p.id === input.promptId ? prompt : p))
          if (completed.some((p) => p.id === input.promptId)) association.completedPrompts = place(completed)
          else if (incomplete.some((p) => p.id === input.promptId))
            association.incompletePrompts = place(incomplete)
          else association.incompletePrompts = [...incomplete, prompt]
          return forms
        }
      }
      association.completedPrompts = [...completed.filter((p) => p.id !== input.promptId), prompt]
      association.incompletePrompts = incomplete.filter((p) => p.id !== input.promptId)
      return withCompletion(forms, association, info, form.urn)
    },
    [answer],
  )
  return true
}

/**
 * The answer must be to a prompt of the form, of its type, for the structured property it asks
 * (DataHub checks none of these; here an assigned actor may only write the properties the form
 * asks for, not any property of the asset).
 */
function checkPrompt(info: Json, form: string, input: SubmitInput, property: string): void {
  const prompt = records(info.prompts).find((p) => p.id === input.promptId)
  if (!prompt) throw new InvalidInputError(`Prompt ${input.promptId} is not a prompt of form ${form}`)
  if (prompt.type !== input.type) {
    throw new InvalidInputError(`Prompt ${input.promptId} of form ${form} is of type ${String(prompt.type)}`)
  }
  if (obj(prompt.structuredPropertyParams)?.urn !== property) {
    throw new InvalidInputError(`Prompt ${input.promptId} of form ${form} does not ask for ${property}`)
  }
}

/** The caller may answer a form's prompts on an asset: assigned to the form there, or allowed to edit its properties. */
async function authorizeAnswer(ctx: CatalogContext, info: Json, form: string, asset: string): Promise<void> {
  if (!ctx.authorizer || (await assignedToCaller(ctx, info, asset))) return
  if (
    await ctx.authorizer.authorize(ctx.actor, [
      { anyOf: ['EDIT_ENTITY_PROPERTIES', 'EDIT_ENTITY'], resource: asset },
    ])
  )
    return
  throw new ForbiddenError(
    `Failed to authorize form on entity as form with urn ${form} is not assigned to user`,
  )
}

/** The field paths of the asset's schema; a 400 when it has none (a column prompt needs one). */
async function fieldPathsOf(ctx: CatalogContext, asset: string): Promise<string[]> {
  const schema = await currentAspect(ctx, asset, 'schemaMetadata')
  if (!schema) throw new InvalidInputError(`Schema metadata does not exist on entity ${asset}.`)
  return list(schema.fields).flatMap((f) => {
    const path = obj(f)?.fieldPath
    return typeof path === 'string' ? [path] : []
  })
}

/**
 * DataHub's VerifyFormResolver: the caller must be assigned to the form on the asset; the form
 * must be a verification form the asset has completed. Its verification is now, by the caller.
 */
async function verifyForm(
  _: unknown,
  args: { input: { formUrn: string; entityUrn: string } },
  ctx: CatalogContext,
) {
  const asset = resolveInput(ctx, args.input.entityUrn)
  const [form, info] = await existingForm(ctx, args.input.formUrn)
  if (!(await assignedToCaller(ctx, info, asset.urn))) {
    throw new ForbiddenError(
      `Failed to authorize form on entity as form with urn ${form.urn} is not assigned to user`,
    )
  }
  if (info.type !== 'VERIFICATION') {
    throw new InvalidInputError(`Form ${form.urn} is not of type VERIFICATION. Cannot verify form.`)
  }
  const stamp = stampOf(ctx)
  await changeForms(ctx, [asset], (forms) => {
    if (!forms.completedForms.some((f) => f.urn === form.urn)) {
      throw new InvalidInputError(
        `Form ${form.urn} is not in the list of completed forms for this entity. Skipping verification.`,
      )
    }
    return {
      ...forms,
      verifications: [
        ...forms.verifications.filter((v) => v.form !== form.urn),
        { form: form.urn, lastModified: stamp },
      ],
    }
  })
  return true
}

/**
 * DataHub's CreateDynamicFormAssignmentResolver (MANAGE_DOCUMENTATION_FORMS): the filter kept on
 * the form, and the form assigned to every asset matching it now (DataHub's assignment hook, run
 * before the call answers: at most 10,000 assets, in pages of 500, each page one write).
 */
async function createDynamicFormAssignment(
  _: unknown,
  args: { input: { formUrn: string; orFilters: OrFilters } },
  ctx: CatalogContext,
) {
  const [form, info] = await existingForm(ctx, args.input.formUrn)
  const { filter } = toFilter(args.input.orFilters)
  if (!filter) throw new InvalidInputError('A dynamic form assignment needs at least one filter')
  const stamp = stampOf(ctx)
  const entities = DYNAMIC_TYPES.filter((t) => SEARCHABLE_TYPES.includes(t))
  // An assigned asset still matches: reading by offset sees every one.
  await eachMatchingPage(ctx, entities, args.input.orFilters, MAX_DYNAMIC_ASSETS, false, (assets) =>
    changeForms(ctx, assets, (forms) => assigned(forms, form.urn, info, stamp)),
  )
  // Written once the matching assets have the form: a call failing part way leaves the pages
  // assigned so far (each its own write), but no filter.
  await write(ctx, [upsert(form, 'dynamicFormAssignment', { filter })])
  return true
}

/** `form(urn)`: null unless the form has its info, as DataHub's form type loads it. */
async function formQuery(_: unknown, args: { urn: string }, ctx: CatalogContext) {
  const form = typedRef(ctx, args.urn, 'form')
  return (await ctx.graph.object(form.urn)).stored === true ? { urn: form.urn } : null
}

export const formMutations = {
  createForm,
  updateForm,
  deleteForm,
  batchAssignForm,
  batchRemoveForm,
  submitFormPrompt,
  verifyForm,
  createDynamicFormAssignment,
}
export const formQueries = { form: formQuery }
