import { createDecipheriv, type KeyObject } from 'node:crypto';
import { DomainError } from '../common/errors/domain-error.js';
import { AuthErrors } from './auth.errors.js';

/** Lifetime of the encrypted OAuth `token` (spec: 300 s from issuance). */
export const LOGIN_TOKEN_LIFETIME_SECONDS = 300;
export const LOGIN_TOKEN_ALG = 'dir';
export const LOGIN_TOKEN_ENC = 'A256GCM';
/** A256GCM needs exactly this many key bytes. */
export const LOGIN_TOKEN_KEY_BYTES = 32;
/** Longest `token` accepted (a JWE carrying three provider tokens stays far below). */
export const LOGIN_TOKEN_MAX_LENGTH = 16_384;

/**
 * Spec rule 3: the shared secret is hex decoded two characters per byte; an empty or odd-length
 * secret decodes to an empty key. A pair that is not hex also yields the empty key (never a
 * silently shortened one, as `Buffer.from(s, 'hex')` would give).
 */
export function decodeSharedSecret(secret: string): Uint8Array {
  if (secret.length === 0 || secret.length % 2 !== 0) return new Uint8Array(0);
  const out = new Uint8Array(secret.length / 2);
  for (let i = 0; i < out.length; i++) {
    const pair = secret.slice(2 * i, 2 * i + 2);
    if (!/^[0-9a-fA-F]{2}$/.test(pair)) return new Uint8Array(0);
    out[i] = parseInt(pair, 16);
  }
  return out;
}

/** The A256GCM key of a tenant, or a 401 when the secret cannot give one (every token refused). */
export function tokenKeyFromSecret(secret: string): Uint8Array {
  const key = decodeSharedSecret(secret);
  if (key.length !== LOGIN_TOKEN_KEY_BYTES) {
    throw new DomainError(
      AuthErrors.tenant_secret_unusable,
      key.length === 0
        ? 'The tenant shared secret decodes to an empty key; token logins are refused for this tenant'
        : `The tenant shared secret decodes to ${key.length} bytes, not the 32 A256GCM needs; token logins are refused for this tenant`,
    );
  }
  return key;
}

/**
 * Checks the compact serialisation and its protected header before any decryption: five
 * base64url parts, `alg` exactly `dir`, `enc` exactly `A256GCM`, no compression.
 */
export function checkCompactJweHeader(token: string): void {
  const parts = token.split('.');
  if (parts.length === 3)
    throw new DomainError(
      AuthErrors.login_token_algorithm,
      'The token is a compact JWS (signed, not encrypted); a JWE with alg dir and enc A256GCM is required',
    );
  if (parts.length !== 5)
    throw new DomainError(AuthErrors.login_token_invalid, 'The token is not a compact JWE (five dot-separated parts)');
  if (!parts.every((p, i) => /^[A-Za-z0-9_-]*$/.test(p) && (i === 1 || p.length > 0))) {
    throw new DomainError(AuthErrors.login_token_invalid, 'The token is not a compact JWE (bad base64url part)');
  }
  if (parts[1] !== '') throw new DomainError(AuthErrors.login_token_algorithm, 'alg dir carries no encrypted key; this token has one');
  let header: unknown;
  try {
    header = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8'));
  } catch {
    throw new DomainError(AuthErrors.login_token_invalid, 'The token protected header is not JSON');
  }
  if (typeof header !== 'object' || header === null || Array.isArray(header))
    throw new DomainError(AuthErrors.login_token_invalid, 'The token protected header is not a JSON object');
  const h = header as Record<string, unknown>;
  if (h.alg !== LOGIN_TOKEN_ALG)
    throw new DomainError(
      AuthErrors.login_token_algorithm,
      `The token alg is ${JSON.stringify(h.alg) ?? 'missing'}; only "dir" is accepted`,
    );
  if (h.enc !== LOGIN_TOKEN_ENC)
    throw new DomainError(
      AuthErrors.login_token_algorithm,
      `The token enc is ${JSON.stringify(h.enc) ?? 'missing'}; only "A256GCM" is accepted`,
    );
  if (h.zip !== undefined) throw new DomainError(AuthErrors.login_token_algorithm, 'Compressed tokens (zip) are not accepted');
  if (h.crit !== undefined)
    throw new DomainError(AuthErrors.login_token_algorithm, 'Tokens with critical header parameters are not accepted');
}

/** A256GCM's initialisation vector and authentication tag, in bytes (RFC 7518 5.3). */
const GCM_IV_BYTES = 12;
const GCM_TAG_BYTES = 16;

/**
 * Decrypts a compact JWE whose header `checkCompactJweHeader` accepted (alg `dir`, enc `A256GCM`,
 * no encrypted key, no zip): AES-256-GCM of the ciphertext with the protected header, as ASCII, as
 * the additional data (RFC 7516 5.2). Null when it does not decrypt (wrong key, tampered).
 *
 * node:crypto rather than jose's `compactDecrypt`: jose decrypts through WebCrypto, an
 * asynchronous job per token that costs a login many times the CPU of this synchronous call
 * (docs/performance.md, issue 17). jose stays the reference: the tests encrypt with it.
 */
