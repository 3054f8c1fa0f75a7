import { retryDelayMs, retryOffsets, MAX_RETRY_DELAY_MS } from './retry-schedule.js';
import { isPublicAddress, resolveAllowed, UrlRefused } from './url-guard.js';
import { newWebhookSecret, signatureHeader, verifyWebhookSignature } from './webhook-signature.js';
import { eventSchemaComponents, toOpenApi30 } from './event-catalog.js';

describe('webhook retry schedule', () => {
  it('doubles from the base, at most 4 hours apart, the last attempt at the end of the window (15 attempts over 24 h by default)', () => {
    const offsets = retryOffsets(30_000, 24 * 3600_000);
    expect(offsets).toHaveLength(15);
    expect(offsets.slice(0, 5)).toEqual([0, 30_000, 90_000, 210_000, 450_000]);
    expect(offsets.at(-1)).toBe(24 * 3600_000);
    for (let i = 1; i < offsets.length; i++) expect(offsets[i] - offsets[i - 1]).toBeLessThanOrEqual(MAX_RETRY_DELAY_MS);
  });

  it('jitters each wait by at most 20 % and ends after the last attempt', () => {
    const offsets = retryOffsets(1000, 10_000); // 0, 1, 3, 7, 10 s
    expect(offsets).toEqual([0, 1000, 3000, 7000, 10_000]);
    expect(retryDelayMs(1, offsets, () => 0)).toBe(800);
    expect(retryDelayMs(1, offsets, () => 0.999999)).toBe(1200);
    expect(retryDelayMs(3, offsets, () => 0.5)).toBe(4000);
    expect(retryDelayMs(4, offsets, () => 0.5)).toBe(3000);
    expect(retryDelayMs(5, offsets)).toBeNull();
  });
});

describe('webhook signatures', () => {
  const secret = newWebhookSecret();
  const body = '{"id":"x"}';

  it('verifies its own signature within the tolerance and refuses a changed body, another secret or an old timestamp', () => {
    const header = signatureHeader([secret], 1_700_000_000, body);
    expect(header).toMatch(/^v1=[0-9a-f]{64}$/);
    expect(verifyWebhookSignature(secret, header, '1700000000', body, 1_700_000_100)).toBe(true);
    expect(verifyWebhookSignature(secret, header, '1700000000', `${body} `, 1_700_000_100)).toBe(false);
    expect(verifyWebhookSignature(newWebhookSecret(), header, '1700000000', body, 1_700_000_100)).toBe(false);
    expect(verifyWebhookSignature(secret, header, '1700000000', body, 1_700_000_301)).toBe(false);
    expect(verifyWebhookSignature(secret, header, '1700000001', body, 1_700_000_100)).toBe(false);
    expect(verifyWebhookSignature(secret, undefined, '1700000000', body, 1_700_000_000)).toBe(false);
    expect(verifyWebhookSignature(secret, 'v1=zz', '1700000000', body, 1_700_000_000)).toBe(false);
  });

  it('signs with every active secret during a rotation', () => {
    const old = newWebhookSecret();
    const header = signatureHeader([secret, old], 1_700_000_000, body);
    expect(header.split(',')).toHaveLength(2);
    for (const s of [secret, old]) expect(verifyWebhookSignature(s, header, '1700000000', body, 1_700_000_000)).toBe(true);
  });
});

describe('webhook URL guard (SSRF)', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    'fe80::1',
    'fc00::1',
    '::ffff:127.0.0.1',
    '224.0.0.1',
    'not-an-ip',
    // Found from outside (issue 46): NAT64 of 10.0.0.1 (local-use prefix and well-known one),
    // IPv4-compatible loopback, site-local, discard-only, benchmarking.
    '64:ff9b:1::a00:1',
    '64:ff9b::a00:1',
    '::127.0.0.1',
    '::7f00:1',
    'fec0::1',
    '100::1',
    '198.18.0.1',
    // Deny by default: every IPv6 block outside global unicast, and its special blocks.
    '::',
    '2001:db8::1',
    '2001::1',
    '2002:a00:1::1',
    '3fff::1',
    '5f00::1',
    'ff02::1',
    '192.0.0.8',
    '192.0.2.1',
    '240.0.0.1',
    '255.255.255.255',
  ])('refuses %s', (address) => expect(isPublicAddress(address)).toBe(false));

  it.each(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808'])('accepts %s', (address) =>
    expect(isPublicAddress(address)).toBe(true),
  );

  it('checks every address a name resolves to, unless private addresses are allowed', async () => {
    await expect(resolveAllowed('localhost', false)).rejects.toBeInstanceOf(UrlRefused);
    await expect(resolveAllowed('[::1]', false)).rejects.toBeInstanceOf(UrlRefused);
    await expect(resolveAllowed('127.0.0.1', true)).resolves.toEqual([{ address: '127.0.0.1', family: 4 }]);
    await expect(resolveAllowed('8.8.8.8', false)).resolves.toEqual([{ address: '8.8.8.8', family: 4 }]);
    await expect(resolveAllowed('no-such-host.invalid', true)).rejects.toBeInstanceOf(UrlRefused);
  });
});

describe('event schemas in OpenAPI 3.0', () => {
  it('turns null unions into nullable and lists every type', () => {
    expect(toOpenApi30({ type: ['string', 'null'], format: 'uuid' })).toEqual({ type: 'string', format: 'uuid', nullable: true });
    const components = eventSchemaComponents();
    expect(Object.keys(components)).toContain('WebhookEnvelope');
    expect(Object.keys(components)).toContain('WebhookEvent_store.purchase_completed');
    expect(JSON.stringify(components)).not.toContain('"null"');
  });
});
