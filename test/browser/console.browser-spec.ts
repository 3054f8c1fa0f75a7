import { existsSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { consoleDirectory } from '../../src/common/console/serve-console.js';
import { DEMO, seedDemo, type DemoSummary } from '../../src/seed/demo-seed.js';
import { TenantsService } from '../../src/tenants/tenants.service.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const HOUR = 3_600_000;

const launch = () =>
  chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-sync',
    ],
  });
const baseOf = (t: TestApp) => `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
/** A datetime-local value in UTC (the pages run with timezoneId UTC). */
const local = (d: Date) => d.toISOString().slice(0, 16);

/** A page that records what would be a defect: uncaught errors and CSP violations. */
async function openPage(browser: Browser, base: string): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, timezoneId: 'UTC' });
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) problems.push(m.text());
  });
  await page.goto(`${base}/console/`);
  return { page, problems };
}

/** A section of the sidebar (a screen may link to its section too). */
const section = (page: Page, name: string) => page.getByRole('navigation', { name: 'sections' }).getByRole('link', { name });

/**
 * The `resource.credited` rows of the deliveries table filtered by `status`, once there are two and
 * every row shown has that status: the table shows its previous rows until the filtered page
 * arrives, so counting rows right after choosing the filter can count the old ones.
 */
async function deliveriesWithStatus(page: Page, status: 'dead' | 'delivered') {
  await page.getByRole('combobox', { name: 'delivery status' }).selectOption(status);
  const rows = page.getByRole('table', { name: 'deliveries' }).locator('tbody tr', { hasText: 'resource.credited' });
  const settled = async () => {
    const texts = await rows.allTextContents();
    return texts.length >= 2 && texts.every((text) => text.includes(status));
  };
  for (let i = 0; i < 50 && !(await settled()); i++) {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.waitForTimeout(100);
  }
  expect(await settled()).toBe(true);
  return rows;
}

async function signIn(page: Page, apiKey: string) {
  await page.getByLabel('API key').fill(apiKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'sections' }).waitFor();
}

/**
 * The operator console (console/, served at /console) in Debian's Chromium against the real app on
 * the demo data (`npm run seed`): the main flow of a community operator running a weekly event,
 * the API key rotated under a signed-in console, and two instances behind one address.
 */
describe('the operator console in headless Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let demo: DemoSummary;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found: apt-get install chromium (or set CHROMIUM_PATH)`);
    if (!existsSync(`${consoleDirectory()}/index.html`))
      throw new Error('the console is not built: npm run build (npm run test:browser does it)');
    // A local webhook receiver (127.0.0.1, allowed here only) and fast retries: a failing delivery
    // is dead-lettered within half a second (six attempts).
    t = await createTestApp({
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_RETRY_BASE_MS: '20',
      WEBHOOK_RETRY_WINDOW_MS: '500',
      WEBHOOK_POLL_INTERVAL_MS: '20',
    });
    await t.app.listen(0, '127.0.0.1');
    base = baseOf(t);
    demo = await seedDemo(t.app);
    browser = await launch();
    receiver = await startWebhookReceiver();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await receiver?.close();
  });

  /** The management API with the demo tenant's key (as it stands: a test rotates it). */
  const admin = () => {
    const http = t.http();
    const withKey = <R extends { set(k: string, v: string): R }>(r: R) => r.set('X-Api-Key', demo.apiKey!);
    return { get: (url: string) => withKey(http.get(url)), post: (url: string) => withKey(http.post(url)) };
  };
  const xpId = async () => {
    const types = (await admin().get('/v1/admin/resources/types?communityId=pixel-pirates&limit=100').expect(200)).body as {
      items: { id: string; slug: string }[];
    };
    return types.items.find((x) => x.slug === 'xp')!.id;
  };

  it('serves the console: index revalidated, hashed assets cached for good, client routes fall back to the page, under helmet CSP', async () => {
    const index = await fetch(`${base}/console/`);
    expect(index.status).toBe(200);
    expect(index.headers.get('cache-control')).toBe('no-cache');
    expect(index.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    const html = await index.text();
    const asset = /src="(\/console\/assets\/[^"]+\.js)"/.exec(html)![1];
    const js = await fetch(`${base}${asset}`);
    expect(js.status).toBe(200);
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const deep = await fetch(`${base}/console/events/some-event`);
    expect([deep.status, deep.headers.get('cache-control'), await deep.text()]).toEqual([200, 'no-cache', html]);
    expect((await fetch(`${base}/console/assets/gone-1234.js`)).status).toBe(404);
    expect((await fetch(`${base}/console`, { redirect: 'manual' })).headers.get('location')).toBe('/console/');
    expect((await fetch(`${base}/console/`, { method: 'POST' })).status).toBe(404);
  });

  it('walks the main flow: sign in, create an event, a player registers, close it, see the allocation, grant XP, the leaderboard moves', async () => {
    const { page, problems } = await openPage(browser, base);
    await signIn(page, demo.apiKey!);
    // The key lives in this tab's sessionStorage only.
    expect(page.url()).not.toContain(demo.apiKey!);
    expect(await page.evaluate('JSON.stringify(window.localStorage)')).toBe('{}');
    expect(await page.evaluate("window.sessionStorage.getItem('cgs.console.session')")).toContain(demo.apiKey!);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();

    // A new event, active now: first with a bad slug (the API's message next to the field).
    await page.getByRole('link', { name: 'Quest events' }).click();
    await page.getByRole('cell', { name: /Pirate Cup/ }).waitFor();
    await page.getByText('New quest event').click();
    const form = page.getByRole('form', { name: 'new quest event' });
    const now = t.clock.now().getTime();
    await form.locator('input[name=name]').fill('Console Cup');
    await form.locator('input[name=slug]').fill('Console Cup!');
    await form.locator('input[name=registrationStartsAt]').fill(local(new Date(now - HOUR)));
    await form.locator('input[name=registrationEndsAt]').fill(local(new Date(now + HOUR)));
    await form.locator('input[name=startsAt]').fill(local(new Date(now - HOUR / 2)));
    await form.locator('input[name=minScore]').fill('0');
    await form.getByRole('button', { name: 'Create event' }).click();
    // In the operator's words, not class-validator's ("slug must match …", "endsAt must be a Date instance").
    await form.locator('[data-field=slug] .field-error').waitFor();
    expect(await form.locator('[data-field=slug] .field-error').textContent()).toBe('Must be 1-64 lowercase letters, digits and dashes.');
    expect(await form.locator('[data-field=endsAt] .field-error').textContent()).toBe('Enter a date and time.');
    await form.locator('input[name=slug]').fill('console-cup');
    await form.locator('input[name=endsAt]').fill(local(new Date(now + 2 * HOUR)));
    await form.getByRole('button', { name: 'Create event' }).click();
    await page.getByRole('heading', { name: 'Console Cup' }).waitFor();
    expect(await page.locator('.lifecycle [aria-current=step]').textContent()).toBe('Active');
    const eventUrl = page.url();

    // A reward for everyone eligible.
    await page.getByText('Add a reward').click();
    await page.locator('input[name=name]').first().fill('Cup ticket');
    await page.locator('select[name=kind]').selectOption('manual');
    await page.locator('input[name=tickets]').fill('1');
    // Claimed with a zkLogin wallet's Sui address.
    await page.locator('input[name=requiresWalletAddress]').check();
    await page.locator('select[name=walletChain]').selectOption('sui');
    await page.getByRole('button', { name: 'Add reward' }).click();
    const rewardRow = page.getByRole('table', { name: 'rewards' }).getByRole('row', { name: /Cup ticket/ });
    await rewardRow.waitFor();
    expect(await rewardRow.textContent()).toContain('Sui wallet');
    expect(await rewardRow.textContent()).toContain('handed out by you');
    // The form starts empty again, so a second click cannot add the reward twice.
    const rewardForm = page.locator('form', { hasText: 'Add reward' });
    expect(await rewardForm.locator('input[name=name]').inputValue()).toBe('');
    expect(await rewardForm.locator('select[name=kind]').inputValue()).toBe('resource');
    expect(await rewardForm.locator('input[name=requiresWalletAddress]').isChecked()).toBe(false);
    // A resource reward picks the resource by name (the community's types), for ranks 2-3 only.
    await rewardForm.locator('input[name=name]').fill('Runner-up XP');
    await rewardForm.getByRole('combobox', { name: 'resource' }).selectOption({ label: 'Experience points (xp)' });
    await rewardForm.locator('input[name=amount]').fill('25');
    await rewardForm.locator('input[name=rankFrom]').fill('2');
    await rewardForm.locator('input[name=rankTo]').fill('3');
    await rewardForm.getByRole('button', { name: 'Add reward' }).click();
    const xpRow = page.getByRole('table', { name: 'rewards' }).getByRole('row', { name: /Runner-up XP/ });
    await xpRow.waitFor();
    expect(await xpRow.textContent()).toContain('25 × Experience points');
    expect(await page.getByRole('table', { name: 'rewards' }).locator('tbody tr').count()).toBe(2);
    // An item reward offers the community's items by name.
    await rewardForm.locator('select[name=kind]').selectOption('item');
    expect(await rewardForm.getByRole('combobox', { name: 'item' }).locator('option').allTextContents()).toContain('Pirate hat');
    expect(await rewardForm.locator('select[name=resourceTypeId]').count()).toBe(0);

    // A player registers through the API; the participant appears with its ParticipantStatus.
    const player = `console_${Date.now().toString(36)}`;
    const reg = await t
      .http()
      .post('/v1/user/register/password')
      .set('X-Tenant-Id', DEMO.tenant)
      .send({ username: player, password: 'correct horse battery' });
    expect(reg.status).toBe(201);
    const auth = `Bearer ${reg.body.sessionToken}`;
    expect((await t.http().post('/v1/community/pixel-pirates/join?referrerHandle=').set('Authorization', auth)).status).toBe(201);
    const joined = await t.http().post('/v1/quest-event/console-cup/participant/register').set('Authorization', auth);
    expect(joined.body).toMatchObject({ status: 1 });
    const participants = page.getByRole('table', { name: 'participants' });
    await page.getByRole('button', { name: 'Refresh' }).first().click();
    const row = participants.getByRole('row', { name: new RegExp(player) });
    await row.waitFor();
    expect(await row.locator('.badge').textContent()).toBe('registered');

    // Close the event: its allocation appears.
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Close event' }).click();
    await page.getByText('Closed: 1 allocations made').waitFor();
    await page.locator('.lifecycle [aria-current=step]', { hasText: 'Completed' }).waitFor();
    const allocation = page.getByRole('table', { name: 'allocations' }).getByRole('row', { name: /Cup ticket/ });
    await allocation.waitFor();
    // The player by handle, as in participants, linked to their page.
    expect(await allocation.getByRole('link').textContent()).toBe(player);
    expect(page.url()).toBe(eventUrl);

    // Grant XP with a reason, the player named by handle: they top the community's XP leaderboard.
    await page.getByRole('link', { name: 'Communities' }).click();
    await page.getByRole('link', { name: 'Pixel Pirates' }).click();
    const board = page.locator('table.leaderboard tbody tr');
    await board.first().waitFor();
    expect(await board.first().textContent()).not.toContain(player);
    await page.getByRole('link', { name: 'Grant or deduct' }).click();
    const grant = page.getByRole('form', { name: 'grant or deduct' });
    await grant.locator('input[name=userId]').fill(player);
    await grant.locator('select[name=resourceTypeId]').selectOption({ label: 'Experience points (xp)' });
    await grant.locator('input[name=amount]').fill('1000000');
    await grant.locator('input[name=reason]').fill('console_tournament_win');
    await grant.getByRole('button', { name: 'Apply' }).click();
    await grant.getByText(/^Done: balance 1000000/).waitFor();
    await page.getByRole('link', { name: 'Leaderboard' }).click();
    await page.locator('table.leaderboard tbody tr', { hasText: player }).waitFor();
    expect(await board.first().textContent()).toMatch(new RegExp(`^1${player}`));

    // Support's view of the player: the grant in the ledger with its reason.
    await page.locator('table.leaderboard').getByRole('link', { name: player }).click();
    await page.getByRole('table', { name: 'ledger' }).getByRole('cell', { name: 'console_tournament_win' }).waitFor();

    // A reload lands on the same screen (the service answers client routes with the console).
    await page.reload();
    await page.getByRole('table', { name: 'ledger' }).getByRole('cell', { name: 'console_tournament_win' }).waitFor();
    expect(problems).toEqual([]);
    await page.close();
  });

  it("walks the seasons: this week's live season, last week's final standings and payouts, a new season (its errors next to the fields), XP per day", async () => {
    const { page, problems } = await openPage(browser, base);
    await signIn(page, demo.apiKey!);
    await section(page, 'Seasons').click();
    // The seed's weekly schedule: this week's season runs, last week's is closed and paid.
    await page.getByRole('table', { name: 'live seasons' }).getByRole('link', { name: 'Weekly XP #2' }).waitFor();
    const schedule = page.getByRole('table', { name: 'season schedules' }).getByRole('row', { name: /Weekly XP/ });
    expect(await schedule.textContent()).toContain('0 0 * * 1');
    expect(await schedule.textContent()).toContain('Europe/Berlin');
    await page.getByRole('button', { name: 'Past' }).click();
    await page.getByRole('table', { name: 'closed seasons' }).getByRole('link', { name: 'Weekly XP #1' }).click();
    await page.getByRole('heading', { name: /Weekly XP #1/ }).waitFor();
    expect(await page.getByRole('heading', { name: /Weekly XP #1/ }).textContent()).toContain('Closed');
    // Final places: ties go to who reached the score first (Demo before Bob).
    const standings = page.getByRole('table', { name: 'standings' }).locator('tbody tr');
    await standings.first().waitFor();
    expect((await standings.allTextContents()).map((r) => r.replace(/\s+/g, ' '))).toEqual([
      expect.stringMatching(/^1alice.*420$/),
      expect.stringMatching(/^2demo.*380$/),
      expect.stringMatching(/^3bob.*380$/),
      expect.stringMatching(/^4carol.*150$/),
    ]);
    // Rank 1 gets the champion prize and 50 XP, ranks 2 and 3 the XP: four payouts, all paid.
    const payouts = page.getByRole('table', { name: 'payouts' }).locator('tbody tr');
    await payouts.first().waitFor();
    await payouts.filter({ hasText: 'Weekly champion' }).filter({ hasText: 'alice' }).waitFor();
    const paid = (await payouts.allTextContents()).map((r) => r.replace(/\s+/g, ' '));
    expect(paid).toEqual([
      expect.stringMatching(/^1alice1 × Weekly champion \(prize\)paid/),
      expect.stringMatching(/^1alice50 × xp \(resource\)paid/),
      expect.stringMatching(/^2demo50 × xp \(resource\)paid/),
      expect.stringMatching(/^3bob50 × xp \(resource\)paid/),
    ]);
    expect(await page.getByRole('definition').filter({ hasText: /^4$/ }).count()).toBeGreaterThan(0);

    // A new one-off season: an end before its start is refused, then a reward's bad rank is shown next to it.
    await section(page, 'Seasons').click();
    await page.getByText('New season').click();
    const form = page.getByRole('form', { name: 'new season' });
    await form.locator('select[name=mode]').selectOption('window');
    const now = t.clock.now().getTime();
    await form.locator('input[name=name]').fill('Console sprint');
    await form.locator('input[name=startsAt]').fill(local(new Date(now + 2 * HOUR)));
    await form.locator('input[name=endsAt]').fill(local(new Date(now + HOUR)));
    // Over the API's maximum (the browser checks only the minimum): the API's message, next to the field.
    await form.locator('input[name="rewards.0.fromRank"]').fill('2000000');
    await form.locator('input[name="rewards.0.toRank"]').fill('3');
    await form.locator('input[name="rewards.0.refId"]').fill(await xpId());
    await form.locator('input[name="rewards.0.amount"]').fill('25');
    await form.getByRole('button', { name: 'Create season' }).click();
    const rankError = form.locator('[data-field="rewards.0.fromRank"] .field-error');
    await rankError.waitFor();
    expect(await rankError.textContent()).toBe('At most 1000000.');
    await form.locator('input[name="rewards.0.fromRank"]').fill('1');
    await form.getByRole('button', { name: 'Create season' }).click();
    await form
      .getByRole('alert')
      .filter({ hasText: /invalid_season/ })
      .waitFor();
    await form.locator('input[name=endsAt]').fill(local(new Date(now + 7 * 24 * HOUR)));
    await form.getByRole('button', { name: 'Create season' }).click();
    await page.getByRole('heading', { name: /Console sprint/ }).waitFor();
    expect(await page.getByRole('heading', { name: /Console sprint/ }).textContent()).toContain('Scheduled');
    expect(await page.getByRole('table', { name: 'rank rewards' }).textContent()).toContain('Ranks 1–3');
    await section(page, 'Seasons').click();
    await page.getByRole('button', { name: 'Scheduled' }).click();
    await page.getByRole('table', { name: 'upcoming seasons' }).getByRole('link', { name: 'Console sprint' }).waitFor();

    // XP per day: the seed's grants of this week show as bars.
    await page.getByRole('link', { name: 'Communities' }).click();
    await page.getByRole('link', { name: 'Pixel Pirates' }).click();
    await page.getByRole('link', { name: 'XP per day' }).click();
    const chart = page.getByRole('img', { name: 'xp earned per day' });
    await chart.waitFor();
    const values = await chart.locator('rect.bar').evaluateAll((bars) => bars.map((b) => Number(b.getAttribute('data-value'))));
    expect(values).toHaveLength(30);
    expect(values[29]).toBeGreaterThan(0);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('walks the webhooks: a subscription (the secret shown once), a failing delivery with its attempts, redeliver one and a window, rotate, deactivate, delete; the writes in the audit log', async () => {
    const { page, problems } = await openPage(browser, base);
    await signIn(page, demo.apiKey!);
    await section(page, 'Webhooks').click();
    await page.getByText('No subscription').waitFor();
    await page.getByText('New subscription').click();
    const form = page.getByRole('form', { name: 'new subscription' });
    await form.getByRole('checkbox', { name: 'resource.credited', exact: true }).check();
    await form.locator('input[name=url]').fill('not a url');
    await form.getByRole('button', { name: 'Create subscription' }).click();
    await form.locator('[data-field=url] .field-error').waitFor();
    await form.locator('input[name=url]').fill(receiver.url);
    await form.getByRole('button', { name: 'Create subscription' }).click();
    const secret = page.getByRole('status', { name: 'signing secret' });
    await secret.waitFor();
    const first = (await secret.locator('pre').textContent())!;
    expect(first).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'I have copied it' }).click();
    expect(await page.getByText(first).count()).toBe(0);
    const sub = page.getByRole('table', { name: 'subscriptions' }).getByRole('row', { name: new RegExp(receiver.url) });
    await sub.waitFor();

    // The receiver fails: a grant's event is retried, then dead-lettered.
    receiver.respond = () => 500;
    for (const [i, handle] of ['alice', 'bob'].entries()) {
      const u = (await admin().get(`/v1/admin/users/${handle}`).expect(200)).body as { userId: string };
      const r = await admin()
        .post('/v1/admin/resources/grants')
        .send({
          userId: u.userId,
          resourceTypeId: await xpId(),
          amount: 5,
          reason: 'webhook_walk',
          idempotencyKey: `webhook-walk-${i}-${Date.now()}`,
        });
      expect(r.status).toBe(201);
    }
    await receiver.waitFor((got) => got.filter((d) => d.json.type === 'resource.credited').length >= 12);
    const dead = await deliveriesWithStatus(page, 'dead');
    await dead.first().getByRole('button', { name: '6' }).click();
    const attempts = page.getByRole('table', { name: 'attempts' }).locator('tbody tr');
    expect(await attempts.count()).toBe(6);
    expect(await attempts.first().textContent()).toContain('500');

    // The receiver is fixed: one redelivered by hand, the other with the window's failed ones.
    receiver.respond = () => 200;
    await page.getByRole('combobox', { name: 'delivery status' }).selectOption('');
    const rows = page.getByRole('table', { name: 'deliveries' }).locator('tbody > tr', { hasText: 'resource.credited' });
    await rows.first().getByRole('button', { name: 'redeliver' }).click();
    await page.getByRole('status').filter({ hasText: 'Queued again: 1' }).waitFor();
    await page.getByText('Redeliver the failed deliveries of a window').click();
    await page.getByRole('form', { name: 'redeliver failed' }).getByRole('button', { name: 'Redeliver failed' }).click();
    await page.getByText(/Queued again: [1-9]\d* failed deliveries/).waitFor();
    await receiver.waitFor((got) => got.filter((d) => d.json.type === 'resource.credited').length >= 14);
    const delivered = await deliveriesWithStatus(page, 'delivered');
    expect(await delivered.first().textContent()).toContain('200');

    // Rotate: a new secret, shown once; deactivate; delete.
    await sub.getByRole('button', { name: 'rotate secret' }).click();
    await secret.waitFor();
    const second = (await secret.locator('pre').textContent())!;
    expect(second).toMatch(/^whsec_/);
    expect(second).not.toBe(first);
    await sub.getByRole('button', { name: 'deactivate' }).click();
    await sub.getByText('inactive').waitFor();
    await sub.getByRole('button', { name: 'activate' }).click();
    await sub.getByText('active', { exact: true }).waitFor();
    page.once('dialog', (d) => void d.accept());
    await sub.getByRole('button', { name: 'delete' }).click();
    await page.getByText('No subscription').waitFor();
    expect(await page.getByText(second).count()).toBe(0);

    // The walk's writes are in the audit log (written just after each answer): the refused
    // creation, the creation (its body without any secret), the deletion.
    await section(page, 'Audit log').click();
    await page.getByRole('textbox', { name: 'route prefix' }).fill('/v1/admin/webhooks/subscriptions');
    const log = page.getByRole('table', { name: 'audit log' }).locator('tbody > tr');
    const deleted = log.filter({ hasText: 'DELETE /v1/admin/webhooks/subscriptions/:subscriptionId' });
    for (let i = 0; i < 50 && (await deleted.count()) < 1; i++) {
      await page.getByRole('button', { name: 'Refresh' }).click();
      await page.waitForTimeout(100);
    }
    expect(await deleted.first().textContent()).toContain('204');
    await page.getByRole('combobox', { name: 'method' }).selectOption('POST');
    const status = (code: string) => ({ has: page.locator('.badge', { hasText: new RegExp(`^${code}$`) }) });
    const creations = log.filter({ hasText: 'POST /v1/admin/webhooks/subscriptions' }).filter({ hasNotText: 'rotate-secret' });
    const created = creations.filter(status('201'));
    await created.first().waitFor();
    expect(await creations.filter(status('400')).count()).toBe(1);
    await created.first().getByRole('button', { expanded: false }).click();
    const body = page.getByLabel('request body');
    expect(await body.textContent()).toContain(receiver.url);
    for (const s of [first, second]) expect(await page.getByText(s).count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("walks a community's inventory: its slots, the items of one slot, a new slot (the API's error next to its field), a new item", async () => {
    const { page, problems } = await openPage(browser, base);
    await signIn(page, demo.apiKey!);
    await section(page, 'Inventory').click();
    const slots = page.getByRole('table', { name: 'slots' });
    const items = page.getByRole('table', { name: 'items' });
    await slots.getByText('head', { exact: true }).waitFor();
    await items.getByText('Pirate hat').waitFor();
    const slotKeys = () => items.locator('tbody > tr > td:nth-child(2)').allTextContents();
    expect(new Set(await slotKeys()).size).toBeGreaterThan(1);
    await slots.locator('tr', { hasText: 'head' }).getByRole('button', { name: 'its items' }).click();
    await items.getByText('Open sea').waitFor({ state: 'detached' });
    expect(new Set(await slotKeys())).toEqual(new Set(['head']));
    await slots.locator('tr', { hasText: 'head' }).getByRole('button', { name: 'all items' }).click();

    const slotForm = page.locator('form', { hasText: 'New slot' });
    await slotForm.locator('input[name=key]').fill('Not A Key');
    await slotForm.locator('input[name=name]').fill('Cape');
    await slotForm.locator('input[name=position]').fill('0');
    await slotForm.getByRole('button', { name: 'Create slot' }).click();
    const keyError = slotForm.locator('[data-field="key"] .field-error');
    await keyError.waitFor();
    expect(await keyError.textContent()).toMatch(/^Must be 1-64 lowercase letters/);
    await slotForm.locator('input[name=key]').fill('cape');
    await slotForm.getByRole('button', { name: 'Create slot' }).click();
    await slots.getByText('cape', { exact: true }).waitFor();

    const itemForm = page.locator('form', { hasText: 'New item' });
    await itemForm.locator('select[name=slotId]').selectOption({ label: 'Cape' });
    await itemForm.locator('input[name=name]').fill('Red cape');
    await itemForm.locator('input[name=supply]').fill('5');
    await itemForm.getByRole('button', { name: 'Create item' }).click();
    const cape = items.locator('tr', { hasText: 'Red cape' });
    await cape.waitFor();
    expect((await cape.locator('td').allTextContents()).slice(1)).toEqual(['cape', 'common', '0', '5', '5']);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("charts the store's purchases per listing: one bar per listed listing, its value the Sold column", async () => {
    const { page, problems } = await openPage(browser, base);
    await signIn(page, demo.apiKey!);
    await section(page, 'Store').click();
    const listings = page.getByRole('table', { name: 'listings' });
    await listings.locator('tbody tr').first().waitFor();
    const chart = page.getByRole('img', { name: 'purchases per listing' });
    await chart.waitFor();
    const sold = (await listings.locator('tbody > tr > td:nth-child(6)').allTextContents()).map(Number);
    const bars = await chart.locator('rect.bar').evaluateAll((r) => r.map((b) => Number(b.getAttribute('data-value'))));
    expect(bars).toEqual(sold);
    // The seed's demo player bought a shirt: the buyer by handle, the price in the resource's slug.
    expect(Math.max(...bars)).toBeGreaterThan(0);
    const bought = page.getByRole('table', { name: 'purchases' }).locator('tbody tr', { hasText: 'Striped shirt' });
    await bought.first().waitFor();
    await bought.first().getByRole('cell', { name: '150 × xp', exact: true }).waitFor();
    expect((await bought.first().locator('td').allTextContents()).slice(1)).toEqual(['Striped shirt', 'demo', '1', '150 × xp']);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("walks the demo player's view: socials (no token), wallet, inventory, event participations, notifications", async () => {
    const { page, problems } = await openPage(browser, base);
    await signIn(page, demo.apiKey!);
    await section(page, 'Players').click();
    await page.getByRole('link', { name: 'demo', exact: true }).click();
    await page.getByRole('heading', { name: /^demo/ }).waitFor();
    const tab = (name: string) => page.getByRole('navigation', { name: 'player' }).getByRole('link', { name });

    await tab('Socials and wallets').click();
    const social = page.getByRole('table', { name: 'socials' }).getByRole('row', { name: /discord/ });
    await social.waitFor();
    expect(await social.textContent()).toContain('demo_pirate');
    expect(await page.locator('main').textContent()).not.toMatch(/token/i);
    await page.getByRole('table', { name: 'wallets' }).getByRole('cell', { name: '0x71C7656EC7ab88b098defB751B7401B5f6d8976F' }).waitFor();

    await tab('Inventory').click();
    const hat = page.getByRole('table', { name: 'inventory' }).getByRole('row', { name: /Pirate hat/ });
    await hat.waitFor();
    expect(await hat.textContent()).toContain('head');

    await tab('Events').click();
    const cup = page.getByRole('table', { name: 'participations' }).getByRole('row', { name: /Pirate Cup/ });
    await cup.waitFor();
    expect((await cup.locator('td').allTextContents())[2]).toMatch(/^(registered|unregistered|dropped|cancelled)\b/);

    await tab('Notifications').click();
    await page.getByRole('table', { name: 'notifications' }).locator('tbody tr').first().waitFor();
    await page.getByText(/\d+ unread/).waitFor();

    // A player with nothing linked: the empty states. A reload keeps the tab.
    await section(page, 'Players').click();
    await page.getByRole('link', { name: 'bob', exact: true }).click();
    await tab('Socials and wallets').click();
    await page.getByText('No linked social account.').waitFor();
    await page.getByText('No wallet.').waitFor();
    await page.reload();
    await page.getByText('No wallet.').waitFor();
    expect(problems).toEqual([]);
    await page.close();
  });

  it("walks quests players complete: a task added in the editor, a player's submission approved in Reviews, the quest completed", async () => {
    const { page, problems } = await openPage(browser, base);
    await signIn(page, demo.apiKey!);
    await section(page, 'Quests').click();
    const quests = page.locator('table').first();
    const row = quests.locator('tr', { hasText: 'Share your best moment' });
    await row.waitFor();
    expect(await row.textContent()).toMatch(/1/);

    // A new quest with an answer task, made in the editor: the answers never show again.
    await page.locator('summary', { hasText: 'New quest' }).click();
    const form = page.locator('form', { hasText: 'Create quest' });
    await form.locator('input[name=name]').fill('Console riddle');
    await form.locator('input[name=type]').fill('quiz');
    await form.locator('select[name=recurrence]').selectOption('daily');
    await form.getByRole('button', { name: 'Create quest' }).click();
    const riddle = quests.locator('tr', { hasText: 'Console riddle' });
    await riddle.waitFor();
    expect(await riddle.textContent()).toContain('daily');
    await riddle.getByRole('button', { name: 'tasks' }).click();
    const editor = page.locator('.panel', { hasText: 'Tasks of “Console riddle”' });
    await editor.getByText(/No tasks/).waitFor();
    const add = editor.locator('form', { hasText: 'Add a task' });
    await add.locator('input[name=title]').fill('Name the kraken');
    await add.getByRole('button', { name: 'Add task' }).click();
    await add.locator('[data-field="answer.answers"] .field-error, .error').first().waitFor();
    await add.locator('textarea[name="answer.answers"]').fill('Kraken');
    await add.locator('input[name="answer.maxAttempts"]').fill('3');
    await add.getByRole('button', { name: 'Add task' }).click();
    const task = editor.getByRole('table', { name: 'tasks' }).locator('tr', { hasText: 'Name the kraken' });
    await task.waitFor();
    expect(await task.textContent()).toMatch(/answerCount: 1/);
    expect(await editor.textContent()).not.toMatch(/kraken,|Kraken\b(?! )/);
    await riddle.getByText('1', { exact: true }).waitFor();

    // A player submits to the demo's review quest; the operator approves it in Reviews.
    const login = await t
      .http()
      .post('/v1/user/auth/password/login')
      .set('X-Tenant-Id', DEMO.tenant)
      .send({ username: 'carol', password: DEMO.password });
    const carol = `Bearer ${login.body.sessionToken}`;
    const list = await t
      .http()
      .get('/v1/community/pixel-pirates/quests?tags=social&questTypes=ugc&featured=&query=&page=1&limit=20')
      .set('Authorization', carol);
    const share = list.body.items[0] as { id: string };
    const shown = await t.http().get(`/v1/quests/${share.id}`).set('Authorization', carol).expect(200);
    await t
      .http()
      .post(`/v1/quests/${share.id}/tasks/${shown.body.tasks[0].id}/submission`)
      .set('Authorization', carol)
      .send({ content: 'https://clips.example.com/carol-1' })
      .expect(200);
    await section(page, 'Reviews').click();
    const pending = page.getByRole('table', { name: 'submissions' }).locator('tr', { hasText: 'carol' });
    await pending.waitFor();
    expect(await pending.textContent()).toContain('https://clips.example.com/carol-1');
    await pending.getByRole('button', { name: 'Approve' }).click();
    await page
      .getByRole('status')
      .getByText(/Approved carol's submission: the quest is completed/)
      .waitFor();
    await page.getByText('Nothing here.').waitFor();
    const after = await t.http().get(`/v1/quests/${share.id}`).set('Authorization', carol).expect(200);
    expect(after.body).toMatchObject({ completed: true, tasks: [{ state: 'done' }] });
    expect(problems).toEqual([]);
    await page.close();
  });

  it("opens on today's overview in the operator's time zone (counts since local midnight, live events, reviews waiting), and at 420 px the sections fold into a menu", async () => {
    // Something to count today: a new player who signs in and sends a submission for review.
    const player = `overview_${Date.now().toString(36)}`;
    const reg = await t
      .http()
      .post('/v1/user/register/password')
      .set('X-Tenant-Id', DEMO.tenant)
      .send({ username: player, password: 'correct horse battery' })
      .expect(201);
    const auth = `Bearer ${reg.body.sessionToken}`;
    await t.http().post('/v1/community/pixel-pirates/join?referrerHandle=').set('Authorization', auth).expect(201);
    const share = (
      await t
        .http()
        .get('/v1/community/pixel-pirates/quests?tags=social&questTypes=ugc&featured=&query=&page=1&limit=20')
        .set('Authorization', auth)
        .expect(200)
    ).body.items[0] as { id: string };
    const shown = await t.http().get(`/v1/quests/${share.id}`).set('Authorization', auth).expect(200);
    await t
      .http()
      .post(`/v1/quests/${share.id}/tasks/${shown.body.tasks[0].id}/submission`)
      .set('Authorization', auth)
      .send({ content: 'https://clips.example.com/overview-1' })
      .expect(200);

    const page = await browser.newPage({ viewport: { width: 420, height: 860 }, timezoneId: 'Europe/Berlin', locale: 'en-US' });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`${base}/console/`);
    const counted = page.waitForResponse((r) => r.url().includes('/v1/admin/overview'));
    await signIn(page, demo.apiKey!);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    const answer = await counted;
    const since = new URL(answer.url()).searchParams.get('since')!;
    const counts = (await answer.json()) as Record<string, number>;
    // The period starts at the operator's midnight, not the server's or UTC's.
    const berlin = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    expect(berlin.format(new Date(since))).toBe('00:00');
    expect(Date.now() - new Date(since).getTime()).toBeLessThan(24 * HOUR);
    expect(await page.getByText('Today, since midnight').textContent()).toMatch(/\(Europe\/Berlin\) · .+ GMT\+1$/);
    expect(counts).toMatchObject({ newPlayers: expect.any(Number), pendingReviews: expect.any(Number) });
    expect(counts.logins).toBeGreaterThanOrEqual(1);
    expect(counts.newPlayers).toBeGreaterThanOrEqual(1);
    expect(counts.pendingReviews).toBeGreaterThanOrEqual(1);
    const tile = (label: string) => page.locator('.tile', { hasText: label });
    await tile('Sessions started').locator('.tile-value', { hasText: /^\d/ }).waitFor();
    for (const [label, key] of [
      ['Sessions started', 'logins'],
      ['New players', 'newPlayers'],
      ['Grants', 'grants'],
      ['Purchases', 'purchases'],
      ['Quest completions', 'questCompletions'],
      ['Submissions to review', 'pendingReviews'],
    ] as const)
      expect([label, await tile(label).locator('.tile-value').textContent()]).toEqual([label, counts[key].toLocaleString('en-US')]);
    expect(await tile('Submissions to review').getAttribute('class')).toContain('attention');

    // Live events: those running or taking registrations, as the management API lists them, times with their zone.
    const live = await Promise.all(
      ['active', 'registration_open'].map(
        async (status) =>
          (await admin().get(`/v1/admin/quest-events?status=${status}&page=1&limit=20`).expect(200)).body.items as { name: string }[],
      ),
    );
    const liveRows = page.getByRole('table', { name: 'live events' }).locator('tbody tr');
    if (live.flat().length > 0) {
      await liveRows.first().waitFor();
      expect((await liveRows.locator('td:first-child').allTextContents()).sort()).toEqual(
        live
          .flat()
          .map((e) => e.name)
          .sort(),
      );
      expect(await liveRows.first().locator('td:last-child').textContent()).toMatch(/GMT\+1$/);
    } else await page.getByText('No event is running or taking registrations.').waitFor();

    // 420 px: nothing is cut off or wider than the screen; the sections are behind a menu that closes on a choice.
    const fits = () => page.evaluate('document.documentElement.scrollWidth <= window.innerWidth');
    expect(await fits()).toBe(true);
    const nav = page.getByRole('navigation', { name: 'sections' });
    expect(await nav.getByRole('link', { name: 'Quest events' }).isVisible()).toBe(false);
    await nav.getByRole('button', { name: 'Menu' }).click();
    expect(await nav.getByRole('button', { name: 'Close' }).getAttribute('aria-expanded')).toBe('true');
    await nav.getByRole('link', { name: 'Quest events' }).click();
    await page.getByRole('cell', { name: /Pirate Cup/ }).waitFor();
    expect(await nav.getByRole('link', { name: 'Quest events' }).isVisible()).toBe(false);
    expect(await fits()).toBe(true);
    // A wide table scrolls inside the page rather than widening it.
    const table = page.locator('main table').first();
    const box = (await table.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(420);
    expect(await table.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);

    // The review queue the tile links to holds the submission.
    await nav.getByRole('button', { name: 'Menu' }).click();
    await nav.getByRole('link', { name: 'Overview' }).click();
    await tile('Submissions to review').getByRole('link').click();
    await page.getByRole('table', { name: 'submissions' }).locator('tr', { hasText: player }).waitFor();
    expect(problems).toEqual([]);
    await page.close();
  });

  it('signs out cleanly when the API key is rotated, and signs in with the new one', async () => {
    const { page, problems } = await openPage(browser, base);
    await signIn(page, demo.apiKey!);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    const rotated = await t.app.get(TenantsService).rotate(DEMO.tenant, { apiKey: true });
    await page.getByRole('link', { name: 'Quest events' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /rotated/ })
      .waitFor();
    expect(await page.getByLabel('API key').isVisible()).toBe(true);
    expect(await page.evaluate('window.sessionStorage.length')).toBe(0);
    // The old key is refused at sign-in too; the new one works.
    await page.getByLabel('API key').fill(demo.apiKey!);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /GENERIC_UNAUTHORIZED|api_key|unauthori/i })
      .waitFor();
    await signIn(page, rotated.apiKey!);
    await page.getByRole('cell', { name: /Pirate Cup/ }).waitFor();
    demo = { ...demo, apiKey: rotated.apiKey! };
    expect(problems).toEqual([]);
    await page.close();
  });

  it('works against two instances behind one address (requests alternate; nothing is kept in a server process)', async () => {
    const second = await createTestApp({ DATABASE_URL: t.config.DATABASE_URL! });
    await second.app.listen(0, '127.0.0.1');
    const targets = [new URL(base), new URL(baseOf(second))];
    const served = [0, 0];
    let next = 0;
    // A round-robin balancer: every request, page or API call, goes to the other instance.
    const balancer: Server = createServer((req, res) => {
      const i = next++ % 2;
      if (req.url?.startsWith('/v1/admin')) served[i]++;
      const upstream = httpRequest(
        { host: targets[i].hostname, port: targets[i].port, path: req.url, method: req.method, headers: req.headers },
        (r) => {
          res.writeHead(r.statusCode ?? 502, r.headers);
          r.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    });
    await new Promise<void>((r) => balancer.listen(0, '127.0.0.1', r));
    try {
      const front = `http://127.0.0.1:${(balancer.address() as AddressInfo).port}`;
      const { page, problems } = await openPage(browser, front);
      await signIn(page, demo.apiKey!);
      await page.getByRole('link', { name: 'Quest events' }).click();
      await page.getByRole('link', { name: 'Pirate Cup' }).click();
      await page
        .getByRole('table', { name: 'participants' })
        .getByRole('row', { name: /\bregistered\b/ })
        .first()
        .waitFor();
      await page.getByRole('link', { name: 'Communities' }).click();
      await page.getByRole('link', { name: 'Pixel Pirates' }).click();
      await page.getByRole('link', { name: 'Members' }).click();
      await page.getByRole('searchbox', { name: 'search members' }).fill('ali');
      await page.locator('tbody tr', { hasText: 'alice' }).waitFor();
      await page.reload();
      await page.locator('tbody tr', { hasText: 'alice' }).first().waitFor({ state: 'attached' });
      expect(served[0]).toBeGreaterThan(2);
      expect(served[1]).toBeGreaterThan(2);
      expect(problems).toEqual([]);
      await page.close();
    } finally {
      await new Promise((r) => balancer.close(r));
      await second.close();
    }
  });
});
