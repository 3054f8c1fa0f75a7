import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The headers of a delivery (lowercase, as Node.js and most frameworks read them). */
export const WEBHOOK_HEADERS = {
  eventId: 'x-cgs-event-id',
  eventType: 'x-cgs-event-type',
  timestamp: 'x-cgs-timestamp',
  signature: 'x-cgs-signature',
  deliveryId: 'x-cgs-delivery-id',
  attempt: 'x-cgs-delivery-attempt',
} as const;

/** A new signing secret: `whsec_` and 32 random bytes (base64url). Receivers use the whole string as the HMAC key. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** `v1=<hex HMAC-SHA256 of "<timestamp>.<body>">`, one per secret (two during a rotation's overlap), comma-separated. */
export function signatureHeader(secrets: readonly string[], timestamp: number, body: string): string {
  return secrets.map((s) => `v1=${createHmac('sha256', s).update(`${timestamp}.${body}`).digest('hex')}`).join(',');
}

/**
 * The receiver's check (docs/integrations.md shows the same in 20 lines): one of the header's
 * signatures is the HMAC of `<timestamp>.<raw body>` with the secret, and the timestamp is
 * within `toleranceSeconds` of now (a captured delivery cannot be replayed later).
 */
export function verifyWebhookSignature(
  secret: string,
  header: string | undefined,
  timestamp: string | undefined,
  rawBody: string,
  nowSeconds: number,
  toleranceSeconds = 300,
): boolean {
  if (!header || !timestamp || !/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest();
  return header.split(',').some((part) => {
    const [scheme, hex] = part.trim().split('=', 2);
    if (scheme !== 'v1' || !hex || !/^[0-9a-f]{64}$/.test(hex)) return false;
    return timingSafeEqual(Buffer.from(hex, 'hex'), expected);
  });
}
