import {
  CatalogError,
  ConflictError,
  InvalidInputError,
  OverloadedError,
  UnavailableError,
} from '@catalog/core'

/** The fields of a driver error this module reads (`Neo4jError`, without importing the driver's type). */
interface DriverError {
  readonly name: string
  readonly message: string
  readonly code: string
}

function isDriverError(err: unknown): err is DriverError {
  return (
    err instanceof Error &&
    typeof (err as Partial<DriverError>).code === 'string' &&
    (err.name === 'Neo4jError' || (err as DriverError).code.startsWith('Neo.'))
  )
}

const UNREACHABLE = new Set(['ServiceUnavailable', 'SessionExpired', 'ProtocolError'])
const CONFLICTS = new Set([
  'Neo.ClientError.Schema.ConstraintValidationFailed',
  'Neo.TransientError.Transaction.DeadlockDetected',
  'Neo.TransientError.Transaction.LockAcquisitionTimeout',
  'Neo.ClientError.Transaction.LockAcquisitionTimeout',
])
const OVERLOADED = new Set([
  'Neo.TransientError.General.MemoryPoolOutOfMemoryError',
  'Neo.TransientError.General.TransactionMemoryLimit',
  'Neo.TransientError.Request.ResourceExhaustion',
])
const BAD_ARGUMENTS = new Set(['Neo.ClientError.Statement.ArgumentError'])

/**
 * Maps an error from the Neo4j driver to a domain error, keeping the original as `cause`
 * (no driver type crosses the port):
 *
 * - no connection, expired session, security, missing database, database and other
 *   transient errors: {@link UnavailableError}
 * - uniqueness violations and lock conflicts left after the driver's retries:
 *   {@link ConflictError}
 * - memory exhaustion: {@link OverloadedError}
 * - a rejected argument (a negative LIMIT): {@link InvalidInputError}
 *
 * Domain errors pass through; any other error (a statement Neo4j rejects is a bug) becomes a
 * plain `Error` naming the code. `doing` says what the store was doing ("write", "read").
 */
export function translateError(err: unknown, doing: string): Error {
  if (err instanceof CatalogError) return err
  if (!isDriverError(err)) return err instanceof Error ? err : new Error(String(err))
  const code = err.code
  const detail = `${doing}: ${err.message} [${code}]`
  if (
    UNREACHABLE.has(code) ||
    code.startsWith('Neo.ClientError.Security.') ||
    code === 'Neo.ClientError.Database.DatabaseNotFound' ||
    code.startsWith('Neo.ClientError.Cluster.') ||
    code.startsWith('Neo.DatabaseError.') ||
    code.startsWith('Neo.ClientError.Transaction.TransactionTimedOut')
  ) {
    return new UnavailableError(`Neo4j is unavailable (${detail})`, { cause: err })
  }
  if (CONFLICTS.has(code)) {
    return new ConflictError(`the write conflicts with the stored state (${detail})`, { cause: err })
  }
  if (OVERLOADED.has(code)) {
    return Object.assign(new OverloadedError(`Neo4j is out of memory (${detail})`, 1), { cause: err })
  }
  if (BAD_ARGUMENTS.has(code)) {
    return new InvalidInputError(`Neo4j rejected an argument (${detail})`, { cause: err })
  }
  if (code.startsWith('Neo.TransientError.')) {
    return new UnavailableError(`Neo4j is unavailable (${detail})`, { cause: err })
  }
  return new Error(`Neo4j failed (${detail})`, { cause: err })
}

/**
 * True when `err` (or an error it was caused by) is Neo4j terminating a transaction that
 * outlived the timeout it was started with.
 */
export function isTransactionTimeout(err: unknown): boolean {
  for (let at: unknown = err, depth = 0; at instanceof Error && depth < 5; at = at.cause, depth++) {
    const code = (at as { code?: unknown }).code
    if (typeof code === 'string' && code.startsWith('Neo.ClientError.Transaction.TransactionTimedOut')) {
      return true
    }
  }
  return false
}
