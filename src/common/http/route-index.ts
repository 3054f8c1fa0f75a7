import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';

/** What this needs of an Express router's layer (the `router` package's `Layer`). */
interface RouteLayer {
  route?: { path?: unknown };
}

/** The first two segments of a path, lower case (Express matches paths case-insensitively), or null. */
function prefixOf(path: string): string | null {
  const second = path.indexOf('/', 1);
  if (path[0] !== '/' || second < 2) return null;
  const third = path.indexOf('/', second + 1);
  const prefix = third < 0 ? path : path.slice(0, third);
  return prefix.length > second + 1 ? prefix.toLowerCase() : null;
}

/** A route's prefix when its first two segments are literal (`/v1/community/:id` -> `/v1/community`). */
function literalPrefixOf(layer: RouteLayer): string | null {
  const path = layer.route?.path;
  if (typeof path !== 'string') return null;
  const prefix = prefixOf(path);
  return prefix !== null && /^\/[\w.-]+\/[\w.-]+$/.test(prefix) ? prefix : null;
}

/**
 * Express tries an app's routes one after the other, a path pattern each, so a request for the
 * last of 160 routes runs 160 matchers. This indexes each run of two or more consecutive routes
 * with literal first two segments (Nest registers the API's routes in a few long runs) by those
 * segments: a layer put before the run sends a request to an Express router holding only the
 * run's routes of its prefix, in their order. Nothing else changes: a request the index does not
 * answer (another prefix, no route of its prefix matched, OPTIONS, whose automatic answer needs
 * every route) goes on through the original layers, which stay where they were, and any route of
 * the run that could match the request before the one found is of the same prefix, so it is found
 * first as before. Returns the prefixes indexed.
 */
export function indexRoutes(app: Express): string[] {
  const appRouter = (app as unknown as { router: { stack: RouteLayer[]; params: object } }).router;
  const stack = appRouter.stack;
  const runs: { start: number; end: number }[] = [];
  for (let i = 0; i < stack.length;) {
    let j = i;
    while (j < stack.length && literalPrefixOf(stack[j]) !== null) j++;
    if (j - i >= 2) runs.push({ start: i, end: j });
    i = j + 1;
  }
  const prefixes = new Set<string>();
  // From the last run back, so that inserting a layer does not move the runs still to index.
  for (const { start, end } of runs.reverse()) {
    const routers = new Map<string, express.Router>();
    for (const layer of stack.slice(start, end)) {
      const prefix = literalPrefixOf(layer)!;
      let router = routers.get(prefix);
      if (!router) {
        routers.set(prefix, (router = express.Router()));
        // The app's `app.param` callbacks run for the routes' parameters as before.
        (router as unknown as { params: object }).params = appRouter.params;
      }
      (router.stack as RouteLayer[]).push(layer);
      prefixes.add(prefix);
    }
    app.use((req: Request, res: Response, next: NextFunction) => {
      if (req.method === 'OPTIONS') return next();
      const router = routers.get(prefixOf(req.path) ?? '');
      if (!router) return next();
      router(req, res, next);
    });
    // `use` appended the index's layer: it goes before the run.
    stack.splice(start, 0, stack.pop()!);
  }
  return [...prefixes];
}

/** Indexes the app's routes once Nest has registered them (`indexRoutes`). */
@Injectable()
export class RouteIndex implements OnApplicationBootstrap {
  /** The prefixes indexed (for tests and logs). */
  prefixes: string[] = [];

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onApplicationBootstrap(): void {
    // No HTTP adapter in a CLI application context; only Express has this router.
    const app: unknown = this.adapterHost.httpAdapter?.getInstance();
    if (typeof app === 'function' && 'router' in app) this.prefixes = indexRoutes(app as Express);
  }
}
