import type { AppConfig } from '../../config/app-config.js';

/**
 * Defaults when neither the configuration nor the tenant sets a limit (tests get effectively none).
 * Per address is high: players behind carrier NAT share one. Per account and address stops guessing
 * from one place. Per account (all addresses) is the ceiling a distributed guess reaches first.
 */
export const DEFAULT_LOGIN_RATE_LIMIT_IP = 300;
export const DEFAULT_LOGIN_RATE_LIMIT_ACCOUNT = 10;
export const DEFAULT_LOGIN_RATE_LIMIT_ACCOUNT_TOTAL = 100;
const TEST_LIMIT = 1_000_000;
const MAX_LIMIT = 1_000_000_000;

export interface LoginRateLimits {
  windowMs: number;
  /** Requests per client address, all login and registration routes of the tenant. */
  perAddress: number;
  /** Attempts per account and client address. */
  perAccountAndAddress: number;
  /** Attempts per account from every address; over it only known addresses may try. */
  perAccount: number;
  /** How long an address an account logged in from stays known to it. */
  knownClientMs: number;
}

/** The tenant setting `loginRateLimits`: overrides of the configured limits. */
export interface LoginRateLimitSettings {
  perAddress?: number;
  perAccountAndAddress?: number;
  perAccount?: number;
}

const KEYS = ['perAddress', 'perAccountAndAddress', 'perAccount'] as const;
const isLimit = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 1 && v <= MAX_LIMIT;

/**
 * Why a `loginRateLimits` tenant setting is refused, or undefined when it is valid (null removes
 * it). Checked where settings are written.
 */
export function loginRateLimitSettingsProblem(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'object' || Array.isArray(value))
    return 'loginRateLimits must be an object {perAddress, perAccountAndAddress, perAccount}';
  for (const [key, v] of Object.entries(value)) {
    if (!(KEYS as readonly string[]).includes(key)) return `loginRateLimits.${key.slice(0, 40)} is not a setting (${KEYS.join(', ')})`;
    if (!isLimit(v)) return `loginRateLimits.${key} must be a whole number from 1 to ${MAX_LIMIT}`;
  }
  return undefined;
}

/** The login/registration limits of this configuration and, when given, a tenant's overrides. */
export function loginRateLimits(config: AppConfig, tenant?: LoginRateLimitSettings | null): LoginRateLimits {
  const fallback = (n: number) => (config.NODE_ENV === 'test' ? TEST_LIMIT : n);
  // A stored value that is not valid (written before validation, or by hand) is ignored.
  const own = (key: (typeof KEYS)[number]) => (tenant && typeof tenant === 'object' && isLimit(tenant[key]) ? tenant[key] : undefined);
  return {
    windowMs: config.LOGIN_RATE_WINDOW_SECONDS * 1000,
    perAddress: own('perAddress') ?? config.LOGIN_RATE_LIMIT_IP ?? fallback(DEFAULT_LOGIN_RATE_LIMIT_IP),
    perAccountAndAddress: own('perAccountAndAddress') ?? config.LOGIN_RATE_LIMIT_ACCOUNT ?? fallback(DEFAULT_LOGIN_RATE_LIMIT_ACCOUNT),
    perAccount: own('perAccount') ?? config.LOGIN_RATE_LIMIT_ACCOUNT_TOTAL ?? fallback(DEFAULT_LOGIN_RATE_LIMIT_ACCOUNT_TOTAL),
    knownClientMs: config.LOGIN_KNOWN_CLIENT_DAYS * 24 * 3600 * 1000,
  };
}
