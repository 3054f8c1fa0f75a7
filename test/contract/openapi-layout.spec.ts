import { readFileSync } from 'node:fs';
import { API_TAGS, INTERFACE_TAGS, MANAGEMENT_TAG } from '../../src/openapi-layout.js';
import { SWAGGER_UI_OPTIONS } from '../../src/openapi.js';
import { SESSION_SECURITY } from '../../src/common/auth/auth.decorators.js';
import { DEMO } from '../../src/seed/demo-seed.js';
import { INTERFACE_ENDPOINTS } from './interface-endpoints.js';

const doc = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8')) as {
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, { tags?: string[] }>>;
};

/** Operations of openapi.json in document order, as `METHOD /path`, with their first tag. */
const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, op]) => ({ endpoint: `${method.toUpperCase()} ${path}`, tag: op.tags?.[0] })),
);

describe('openapi.json presents the interface in its order (what /docs shows)', () => {
  it("the code's copy of the interface order (src/openapi-layout.ts) is the interface's, endpoint by endpoint", () => {
    expect(INTERFACE_TAGS.flatMap((t) => t.endpoints)).toEqual(INTERFACE_ENDPOINTS.map((e) => `${e.method.toUpperCase()} ${e.path}`));
  });

  it('declares every tag, with a description, interface groups first and management last', () => {
    expect(doc.tags.map((t) => t.name)).toEqual(API_TAGS.map((t) => t.name));
    expect(doc.tags.slice(0, INTERFACE_TAGS.length).map((t) => t.name)).toEqual(INTERFACE_TAGS.map((t) => t.name));
    expect(doc.tags.at(-1)?.name).toBe(MANAGEMENT_TAG.name);
    for (const t of doc.tags) expect(t.description?.length).toBeGreaterThan(0);
    const used = new Set(operations.map((o) => o.tag));
    expect([...used].filter((t) => !doc.tags.some((d) => d.name === t))).toEqual([]);
  });

  // A path item holds all its methods, so operations of one path stay together, at the place of
  // the first one (GET /v1/user/profile, then POST /v1/user/profile, then the public profile).
  it("lists each group's interface endpoints first, in the interface's order (one path's methods together)", () => {
    const pathOf = (endpoint: string): string => endpoint.split(' ')[1];
    for (const tag of INTERFACE_TAGS) {
      const order = [...(tag.shownFirst ?? []), ...tag.endpoints.filter((e) => !tag.shownFirst?.includes(e))];
      const firstOfPath = (endpoint: string): number => order.findIndex((e) => pathOf(e) === pathOf(endpoint));
      const expected = [...tag.endpoints].sort((a, b) => firstOfPath(a) - firstOfPath(b));
      const inTag = operations.filter((o) => o.tag === tag.name).map((o) => o.endpoint);
      expect(inTag.slice(0, tag.endpoints.length)).toEqual(expected);
    }
  });

  it('shows the password login, then the registration, first in Authentication', () => {
    const auth = operations.filter((o) => o.tag === 'Authentication').map((o) => o.endpoint);
    expect(auth.slice(0, 3)).toEqual([
      'POST /v1/user/auth/password/login',
      'POST /v1/user/register/password',
      'POST /v1/user/auth/refresh-session',
    ]);
  });

  it("gives the password login the demo tenant's credentials as its example, and signs Swagger UI in with a login's token", () => {
    const schemas = (doc as unknown as { components: { schemas: Record<string, { properties: Record<string, { example?: unknown }> }> } })
      .components.schemas;
    expect(schemas.PasswordLoginDto.properties.username.example).toBe(DEMO.users[0]);
    expect(schemas.PasswordLoginDto.properties.password.example).toBe(DEMO.password);
    // The interceptor runs in the browser from its source text, so it names the scheme literally.
    expect(String(SWAGGER_UI_OPTIONS.responseInterceptor)).toContain(`'${SESSION_SECURITY}'`);
  });

  it('keeps every management operation (/v1/admin) under the management tag', () => {
    const admin = operations.filter((o) => o.endpoint.split(' ')[1].startsWith('/v1/admin/'));
    expect(admin.length).toBeGreaterThan(0);
    expect(admin.filter((o) => o.tag !== MANAGEMENT_TAG.name)).toEqual([]);
  });
});
