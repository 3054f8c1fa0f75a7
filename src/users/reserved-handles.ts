import type { Tenant } from '../tenants/entities/tenant.entity.js';

/**
 * Handles a player cannot take, because players would read them as the staff's or the operator's.
 * A tenant without `settings.reservedHandles` reserves these, its own slug and its name; a tenant
 * with the setting reserves exactly its list (the demo tenant's lets its player `demo` in).
 */
export const DEFAULT_RESERVED_HANDLES: readonly string[] = [
  'admin',
  'administrator',
  'root',
  'system',
  'sysadmin',
  'superuser',
  'support',
  'help',
  'helpdesk',
  'moderator',
  'mod',
  'staff',
  'official',
  'security',
  'gamemaster',
  'gm',
];

/** Most entries of a tenant's `reservedHandles`, and the longest one. */
export const MAX_RESERVED_HANDLES = 1000;
const MAX_RESERVED_LENGTH = 64;

/** Digits players write for letters (`adm1n`, `m0d`). */
const LOOKALIKE: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '8': 'b' };

/**
 * What a handle reads as: lower case, accents dropped, separators (`_` `.` `-`, spaces) dropped,
 * trailing digits dropped (`admin_42` reads as `admin`), digits that stand for letters read as
 * those letters. Two handles with one skeleton look alike to players.
 */
export function handleSkeleton(handle: string): string {
  return handle
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[\s_.-]+/g, '')
    .replace(/\d+$/, '')
    .replace(/[0134578]/g, (d) => LOOKALIKE[d]);
}

/** Why a `reservedHandles` tenant setting is refused, or undefined when it is valid (null removes it). */
export function reservedHandlesProblem(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (!Array.isArray(value)) return 'reservedHandles must be an array of handles';
  if (value.length > MAX_RESERVED_HANDLES) return `reservedHandles holds at most ${MAX_RESERVED_HANDLES} handles`;
  for (const v of value) {
    if (typeof v !== 'string' || v.length === 0 || v.length > MAX_RESERVED_LENGTH || handleSkeleton(v) === '')
      return `each of reservedHandles must be a handle of 1 to ${MAX_RESERVED_LENGTH} characters with a letter`;
  }
  return undefined;
}

/** The skeletons a tenant reserves: its own list, or the default one with its slug and its name. */
export function reservedSkeletons(tenant: Pick<Tenant, 'slug' | 'name' | 'settings'>): Set<string> {
  const own = tenant.settings?.reservedHandles;
  const list =
    Array.isArray(own) && reservedHandlesProblem(own) === undefined ? own : [...DEFAULT_RESERVED_HANDLES, tenant.slug, tenant.name];
  return new Set(list.map(handleSkeleton).filter((s) => s !== ''));
}
