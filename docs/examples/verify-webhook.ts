import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Verifies a delivery of the Community Gaming Service. `rawBody`: the request body exactly as
 * received (before any JSON parsing); `secret`: the subscription's `whsec_...` secret.
 */
export function verifyCgsWebhook(secret: string, headers: Record<string, string | undefined>, rawBody: string): boolean {
  const timestamp = headers['x-cgs-timestamp'];
  const signatures = headers['x-cgs-signature'];
  if (!timestamp || !signatures || !/^\d+$/.test(timestamp)) return false;
  // Refuse old deliveries: a captured request cannot be replayed later.
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest();
  // One `v1=<hex>` per active secret (two while a rotated secret overlaps): one must match.
  return signatures.split(',').some((part) => {
    const [scheme, hex] = part.trim().split('=');
    const given = Buffer.from(hex ?? '', 'hex');
    return scheme === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}
