import { existsSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import express, { type NextFunction, type Request, type Response } from 'express';
import { errorBody } from '../errors/all-exceptions.filter.js';
import { CommonErrors } from '../errors/error-catalog.js';

/** Where `npm run build` puts the operator console (console/, built by Vite): dist/console. */
export function consoleDirectory(): string {
  // This file runs as dist/src/common/console/*.js (the service) or src/common/console/*.ts (tests).
  const root = resolve(import.meta.dirname, '../../..');
  return join(basename(root) === 'dist' ? root : join(root, 'dist'), 'console');
}

/** Whether `npm run build` built the console (a checkout built with `nest build` alone has no console). */
export function consoleBuilt(dir = consoleDirectory()): boolean {
  return existsSync(join(dir, 'index.html'));
}

/**
 * The operator console at `/console`: static files and, for the console's own routes
 * (`/console/communities/...`), its index.html, so a reload or a bookmark lands on the same screen.
 * Hashed assets are cached for good; index.html is revalidated on every load, so a new build is
 * picked up at once. The console keeps no state here: any instance serves the same files.
 */
export function serveConsole(app: INestApplication, dir = consoleDirectory()): void {
  const index = join(dir, 'index.html');
  const available = consoleBuilt(dir);
  const files = express.static(dir, {
    index: false,
    redirect: false,
    fallthrough: true,
    setHeaders: (res, path) => {
      res.setHeader('Cache-Control', path.includes(`${join(dir, 'assets')}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  const notFound = (res: Response, detail: string) => res.status(404).json(errorBody(CommonErrors.not_found, detail));
  app.use('/console', (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return notFound(res, 'The console only answers GET');
    if (!available) return notFound(res, 'The console is not built: run `npm run build`');
    // `/console` → `/console/`: the console's relative asset URLs need the trailing slash.
    if (req.originalUrl === '/console' || req.originalUrl.startsWith('/console?')) {
      return res.redirect(301, `/console/${req.originalUrl.slice('/console'.length)}`);
    }
    files(req, res, () => {
      // A missing asset is a 404, not the page (a stale tab asking for an old build's file).
      if (req.path.startsWith('/assets/') || /\.[a-z0-9]+$/i.test(req.path)) return notFound(res, 'No such console file');
      res.setHeader('Cache-Control', 'no-cache');
      res.sendFile(index, (err) => err && next(err));
    });
  });
}
