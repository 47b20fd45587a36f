import { arrayToMap, mapToArray } from './array-map.js'
import { isObj, keyText, type Tree, type TreeObject } from './tree.js'

/**
 * The `forms` aspect as DataHub patches it: a patch may not know whether a form (or one of its
 * prompts) is complete yet, so `incompleteForms` and `completedForms` are merged into one
 * `forms` object keyed by form URN, each entry flagged `isComplete`; inside each form its
 * `incompletePrompts` and `completedPrompts` merge the same way into `prompts` keyed by prompt
 * id. `verifications` is keyed by `form`. So `add /forms/<form urn>` adds a form, and
 * `add /forms/<form urn>/prompts/<id>` a prompt, with `isComplete` choosing its list.
 */
export function formsToMap(root: TreeObject): void {
  const forms: TreeObject = new Map()
  for (const [field, isComplete] of [
    ['incompleteForms', false],
    ['completedForms', true],
  ] as const) {
    const list = root.get(field)
    if (!Array.isArray(list)) continue
    for (const form of list) {
      if (!isObj(form)) continue
      form.set('isComplete', isComplete)
      form.set('prompts', promptsToMap(form))
      forms.set(keyText(form.get('urn')), form)
    }
  }
  root.set('forms', forms)
  if (root.has('verifications')) arrayToMap(root, { field: 'verifications', keys: ['form'] })
}

/** The reverse: each form goes to the list its `isComplete` names (incomplete when absent). */
export function formsToArray(root: TreeObject): void {
  const incomplete: Tree[] = []
  const completed: Tree[] = []
  const forms = root.get('forms')
  if (isObj(forms)) {
    for (const [urn, form] of forms) {
      if (!isObj(form)) continue
      if (!form.has('urn')) form.set('urn', urn)
      const complete = form.get('isComplete') === true
      form.delete('isComplete')
      promptsToArrays(form)
      ;(complete ? completed : incomplete).push(form)
    }
  }
  root.delete('forms')
  root.set('incompleteForms', incomplete)
  root.set('completedForms', completed)
  if (root.has('verifications')) mapToArray(root, { field: 'verifications', keys: ['form'] })
}

function promptsToMap(form: TreeObject): TreeObject {
  const prompts: TreeObject = new Map()
  for (const [field, isComplete] of [
    ['incompletePrompts', false],
    ['completedPrompts', true],
  ] as const) {
    const list = form.get(field)
    if (!Array.isArray(list)) continue
    for (const prompt of list) {
      if (!isObj(prompt)) continue
      prompt.set('isComplete', isComplete)
      prompts.set(keyText(prompt.get('id')), prompt)
    }
  }
  return prompts
}

function promptsToArrays(form: TreeObject): void {
  const incomplete: Tree[] = []
  const completed: Tree[] = []
  const prompts = form.get('prompts')
  if (isObj(prompts)) {
    for (const [id, prompt] of prompts) {
      if (!isObj(prompt)) continue
      if (!prompt.has('id')) prompt.set('id', id)
      const complete = prompt.get('isComplete') === true
      prompt.delete('isComplete')
      ;(complete ? completed : incomplete).push(prompt)
    }
  }
  form.delete('prompts')
  form.set('incompletePrompts', incomplete)
  form.set('completedPrompts', completed)
}
