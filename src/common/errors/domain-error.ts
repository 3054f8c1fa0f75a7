import type { ErrorDefinition } from './error-catalog.js';

/**
 * The one error type services throw. It carries a catalogued definition; the exception filter
 * turns it into the HTTP status and the `{code, error, message}` body. Services never import HTTP
 * exception classes.
 */
export class DomainError extends Error {
  constructor(
    readonly definition: ErrorDefinition,
    message: string = definition.description,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}
