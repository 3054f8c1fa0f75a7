// `npm run docs:screenshot`: refreshes docs/swagger-first-screen.png, the first screen of /docs
// (Swagger UI) as a frontend developer sees it on a 1280×800 window. It starts the built service
// (dist/) as `npm start` does, on DATABASE_URL or, without it, the embedded PostgreSQL (it runs
// pending migrations, as a start does) but without the start-up tasks (no tenant is created or
// printed), opens /docs in Debian's Chromium (CHROMIUM_PATH to use another) and stops the service.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = resolve(ROOT, 'docs/swagger-first-screen.png');
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
  const service = spawn(process.execPath, ['dist/src/main.js'], {
    cwd: ROOT,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      SWAGGER_ENABLED: 'true',
      STARTUP_TASKS: 'false',
      WEB_CONCURRENCY: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  service.stdout.on('data', (d) => output.push(String(d)));
  service.stderr.on('data', (d) => output.push(String(d)));
  let browser;
  try {
    await waitForDocs(`${base}/docs-json`, service, output);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'],
    });
    const page = await browser.newPage({ viewport: VIEWPORT });
    await page.goto(`${base}/docs`);
    await page.locator('.opblock').first().waitFor();
    await page.screenshot({ path: OUT });
    process.stdout.write(`wrote ${OUT}\n`);
  } finally {
    await browser?.close();
    service.kill('SIGTERM');
    await new Promise((r) => (service.exitCode !== null ? r() : service.once('exit', r)));
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
