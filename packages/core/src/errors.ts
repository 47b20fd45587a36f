/**
 * Domain errors. They know nothing of HTTP: each app maps them to a status and the
 * DataHub error body in one error handler, and the GraphQL formatter maps them to
 * `extensions.code`.
 */
export abstract class CatalogError extends Error {
  abstract readonly kind: CatalogErrorKind
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = new.target.name
  }
}

export type CatalogErrorKind =
  | 'invalid-input'
  | 'validation'
  | 'not-found'
  | 'conflict'
  | 'unauthorized'
  | 'forbidden'
  | 'payload-too-large'
  | 'overloaded'
  | 'precondition'
  | 'unavailable'

/** The request is malformed: bad JSON shape, bad URN, missing parameter (HTTP 400). */
export class InvalidInputError extends CatalogError {
  readonly kind = 'invalid-input'
}

/** The request is well-formed but breaks the registry or a schema (HTTP 422). */
export class ValidationError extends CatalogError {
  readonly kind = 'validation'
}

/** The addressed thing does not exist (HTTP 404). */
export class NotFoundError extends CatalogError {
  readonly kind = 'not-found'
}

/** The write conflicts with the stored state (HTTP 409). */
export class ConflictError extends CatalogError {
  readonly kind = 'conflict'
}

/** No or bad credentials (HTTP 401). */
export class UnauthorizedError extends CatalogError {
  readonly kind = 'unauthorized'
}

/** Credentials are fine but the action is not allowed (HTTP 403). */
export class ForbiddenError extends CatalogError {
  readonly kind = 'forbidden'
}

/** Rest.li's `invalidArgumentsException` (HTTP 412), e.g. mismatched batch lengths. */
export class PreconditionError extends CatalogError {
  readonly kind = 'precondition'
}

/** A backend (store, index, peer service) cannot be reached (HTTP 503). */
export class UnavailableError extends CatalogError {
  readonly kind = 'unavailable'
}

/** Too much load right now; retry after `retryAfterSeconds` (HTTP 429). */
export class OverloadedError extends CatalogError {
  readonly kind = 'overloaded'
  constructor(
    message: string,
    readonly retryAfterSeconds = 1,
  ) {
    super(message)
  }
}

const STATUS: Record<CatalogErrorKind, number> = {
  'invalid-input': 400,
  validation: 422,
  'not-found': 404,
  conflict: 409,
  unauthorized: 401,
  forbidden: 403,
  'payload-too-large': 413,
  overloaded: 429,
  precondition: 412,
  unavailable: 503,
}

/** HTTP status for a domain error kind; 500 for anything that is not a domain error. */
export function statusOf(err: unknown): number {
  return err instanceof CatalogError ? STATUS[err.kind] : 500
}

const BY_KIND: Partial<Record<CatalogErrorKind, new (message: string) => CatalogError>> = {
  'invalid-input': InvalidInputError,
  validation: ValidationError,
  'not-found': NotFoundError,
  conflict: ConflictError,
  unauthorized: UnauthorizedError,
  forbidden: ForbiddenError,
  precondition: PreconditionError,
  unavailable: UnavailableError,
  overloaded: OverloadedError,
}

/**
 * The domain error of a kind, rebuilt from its message after crossing a thread or service
 * boundary; undefined for a kind with no such class (`payload-too-large`).
 */
export function errorOfKind(kind: CatalogErrorKind, message: string): CatalogError | undefined {
  const Kind = BY_KIND[kind]
  return Kind ? new Kind(message) : undefined
}

/** The error kind an HTTP status stands for: the inverse of {@link statusOf}. */
export function kindOfStatus(status: number): CatalogErrorKind | undefined {
  return (Object.keys(STATUS) as CatalogErrorKind[]).find((kind) => STATUS[kind] === status)
}