export function decryptCompactJwe(token: string, key: KeyObject): Buffer | null {
  const [header, , ivPart, ciphertext, tagPart] = token.split('.');
  const iv = Buffer.from(ivPart, 'base64url');
  const tag = Buffer.from(tagPart, 'base64url');
  if (iv.length !== GCM_IV_BYTES || tag.length !== GCM_TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: GCM_TAG_BYTES });
    decipher.setAAD(Buffer.from(header, 'ascii'));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]);
  } catch {
    return null;
  }
}

/** The claims of the OAuth `token`, validated. Optional claims are `undefined` when absent or null. */
export interface LoginTokenClaims {
  nonce: string;
  subjectId: string;
  handle: string;
  idToken?: string;
  accessToken?: string;
  refreshToken?: string;
  referrerHandle?: string;
  /** The endpoint the token is for (`providerB`, `providerC`, `providerA`, `providerD`), when the backend says. */
  provider?: string;
  iat: number;
  exp: number;
}

const NONCE = /^[0-9a-fA-F]{16}$/;
const MAX_CLAIM = 8_192;

/**
 * Validates the decrypted claims against the clock: `_nonce` (8 bytes hex), `subjectId` and
 * `handle` (strings), `iat`/`exp` (integers, `exp` at most 300 s after `iat`, `iat` not in the
 * future and `exp` not past, both with `toleranceSeconds`). `idToken`, `accessToken`,
 * `refreshToken`, `referrerHandle` are strings when present (null counts as absent). `provider`,
 * when present, must be `endpointProvider`: a token minted for one login endpoint is refused at
 * the others (the shared secret is the same for all of a tenant's providers).
 */
export function validateLoginClaims(
  payload: unknown,
  nowSeconds: number,
  toleranceSeconds: number,
  endpointProvider: string,
): LoginTokenClaims {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
    throw new DomainError(AuthErrors.login_token_claims, 'The token payload is not a JSON object');
  const c = payload as Record<string, unknown>;
  const str = (name: string, required: boolean, nonEmpty = false): string | undefined => {
    const v = c[name];
    if (v === undefined || v === null) {
      if (required) throw new DomainError(AuthErrors.login_token_claims, `The token lacks the claim ${name}`);
      return undefined;
    }
    if (typeof v !== 'string') throw new DomainError(AuthErrors.login_token_claims, `The token claim ${name} must be a string`);
    if (v.length > MAX_CLAIM) throw new DomainError(AuthErrors.login_token_claims, `The token claim ${name} is too long`);
    if (nonEmpty && v.trim() === '') throw new DomainError(AuthErrors.login_token_claims, `The token claim ${name} is empty`);
    return v;
  };
  const int = (name: string): number => {
    const v = c[name];
    if (v === undefined || v === null) throw new DomainError(AuthErrors.login_token_claims, `The token lacks the claim ${name}`);
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0)
      throw new DomainError(AuthErrors.login_token_claims, `The token claim ${name} must be a whole number of seconds`);
    return v;
  };
  const nonce = str('_nonce', true)!;
  if (!NONCE.test(nonce)) throw new DomainError(AuthErrors.login_token_claims, 'The token claim _nonce must be 8 bytes in hexadecimal');
  const subjectId = str('subjectId', true, true)!;
  if (subjectId.length > 255)
    throw new DomainError(AuthErrors.login_token_claims, 'The token claim subjectId is longer than 255 characters');
  const handle = str('handle', true)!;
  const claims: LoginTokenClaims = {
    nonce: nonce.toLowerCase(),
    subjectId,
    handle,
    idToken: str('idToken', false),
    accessToken: str('accessToken', false),
    refreshToken: str('refreshToken', false),
    referrerHandle: str('referrerHandle', false),
    provider: str('provider', false),
    iat: int('iat'),
    exp: int('exp'),
  };
  if (claims.provider !== undefined && claims.provider !== endpointProvider) {
    throw new DomainError(
      AuthErrors.login_token_provider,
      `The token is for ${JSON.stringify(claims.provider.slice(0, 32))}, not ${endpointProvider}; post it to that provider's login endpoint`,
    );
  }
  if (claims.exp <= claims.iat) throw new DomainError(AuthErrors.login_token_claims, 'The token exp is not after its iat');
  if (claims.exp - claims.iat > LOGIN_TOKEN_LIFETIME_SECONDS) {
    throw new DomainError(
      AuthErrors.login_token_claims,
      `The token lives ${claims.exp - claims.iat} s; at most ${LOGIN_TOKEN_LIFETIME_SECONDS} s are accepted`,
    );
  }
  if (claims.iat > nowSeconds + toleranceSeconds)
    throw new DomainError(AuthErrors.login_token_not_yet_valid, 'The token was issued in the future');
  if (claims.exp <= nowSeconds - toleranceSeconds) throw new DomainError(AuthErrors.login_token_expired, 'The token has expired');
  return claims;
}
