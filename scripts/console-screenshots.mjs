// `npm run docs:console` (also run by `npm run docs:screenshot`): refreshes the pictures of the
// operator console in docs/console/. It starts the built service (dist/, console included) as a
// newcomer's first `npm start` does — a fresh embedded PostgreSQL in a temporary directory, so the
// demo tenant is seeded and its API key printed — signs in with that key in Debian's Chromium
// (CHROMIUM_PATH to use another) on a 1280×800 window, shoots the main screens (and two at a phone's 420 px) and stops.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = resolve(ROOT, 'docs/console');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const VIEWPORT = { width: 1280, height: 800 };

function freePort() {
  return new Promise((res, rej) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => res(port));
    });
    server.on('error', rej);
  });
}

async function main() {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found: apt-get install chromium (or set CHROMIUM_PATH)`);
  if (!existsSync(resolve(ROOT, 'dist/console/index.html'))) throw new Error('dist/console is missing: npm run build');
  const [port, pgPort] = [await freePort(), await freePort()];
  const base = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'cgs-console-shots-'));
  let output = '';
  // Only what a fresh start needs: no DATABASE_URL, so the demo is seeded into the embedded database.
  const service = spawn(process.execPath, ['dist/src/main.js'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: join(dataDir, 'data'),
      EMBEDDED_PG_PORT: String(pgPort),
      LOG_LEVEL: 'warn',
      MINT_WORKER_ENABLED: 'false',
      WEB_CONCURRENCY: '1',
      // The webhooks screen is shot with a subscription to a local receiver (refused outside this
      // opt-in) that fails twice before it answers: retries within seconds, not minutes.
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_RETRY_BASE_MS: '300',
      WEBHOOK_POLL_INTERVAL_MS: '100',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  service.stdout.on('data', (d) => (output += String(d)));
  service.stderr.on('data', (d) => (output += String(d)));
  let browser;
  let answered = 0;
  const receiver = createHttpServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(++answered <= 2 ? 503 : 200).end());
  });
  await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
  const hookUrl = `http://127.0.0.1:${receiver.address().port}/hooks/cgs`;
  try {
    const deadline = Date.now() + 180_000;
    let key;
    while (!(key = /API key: +(cgs_key_\S+)/.exec(output)?.[1])) {
      if (service.exitCode !== null) throw new Error(`the service exited (${service.exitCode}):\n${output}`);
      if (Date.now() > deadline) throw new Error(`no demo API key printed in time:\n${output}`);
      await new Promise((r) => setTimeout(r, 300));
    }
    mkdirSync(OUT, { recursive: true });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'],
    });
    const page = await browser.newPage({ viewport: VIEWPORT, timezoneId: 'UTC', locale: 'en-GB' });
    const shot = async (name) => {
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: join(OUT, `${name}.png`) });
      process.stdout.write(`wrote docs/console/${name}.png\n`);
    };
    await page.goto(`${base}/console/`);
    await page.getByLabel('API key').waitFor();
    await shot('sign-in');
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('.tile-value', { hasText: /^\d/ }).first().waitFor();
    await shot('overview');
    await page.getByRole('navigation', { name: 'sections' }).getByRole('link', { name: 'Communities' }).click();
    await page.getByRole('link', { name: 'Pixel Pirates' }).click();
    await page.locator('table.leaderboard tbody tr').first().waitFor();
    await shot('community-leaderboard');
    await page.getByRole('link', { name: 'Grant or deduct' }).click();
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.locator('.field-error').first().waitFor();
    await shot('grant-xp-validation');
    await page.getByRole('link', { name: 'Quest events' }).click();
    await page.getByRole('link', { name: 'Pirate Cup' }).waitFor();
    await shot('events');
    await page.getByRole('link', { name: 'Pirate Cup' }).click();
    await page.getByRole('table', { name: 'participants' }).locator('tbody tr').first().waitFor();
    await shot('event-active');
    await page.goBack();
    await page.getByRole('link', { name: 'Harbour Skirmish' }).click();
    await page.getByRole('table', { name: 'allocations' }).locator('tbody tr').first().waitFor();
    await page.getByRole('heading', { name: 'Allocations' }).scrollIntoViewIfNeeded();
    await shot('event-completed-allocations');
    await page.getByRole('link', { name: 'Store' }).click();
    await page.getByRole('table', { name: 'listings' }).locator('tbody tr').first().waitFor();
    await shot('store');
    await page.getByRole('link', { name: 'Inventory' }).click();
    await page.getByRole('table', { name: 'items' }).locator('tbody tr').first().waitFor();
    await shot('inventory');
    await page.getByRole('link', { name: 'Players' }).click();
    await page.getByRole('link', { name: 'demo', exact: true }).click();
    await page.getByRole('table', { name: 'ledger' }).locator('tbody tr').first().waitFor();
    await shot('player');
    const playerTab = (name) => page.getByRole('navigation', { name: 'player' }).getByRole('link', { name });
    await playerTab('Socials and wallets').click();
    await page.getByRole('table', { name: 'wallets' }).locator('tbody tr').first().waitFor();
    await shot('player-socials-wallets');
    await playerTab('Inventory').click();
    await page.getByRole('table', { name: 'inventory' }).locator('tbody tr').first().waitFor();
    await shot('player-inventory');
    await playerTab('Events').click();
    await page.getByRole('table', { name: 'participations' }).locator('tbody tr').first().waitFor();
    await shot('player-events');
    await playerTab('Notifications').click();
    await page.getByRole('table', { name: 'notifications' }).locator('tbody tr').first().waitFor();
    await shot('player-notifications');

    const nav = (name) => page.getByRole('navigation', { name: 'sections' }).getByRole('link', { name });
    await nav('Communities').click();
    await page.getByRole('link', { name: 'Pixel Pirates' }).click();
    await page.getByRole('link', { name: 'XP per day' }).click();
    await page.getByRole('img', { name: 'xp earned per day' }).waitFor();
    await shot('community-xp-per-day');

    await nav('Seasons').click();
    await page.getByRole('table', { name: 'live seasons' }).locator('tbody tr').first().waitFor();
    await page.getByRole('table', { name: 'season schedules' }).waitFor();
    await shot('seasons');
    await page.getByText('New season').click();
    await page.getByRole('form', { name: 'new season' }).locator('input[name=name]').fill('Monthly XP');
    await page.getByRole('form', { name: 'new season' }).locator('input[name=cron]').fill('0 0 1 * *');
    await page.getByRole('form', { name: 'new season' }).scrollIntoViewIfNeeded();
    await shot('season-new');
    await page.getByRole('button', { name: 'Past' }).click();
    await page.getByRole('link', { name: 'Weekly XP #1' }).click();
    await page.getByRole('table', { name: 'payouts' }).locator('tbody tr').first().waitFor();
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: join(OUT, 'season-standings-payouts.png'), fullPage: true });
    process.stdout.write('wrote docs/console/season-standings-payouts.png\n');

    await nav('Webhooks').click();
    await page.getByText('New subscription').click();
    const form = page.getByRole('form', { name: 'new subscription' });
    await form.locator('input[name=url]').fill(hookUrl);
    await form.locator('input[name=description]').fill('Game server');
    await form.getByRole('checkbox', { name: 'resource.credited', exact: true }).check();
    await form.getByRole('button', { name: 'Create subscription' }).click();
    await page.getByRole('status', { name: 'signing secret' }).waitFor();
    await shot('webhook-secret-once');
    await page.getByRole('button', { name: 'I have copied it' }).click();
    // An event to deliver: a grant through the management API.
    const admin = (path, init = {}) =>
      fetch(`${base}${path}`, { ...init, headers: { 'x-api-key': key, 'content-type': 'application/json', ...init.headers } }).then((r) =>
        r.json(),
      );
    const alice = await admin('/v1/admin/users/alice');
    const types = await admin('/v1/admin/resources/types?communityId=pixel-pirates&limit=100');
    await admin('/v1/admin/resources/grants', {
      method: 'POST',
      body: JSON.stringify({
        userId: alice.userId,
        resourceTypeId: types.items.find((t) => t.slug === 'xp').id,
        amount: 10,
        reason: 'bug_report',
        idempotencyKey: `screenshots-${Date.now()}`,
      }),
    });
    const rows = page.getByRole('table', { name: 'deliveries' }).locator('tbody tr', { hasText: 'delivered' });
    for (let i = 0; i < 100 && (await rows.count()) === 0; i++) {
      await page.getByRole('button', { name: 'Refresh' }).click();
      await page.waitForTimeout(200);
    }
    await rows.first().getByRole('button', { name: '3' }).click();
    await page.getByRole('table', { name: 'attempts' }).waitFor();
    await shot('webhook-deliveries');

    // This walk's writes through the API (the subscription, the grant), the subscription opened.
    await nav('Audit log').click();
    const entries = page.getByRole('table', { name: 'audit log' }).locator('tbody > tr');
    await entries.first().waitFor();
    await entries.filter({ hasText: 'POST /v1/admin/webhooks/subscriptions' }).first().getByRole('button').first().click();
    await page.getByLabel('request body').waitFor();
    await shot('audit-log');

    // A phone's width: the sections fold into a menu, wide tables scroll inside the page.
    const narrow = await browser.newPage({ viewport: { width: 420, height: 860 }, timezoneId: 'Europe/Berlin', locale: 'en-GB' });
    await narrow.goto(`${base}/console/`);
    await narrow.getByLabel('API key').fill(key);
    await narrow.getByRole('button', { name: 'Sign in' }).click();
    await narrow.locator('.tile-value', { hasText: /^\d/ }).first().waitFor();
    await narrow.waitForLoadState('networkidle');
    await narrow.screenshot({ path: join(OUT, 'narrow-overview.png') });
    await narrow.getByRole('button', { name: 'Menu' }).click();
    await narrow.screenshot({ path: join(OUT, 'narrow-menu.png') });
    process.stdout.write('wrote docs/console/narrow-overview.png, docs/console/narrow-menu.png\n');
  } finally {
    receiver.close();
    await browser?.close();
    service.kill('SIGTERM'); // stops the embedded PostgreSQL too
    await new Promise((r) => (service.exitCode !== null ? r() : service.once('exit', r)));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
