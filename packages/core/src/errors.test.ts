import t from 'tap'
import {
  type CatalogErrorKind,
  errorOfKind,
  InvalidInputError,
  kindOfStatus,
  OverloadedError,
  statusOf,
} from './errors.js'

t.test('a status maps back to its kind, and a kind to its error class', async (t) => {
  t.equal(kindOfStatus(400), 'invalid-input')
  t.equal(kindOfStatus(429), 'overloaded')
  t.equal(kindOfStatus(500), undefined, 'a bug is no domain error')
  const rebuilt = errorOfKind('invalid-input', 'bad')
  t.ok(rebuilt instanceof InvalidInputError)
  t.equal(rebuilt?.message, 'bad')
  t.ok(errorOfKind('overloaded', 'busy') instanceof OverloadedError)
  t.equal(errorOfKind('payload-too-large', 'big'), undefined, 'no plain-message class')
  for (const status of [400, 401, 403, 404, 409, 412, 422, 429, 503]) {
    const kind = kindOfStatus(status) as CatalogErrorKind
    t.equal(statusOf(errorOfKind(kind, 'x')), status, `${status} round-trips`)
  }
})
