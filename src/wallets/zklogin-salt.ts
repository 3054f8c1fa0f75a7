import { hkdfSync } from 'node:crypto';

/** zkLogin salts are 16 bytes: any value below 2^128. */
export const ZKLOGIN_SALT_BYTES = 16;
const HKDF_SALT = 'cgs/zklogin-user-salt/v1';

/**
 * The zkLogin user salt of one identity: HKDF-SHA256 over the master seed, with the tenant,
 * provider and subject as `info`, 16 bytes read as an unsigned big-endian integer (< 2^128).
 * Deterministic, so it is never stored and never lost while the master seed is kept.
 */
export function deriveZkLoginSalt(masterSeed: Uint8Array, tenantId: string, provider: string, subjectId: string): bigint {
  if (masterSeed.length < 32) throw new Error('the zkLogin master seed must have at least 32 bytes');
  const info = Buffer.from(JSON.stringify([tenantId, provider, subjectId]), 'utf8');
  const okm = Buffer.from(hkdfSync('sha256', masterSeed, HKDF_SALT, info, ZKLOGIN_SALT_BYTES));
  return BigInt(`0x${okm.toString('hex')}`);
}
