import { ConflictError } from '@catalog/core'

/**
 * A {@link LatestUnchanged} write found another latest value than the one its patch was applied
 * to: someone wrote the aspect in between. Its batch wrote nothing; the caller reads again and
 * reapplies. A conflict (HTTP 409) should it ever reach a client.
 */
export class LatestChangedError extends ConflictError {
  constructor(urn: string, aspect: string) {
    super(`The latest value of ${aspect} of ${urn} changed while the patch was applied; retry the write`)
  }

  /** The same error again from its message, after it crossed a thread (see `toWireError`). */
  static fromMessage(message: string): LatestChangedError {
    const err = new LatestChangedError('', '')
    err.message = message
    return err
  }
}
