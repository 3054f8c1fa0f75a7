/**
 * Process-level defence against prototype pollution, so that the next bug that builds an object
 * from client keys cannot poison every later request of every tenant (issue 15). `bootstrap`
 * calls it once the application is built (every module loaded, routes registered) and before it
 * listens:
 * - the `Object.prototype.__proto__` accessor is deleted, as `node --disable-proto=delete` does:
 *   `obj.__proto__ = x` then creates an own property instead of swapping the prototype. Done here
 *   rather than with the flag because it must come after start-up (passport's
 *   `AuthenticationError` sets its prototype through `__proto__` when loaded) and because every
 *   way of starting the process (npm start, Docker, cluster workers, the tests' and bench's
 *   `node dist/src/main.js`) then gets it without repeating a flag;
 * - `Object.prototype` is frozen: a write that reaches it (`x.constructor.prototype.y = 1`) throws
 *   in strict code and is ignored elsewhere, so nothing inherits it.
 */
export function hardenPrototypes(): void {
  delete (Object.prototype as { __proto__?: unknown }).__proto__;
  Object.freeze(Object.prototype);
}

/**
 * Names written onto the shared prototypes: empty in a healthy process. Nothing in the service or
 * its dependencies adds an enumerable property to them, so any name is a pollution (the
 * readiness check answers 503 so that an orchestrator restarts the process).
 */
export function prototypePollution(): string[] {
  return [...Object.keys(Object.prototype).map((k) => `Object.prototype.${k}`), ...Object.keys(Array.prototype).map((k) => `Array.prototype.${k}`)];
}
