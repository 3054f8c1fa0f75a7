import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { givenUser } from '../helpers/factories.js';
import { API_TAGS, INTERFACE_TAGS } from '../../src/openapi-layout.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Swagger UI in a real browser: the first screen shows operations (the error catalogue is one
 * click away, not in the way); a frontend developer authorises with a session token, runs
 * "Try it out" on an authenticated endpoint and sees a 200.
 */
describe('Swagger UI in headless Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found: apt-get install chromium (or set CHROMIUM_PATH)`);
    t = await createTestApp({}, { swagger: true });
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('shows the first operation on the first 1280×800 screen, groups in the interface order, error codes one click away', async () => {
    const viewport = { width: 1280, height: 800 };
    const page = await browser.newPage({ viewport });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${base}/docs`);
    const first = page.locator('.opblock').first();
    await first.waitFor();

    // The first operation of the interface, entirely on the first screen, nothing scrolled.
    expect(await first.getAttribute('id')).toBe('operations-Authentication-passwordLogin');
    const box = await first.boundingBox();
    expect(box).not.toBeNull();
    expect(box!.y).toBeGreaterThan(0);
    expect(box!.y + box!.height).toBeLessThan(viewport.height);
    expect(await page.evaluate('window.scrollY')).toBe(0);

    // Groups: the interface's, in its order, then the extensions, management last. From 150
    // operations on, Swagger UI renders the list virtualised (only what is on screen is in the
    // page), so the order is read from its state; the headings on screen must be its first ones.
    const tags = await page.evaluate(() =>
      (globalThis as unknown as { ui: { specSelectors: { taggedOperations(): { keySeq(): { toArray(): string[] } } } } }).ui.specSelectors
        .taggedOperations()
        .keySeq()
        .toArray(),
    );
    const shown = await page.locator('h3.opblock-tag').evaluateAll((hs) => hs.map((h) => h.getAttribute('data-tag')));
    expect(shown.length).toBeGreaterThan(0);
    expect(tags.slice(0, shown.length)).toEqual(shown);
    expect(tags).toEqual(API_TAGS.map((t) => t.name));
    expect(tags.slice(0, INTERFACE_TAGS.length)).toEqual(INTERFACE_TAGS.map((t) => t.name));
    expect(tags.at(-1)).toBe('Management');

    // The error catalogue: collapsed under the intro, whole once opened.
    const catalogue = page.locator('.info details#error-codes');
    expect(await catalogue.getAttribute('open')).toBeNull();
    const row = catalogue.locator('table tr', { has: page.locator('code', { hasText: /^validation_failed$/ }) });
    expect(await row.isVisible()).toBe(false);
    await catalogue.locator('summary').click();
    await row.waitFor({ state: 'visible' });
    expect(await row.locator('td').nth(2).textContent()).toBe('generic_client_error');
    expect(await catalogue.locator('table tbody tr').count()).toBeGreaterThan(80);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('authorises with a session token and gets 200 from "Try it out" on an authenticated endpoint', async () => {
    const tenant = await t.givenTenant();
    const user = await givenUser(t, tenant);
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));

    await page.goto(`${base}/docs`);
    await page
      .getByRole('button', { name: /authorize/i })
      .first()
      .click();
    const session = page.locator('.modal-ux .auth-container').filter({ has: page.locator('h4', { hasText: 'session' }) });
    await session.locator('input#auth-bearer-value').fill(user.sessionToken);
    await session.locator('button.authorize').click();
    await session.locator('button.btn-done').click();

    // The list is virtualised: scroll until the operation is rendered.
    const op = page.locator('#operations-Authentication-currentSession');
    for (let i = 0; i < 50 && (await op.count()) === 0; i++) await page.mouse.wheel(0, 300);
    await op.locator('.opblock-summary').click();
    await op.getByRole('button', { name: /try it out/i }).click();
    await op.getByRole('button', { name: /execute/i }).click();

    const status = op.locator('.live-responses-table tbody tr.response .response-col_status').first();
    await status.waitFor({ timeout: 15_000 });
    expect((await status.textContent())?.trim()).toBe('200');
    const body = await op.locator('.live-responses-table .microlight').first().textContent();
    expect(JSON.parse(body ?? '{}')).toMatchObject({ userId: user.userId, tenantId: tenant.id });
    expect(errors).toEqual([]);
  });

  it('logs in with the example body from "Try it out", and the next call is signed in without Authorize', async () => {
    const tenant = await t.givenTenant();
    // The example is the demo tenant's login (demo / demo-password): the same user in this tenant.
    const registered = await fetch(`${base}/v1/user/register/password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-tenant-id': tenant.id },
      body: JSON.stringify({ username: 'demo', password: 'demo-password' }),
    });
    expect(registered.status).toBe(201);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${base}/docs`);

    const login = page.locator('#operations-Authentication-passwordLogin');
    await login.locator('.opblock-summary').click();
    await login.getByRole('button', { name: /try it out/i }).click();
    const example = JSON.parse(await login.locator('textarea.body-param__text').inputValue()) as Record<string, string>;
    expect(example).toEqual({ username: 'demo', password: 'demo-password' });
    await login.locator('tr[data-param-name="X-Tenant-Id"] input').fill(tenant.id);
    await login.getByRole('button', { name: /execute/i }).click();
    const loginStatus = login.locator('.live-responses-table tbody tr.response .response-col_status').first();
    await loginStatus.waitFor({ timeout: 15_000 });
    expect((await loginStatus.textContent())?.trim()).toBe('200');
    const { sessionToken } = JSON.parse((await login.locator('.live-responses-table .microlight').first().textContent()) ?? '{}') as {
      sessionToken: string;
    };
    expect(sessionToken).toEqual(expect.any(String));

    // The interceptor authorised the session scheme with that token: the lock shows it, and an
    // authenticated call answers 200 as the user just logged in.
    await page
      .getByRole('button', { name: /authorize/i })
      .first()
      .click();
    const session = page.locator('.modal-ux .auth-container').filter({ has: page.locator('h4', { hasText: 'session' }) });
    await session.locator('h6', { hasText: 'Authorized' }).waitFor({ timeout: 5_000 });
    expect(await session.getByRole('button', { name: 'Remove authorization' }).count()).toBe(1);
    await page.locator('.modal-ux button.close-modal').click();
    const op = page.locator('#operations-Authentication-currentSession');
    for (let i = 0; i < 50 && (await op.count()) === 0; i++) await page.mouse.wheel(0, 300);
    await op.locator('.opblock-summary').click();
    await op.getByRole('button', { name: /try it out/i }).click();
    await op.getByRole('button', { name: /execute/i }).click();
    const status = op.locator('.live-responses-table tbody tr.response .response-col_status').first();
    await status.waitFor({ timeout: 15_000 });
    expect((await status.textContent())?.trim()).toBe('200');
    const body = JSON.parse((await op.locator('.live-responses-table .microlight').first().textContent()) ?? '{}') as { tenantId: string };
    expect(body.tenantId).toBe(tenant.id);
    const curl = (await op.locator('.curl-command').textContent()) ?? '';
    expect(curl).toContain(`Bearer ${sessionToken}`);
    expect(errors).toEqual([]);
    await page.close();
  });
});
