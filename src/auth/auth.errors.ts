import { defineErrors } from '../common/errors/error-catalog.js';

/** Errors of the token, credential, zkLogin and SIWE logins (codes 12000–12999). */
export const AuthErrors = defineErrors({
  // The encrypted OAuth `token` (JWE) of providerB/providerC logins and of the zkLogins.
  login_token_invalid: {
    status: 401,
    code: 12001,
    description:
      'The `token` is not a compact JWE that decrypts with the tenant shared secret (malformed, tampered, another key or another tenant).',
  },
  login_token_algorithm: {
    status: 401,
    code: 12002,
    description: 'The `token` header is not `alg: dir`, `enc: A256GCM` (a JWS, `alg: none` or any other algorithm is refused).',
  },
  login_token_expired: { status: 401, code: 12003, description: 'The `token` has expired (`exp` passed, beyond the clock tolerance).' },
  login_token_not_yet_valid: {
    status: 401,
    code: 12004,
    description: 'The `token` was issued in the future (`iat` beyond the clock tolerance).',
  },
  login_token_claims: {
    status: 401,
    code: 12005,
    description: 'The `token` lacks a required claim, has an ill-typed one, or lives longer than 300 seconds.',
  },
  login_token_replayed: {
    status: 401,
    code: 12006,
    description: 'The `_nonce` of this `token` was already used: every token logs in once.',
  },
  login_token_provider: {
    status: 401,
    code: 12008,
    description:
      'The `token` carries a `provider` claim naming another login endpoint (e.g. a providerC token posted to providerB/login): each token is accepted only where its provider says.',
  },
  tenant_secret_unusable: {
    status: 401,
    code: 12007,
    description:
      'The tenant shared secret does not decode to a 32-byte key (empty, odd length, not hex, or another length), so every token of the tenant is refused.',
  },
  // providerA credential (OpenID Connect ID token).
  credential_invalid: {
    status: 401,
    code: 12010,
    description:
      'The providerA credential is not a valid ID token: bad signature, unknown key id, wrong issuer or audience, or missing subject.',
  },
  credential_expired: { status: 401, code: 12011, description: 'The providerA credential has expired.' },
  provider_not_configured: {
    status: 503,
    code: 12012,
    description:
      'providerA credential login is not configured (PROVIDER_A_JWKS_URL / PROVIDER_A_ISSUER, or the tenant setting providerAClientId).',
  },
  jwks_unavailable: { status: 503, code: 12013, description: 'The providerA key set could not be fetched; retry later.' },
  // zkLogin
  id_token_invalid: {
    status: 401,
    code: 12020,
    description: 'The `idToken` claim of a zkLogin token is missing or is not a JWT with string `iss`, `aud` and `sub`.',
  },
  primary_account_required: {
    status: 403,
    code: 12021,
    description:
      'The tenant enforces primary account login: this user must log in with the provider account they registered with (the wallet address depends on it).',
  },
  // SIWE
  siwe_message_malformed: { status: 400, description: 'The SIWE `message` is not a valid EIP-4361 message.' },
  siwe_domain_not_allowed: {
    status: 401,
    code: 12031,
    description: 'The SIWE message domain or URI is not one of the tenant allowed origins.',
  },
  siwe_chain_not_allowed: { status: 401, code: 12032, description: 'The SIWE message chain id is not allowed by the tenant.' },
  siwe_message_expired: {
    status: 401,
    code: 12033,
    description: 'The SIWE message has expired (`expirationTime` passed) or was issued too long ago.',
  },
  siwe_message_not_yet_valid: {
    status: 401,
    code: 12034,
    description: 'The SIWE message is not valid yet (`notBefore` or `issuedAt` in the future).',
  },
  siwe_nonce_replayed: {
    status: 401,
    code: 12035,
    description: 'The SIWE nonce was already used: choose a fresh nonce for every message.',
  },
  siwe_signature_invalid: { status: 401, code: 12036, description: 'The signature is not the message signed by its address.' },
  // Password logins and sessions
  invalid_credentials: {
    status: 401,
    code: 12050,
    description: 'No user with this username in the tenant, or the password is wrong (the two are not told apart).',
  },
  refresh_token_invalid: { status: 401, code: 12051, description: 'The refresh token is unknown, revoked, or belongs to another tenant.' },
});
