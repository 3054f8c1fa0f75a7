/**
 * Account types a user can link. `SOCIAL_ACCOUNT_TYPES` (comma-separated) adds more. Types are
 * lowercase; requests are matched case-insensitively.
 */
export const BUILT_IN_SOCIAL_ACCOUNT_TYPES = [
  'apple',
  'battlenet',
  'discord',
  'epic',
  'facebook',
  'github',
  'google',
  'instagram',
  'nintendo',
  'playstation',
  'reddit',
  'riot',
  'steam',
  'telegram',
  'tiktok',
  'twitch',
  'twitter',
  'x',
  'xbox',
  'youtube',
] as const;

export const ACCOUNT_TYPE_PATTERN = /^[a-z0-9][a-z0-9_-]{0,31}$/;

export function allowedSocialAccountTypes(extra: string | undefined): ReadonlySet<string> {
  const added = (extra ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => ACCOUNT_TYPE_PATTERN.test(s));
  return new Set([...BUILT_IN_SOCIAL_ACCOUNT_TYPES, ...added]);
}
