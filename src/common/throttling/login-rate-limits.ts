import type { AppConfig } from '../../config/app-config.js';

/** Limits that apply when the configuration does not set them (tests get effectively none). */
export const DEFAULT_LOGIN_RATE_LIMIT_IP = 30;
export const DEFAULT_LOGIN_RATE_LIMIT_ACCOUNT = 10;
const TEST_LIMIT = 1_000_000;

export interface LoginRateLimits {
  windowMs: number;
  perIp: number;
  perAccount: number;
}

/** The login/registration limits of this configuration. */
export function loginRateLimits(config: AppConfig): LoginRateLimits {
  const fallback = (n: number) => (config.NODE_ENV === 'test' ? TEST_LIMIT : n);
  return {
    windowMs: config.LOGIN_RATE_WINDOW_SECONDS * 1000,
    perIp: config.LOGIN_RATE_LIMIT_IP ?? fallback(DEFAULT_LOGIN_RATE_LIMIT_IP),
    perAccount: config.LOGIN_RATE_LIMIT_ACCOUNT ?? fallback(DEFAULT_LOGIN_RATE_LIMIT_ACCOUNT),
  };
}
