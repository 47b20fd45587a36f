import {
  ConflictError,
  InvalidInputError,
  NotFoundError,
  OverloadedError,
  statusOf,
  UnavailableError,
} from '@catalog/core'
import { Neo4jError } from 'neo4j-driver'
import t from 'tap'
import { translateError } from './errors.js'
import { Neo4jMetadataStore } from './neo4j-store.js'

const driverError = (code: string) => new Neo4jError(`message of ${code}`, code, '', '')

t.test('driver error codes map to domain errors that keep the original as cause', async (t) => {
  const cases: Array<[string, new (...args: never[]) => Error, number]> = [
    ['ServiceUnavailable', UnavailableError, 503],
    ['SessionExpired', UnavailableError, 503],
    ['Neo.ClientError.Security.Unauthorized', UnavailableError, 503],
    ['Neo.ClientError.Security.AuthenticationRateLimit', UnavailableError, 503],
    ['Neo.ClientError.Database.DatabaseNotFound', UnavailableError, 503],
    ['Neo.ClientError.Cluster.NotALeader', UnavailableError, 503],
    ['Neo.DatabaseError.General.UnknownError', UnavailableError, 503],
    ['Neo.TransientError.General.DatabaseUnavailable', UnavailableError, 503],
    ['Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration', UnavailableError, 503],
    ['Neo.ClientError.Schema.ConstraintValidationFailed', ConflictError, 409],
    ['Neo.TransientError.Transaction.DeadlockDetected', ConflictError, 409],
    ['Neo.TransientError.Transaction.LockAcquisitionTimeout', ConflictError, 409],
    ['Neo.TransientError.General.MemoryPoolOutOfMemoryError', OverloadedError, 429],
    ['Neo.ClientError.Statement.ArgumentError', InvalidInputError, 400],
  ]
  for (const [code, type, status] of cases) {
    const original = driverError(code)
    const translated = translateError(original, 'write')
    t.type(translated, type, code)
    t.equal(statusOf(translated), status, `${code} -> ${status}`)
    t.equal(translated.cause, original, `${code} keeps the driver error as cause`)
    t.match(translated.message, code, 'the message names the code')
    t.match(translated.message, /^.*write/, 'and what the store was doing')
  }
})

t.test('a statement Neo4j rejects is an internal error, not a driver type', async (t) => {
  const original = driverError('Neo.ClientError.Statement.SyntaxError')
  const translated = translateError(original, 'read')
  t.notOk(translated instanceof Neo4jError)
  t.equal(statusOf(translated), 500)
  t.equal(translated.cause, original)
})

t.test('domain errors and foreign errors pass through unchanged', async (t) => {
  const domain = new NotFoundError('gone')
  t.equal(translateError(domain, 'read'), domain)
  const bigint = new TypeError('Do not know how to serialize a BigInt')
  t.equal(translateError(bigint, 'write'), bigint)
  const thrown = translateError('text', 'write')
  t.type(thrown, Error)
  t.equal(thrown.message, 'text')
})

t.test('opening the store without a reachable server is a clear UnavailableError', async (t) => {
  await t.rejects(
    Neo4jMetadataStore.open({ uri: 'bolt://127.0.0.1:1', user: 'neo4j', connectionTimeoutMs: 2000 }),
    {
      name: 'UnavailableError',
      message: /cannot connect to Neo4j at bolt:\/\/127\.0\.0\.1:1: .*\[ServiceUnavailable\]/,
    },
  )
  await t.rejects(Neo4jMetadataStore.open({ uri: 'http://127.0.0.1:7474', user: 'neo4j' }), {
    name: 'UnavailableError',
    message: /cannot use NEO4J_URI 'http:\/\/127\.0\.0\.1:7474'/,
  })
})
