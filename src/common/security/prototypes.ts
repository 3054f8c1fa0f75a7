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
 * - `Object.prototype` is sealed: no property can be added to it (`x.constructor.prototype.polluted = 1`
 *   throws in strict code and is ignored elsewhere), none removed or redefined. Not frozen: a
 *   frozen prototype makes every assignment of an inherited name to a plain object throw, and
 *   Node's HTTP parser does that for a request header named `constructor` (docs/decisions.md).
 */
export function hardenPrototypes(): void {
  delete (Object.prototype as { __proto__?: unknown }).__proto__;
  Object.seal(Object.prototype);
}

/** What Object.prototype holds when this module loads (before any request), to tell a later write. */
const original = new Map(
  Object.getOwnPropertyNames(Object.prototype).map((name) => [name, Object.getOwnPropertyDescriptor(Object.prototype, name)!]),
);

/**
 * What was written onto the shared prototypes: empty in a healthy process. An enumerable property
 * of Object.prototype or Array.prototype (nothing in the service or its dependencies adds one), or
 * a built-in of Object.prototype replaced (`toString`, `hasOwnProperty`, ... overwritten through
 * `constructor.prototype`). The readiness check answers 503 on any, so that an orchestrator
 * restarts the process.
 */
export function prototypePollution(): string[] {
  const added = [
    ...Object.keys(Object.prototype).map((k) => `Object.prototype.${k}`),
    ...Object.keys(Array.prototype).map((k) => `Array.prototype.${k}`),
  ];
  const replaced = [...original].filter(([name, d]) => {
    const now = Object.getOwnPropertyDescriptor(Object.prototype, name);
    return now !== undefined && (now.value !== d.value || now.get !== d.get || now.set !== d.set);
  });
  return [...added, ...replaced.map(([name]) => `Object.prototype.${name} (replaced)`)];
}
