import { Injectable, SetMetadata } from '@nestjs/common';
import type { AuthUser } from '../common/auth/request-context.js';

export const URL_CREDENTIAL_KEY = 'cgs:url-credential';

/** Checks a credential sent in the URL and names its user; throws a DomainError (401) when it is not valid. */
export type UrlCredentialVerifier = (value: unknown) => Promise<AuthUser>;

/**
 * Lets an `@Authenticated()` route also take a short-lived, single-use credential in the query
 * parameter `param` instead of `Authorization: Bearer`, for clients that cannot set headers (a
 * browser's `EventSource`). Never the session token itself: URLs end up in logs and histories.
 * The module that issues the credential registers its verifier with `UrlCredentials`.
 */
export const AcceptsUrlCredential = (param: string) => SetMetadata(URL_CREDENTIAL_KEY, param);

/** The verifiers of URL credentials, by query parameter (filled by the modules that issue them). */
@Injectable()
export class UrlCredentials {
  private readonly verifiers = new Map<string, UrlCredentialVerifier>();

  register(param: string, verify: UrlCredentialVerifier): void {
    if (this.verifiers.has(param)) throw new Error(`a URL credential "${param}" is registered twice`);
    this.verifiers.set(param, verify);
  }

  verify(param: string, value: unknown): Promise<AuthUser> {
    const verify = this.verifiers.get(param);
    if (!verify) throw new Error(`no verifier registered for the URL credential "${param}"`);
    return verify(value);
  }
}
