/**
 * A command that could not do its job for a reason the user can act on (a catalog has the
 * data dir open, a damaged backup, a non-empty target): printed as one message, exit 1.
 */
export class CommandFailure extends Error {
  override readonly name = 'CommandFailure'
}
