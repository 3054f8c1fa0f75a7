import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { NotificationType } from '../../src/notifications/notification-types.js';
import { NotificationsService } from '../../src/notifications/notifications.service.js';
import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import { givenUser, type TestUser } from '../helpers/factories.js';
import { listening } from '../helpers/sse.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

interface Seen {
  type: string;
  id: string;
  title?: string;
}

/**
 * The notification stream in a real browser: Chromium's own `EventSource`, opened with a stream
 * ticket (it cannot send the session token), receiving a notification the moment it commits, and
 * a new EventSource resuming with `lastEventId` after a fresh ticket.
 */
describe('notification stream in headless Chromium (EventSource)', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let tenant: TenantCredentials;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found: apt-get install chromium (or set CHROMIUM_PATH)`);
    t = await createTestApp({ MINT_WORKER_ENABLED: 'false', QUEST_EVENT_WORKER_ENABLED: 'false' });
    base = await listening(t);
    tenant = await t.givenTenant();
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

  const notify = (u: TestUser, title: string) =>
    t.dataSource.transaction((em) =>
      t.app.get(NotificationsService).notify(em, { tenantId: tenant.id, userId: u.userId, type: NotificationType.System, title }),
    );

  /**
   * A page of the service's origin for the test's scripts, as a game's web client would be: served
   * by the browser itself, not by the API, whose JSON answers let no page they open make a request
   * (CSP `default-src 'none'`, docs/decisions.md "Security headers by kind of answer").
   */
  const clientPage = async (page: Page) => {
    await page.route(`${base}/test-client`, (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>client</title>' }),
    );
    await page.goto(`${base}/test-client`);
  };

  /** In the page: a ticket with the session token, then `new EventSource(stream?ticket=…)` recording its events in `window.seen`. */
  const open = (page: Page, token: string, lastEventId?: string) =>
    page.evaluate(
      async ({ token, lastEventId }) => {
        const w = globalThis as unknown as { seen: Seen[]; es?: EventSource };
        w.seen = [];
        const res = await fetch('/v1/user/notifications/stream-ticket', { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
        const { ticket } = (await res.json()) as { ticket: string };
        const q = new URLSearchParams({ ticket, ...(lastEventId ? { lastEventId } : {}) });
        const es = new EventSource(`/v1/user/notifications/stream?${q.toString()}`);
        w.es = es;
        es.addEventListener('notification', (e) => {
          const m = e as unknown as { type: string; lastEventId: string; data: string };
          w.seen.push({ type: m.type, id: m.lastEventId, title: (JSON.parse(m.data) as { title: string }).title });
        });
        await new Promise<void>((resolve, reject) => {
          es.addEventListener('ready', (e) => {
            w.seen.push({ type: e.type, id: (e as MessageEvent).lastEventId });
            resolve();
          });
          es.onerror = () => reject(new Error(`EventSource failed (readyState ${es.readyState})`));
        });
      },
      { token, lastEventId },
    );
  const seen = (page: Page) => page.evaluate(() => (globalThis as unknown as { seen: Seen[] }).seen);
  const titles = async (page: Page) => (await seen(page)).filter((s) => s.type === 'notification').map((s) => s.title);
  const until = async (page: Page, n: number) => {
    await page.waitForFunction(
      (n) => (globalThis as unknown as { seen: Seen[] }).seen.filter((s) => s.type === 'notification').length >= n,
      n,
      {
        timeout: 5000,
      },
    );
  };

  it('receives notifications live, and a new EventSource resumes with exactly the missed ones', async () => {
    const u = await givenUser(t, tenant);
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const urls: string[] = [];
    page.on('request', (r) => urls.push(r.url()));
    await clientPage(page);

    await open(page, u.sessionToken);
    await notify(u, 'live in the browser');
    await until(page, 1);
    expect(await titles(page)).toEqual(['live in the browser']);
    const last = await page.evaluate(() => {
      const w = globalThis as unknown as { es: EventSource; seen: Seen[] };
      w.es.close();
      return w.seen.at(-1)!.id;
    });
    expect(last).toMatch(/^\d+:\d+:/);

    await notify(u, 'missed 1');
    await notify(u, 'missed 2');
    await open(page, u.sessionToken, last);
    expect(await titles(page)).toEqual(['missed 1', 'missed 2']);
    await notify(u, 'live again');
    await until(page, 3);
    expect(await titles(page)).toEqual(['missed 1', 'missed 2', 'live again']);

    // The stream was opened by ticket; the session token never went into a URL.
    expect(urls.filter((x) => x.includes('/stream?ticket=st_'))).toHaveLength(2);
    expect(urls.filter((x) => x.includes(u.sessionToken))).toEqual([]);
    expect(errors).toEqual([]);
    await page.evaluate(() => (globalThis as unknown as { es: EventSource }).es.close());
    await page.close();
  });

  it('lets no JSON answer opened as a page make a request of its own', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/health`);
    const outcome = await page.evaluate(() =>
      fetch('/health').then(
        () => 'fetched',
        (e: Error) => e.name,
      ),
    );
    expect(outcome).toBe('TypeError');
    await page.close();
  });
});
