// `npm run docs:screenshot`: refreshes docs/swagger-first-screen.png, the first screen of /docs
// (Swagger UI) as a frontend developer sees it on a 1280×800 window, and docs/swagger-login.png,
// the password login run from "Try it out" with its example body. It starts the built service
// (dist/) as a fresh clone's `npm start` does (the embedded PostgreSQL in an empty data directory,
// so the demo tenant is seeded), opens /docs in Debian's Chromium (CHROMIUM_PATH to use another)
// and stops the service.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = resolve(ROOT, 'docs/swagger-first-screen.png');
const LOGIN_OUT = resolve(ROOT, 'docs/swagger-login.png');
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

async function waitForDocs(url, service, output) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (service.exitCode !== null) throw new Error(`the service exited (${service.exitCode}):\n${output.join('')}`);
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${url} did not answer within 120 s:\n${output.join('')}`);
}

async function main() {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found: apt-get install chromium (or set CHROMIUM_PATH)`);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const output = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'cgs-docs-screenshot-'));
  const { DATABASE_URL: _unused, ...env } = process.env;
  const service = spawn(process.execPath, ['dist/src/main.js'], {
    cwd: ROOT,
    env: {
      ...env,
      HOST: '127.0.0.1',
      PORT: String(port),
      SWAGGER_ENABLED: 'true',
      WEB_CONCURRENCY: '1',
      DATA_DIR: join(dataDir, 'data'),
      EMBEDDED_PG_PORT: String(await freePort()),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  service.stdout.on('data', (d) => output.push(String(d)));
  service.stderr.on('data', (d) => output.push(String(d)));
  let browser;
  try {
    await waitForDocs(`${base}/docs-json`, service, output);
    while (!/log in as:/.test(output.join(''))) {
      if (service.exitCode !== null) throw new Error(`the service exited (${service.exitCode}):\n${output.join('')}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'],
    });
    const page = await browser.newPage({ viewport: VIEWPORT });
    await page.goto(`${base}/docs`);
    await page.locator('.opblock').first().waitFor();
    await page.screenshot({ path: OUT });
    process.stdout.write(`wrote ${OUT}\n`);

    // The first call: the password login as it stands, its 200, and the lock of Authorize closed.
    const login = page.locator('#operations-Authentication-passwordLogin');
    await login.locator('.opblock-summary').click();
    await login.getByRole('button', { name: /try it out/i }).click();
    await login.getByRole('button', { name: /execute/i }).click();
    const status = login.locator('.live-responses-table tbody tr.response .response-col_status').first();
    await status.waitFor({ timeout: 15_000 });
    if ((await status.textContent())?.trim() !== '200') throw new Error(`the example login answered ${await status.textContent()}`);
    await login.locator('.responses-wrapper').scrollIntoViewIfNeeded();
    await page.screenshot({ path: LOGIN_OUT });
    process.stdout.write(`wrote ${LOGIN_OUT}\n`);
  } finally {
    await browser?.close();
    service.kill('SIGTERM');
    await new Promise((r) => (service.exitCode !== null ? r() : service.once('exit', r)));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
