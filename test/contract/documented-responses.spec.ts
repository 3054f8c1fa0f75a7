import { openapi as doc, type Schema } from './openapi-document.js';

/**
 * What a frontend developer reads in Swagger: every success schema shows example values, and
 * every operation lists the errors it can answer with the `{code, error, message}` body.
 */
const operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })));
const apiOperations = operations.filter((o) => o.path.startsWith('/v1/'));

/** Names of the component schemas reachable from the success responses. */
function successSchemas(): Set<string> {
  const seen = new Set<string>();
  const visit = (s: Schema | undefined): void => {
    if (!s || typeof s !== 'object') return;
    if (s.$ref) {
      const name = s.$ref.split('/').pop()!;
      if (!seen.has(name)) {
        seen.add(name);
        visit(doc.components.schemas[name]);
      }
      return;
    }
    visit(s.items);
    if (typeof s.additionalProperties === 'object') visit(s.additionalProperties as Schema);
    for (const x of [...(s.allOf ?? []), ...(s.oneOf ?? []), ...(s.anyOf ?? [])]) visit(x);
    for (const p of Object.values(s.properties ?? {})) visit(p);
  };
  for (const { op } of apiOperations) {
    for (const [status, r] of Object.entries(op.responses)) if (status.startsWith('2')) visit(r.content?.['application/json']?.schema);
  }
  return seen;
}

const isNested = (p: Schema) => Boolean(p.$ref || p.allOf || p.oneOf || p.anyOf || p.items?.$ref || p.items?.allOf);

describe('documented responses in openapi.json', () => {
  it('shows an example (or the allowed values) for every scalar property of every success schema', () => {
    const missing: string[] = [];
    for (const name of successSchemas()) {
      for (const [prop, p] of Object.entries(doc.components.schemas[name].properties ?? {})) {
        if (!isNested(p) && p.example === undefined && p.enum === undefined) missing.push(`${name}.${prop}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('covers the records the interface leaves "not shown"', () => {
    const schemas = successSchemas();
    for (const name of [
      'CommunityDto',
      'ResourceTypeDto',
      'QuestEventDto',
      'QuestDto',
      'QuestTagDto',
      'LeaderboardEntryDto',
      'ParticipantDto',
      'RewardAllocationDto',
      'InventoryDto',
      'SlotDto',
      'ItemDto',
      'AvatarDto',
      'SocialDto',
      'ProfileDto',
      'NotificationDto',
      'ListingDto',
      'PurchaseDto',
      'PrizeDto',
    ]) {
      expect({ name, documented: schemas.has(name) }).toEqual({ name, documented: true });
    }
  });

  it('lists, for every /v1 operation, its error responses with the {code, message} body and an example code', () => {
    const problems: string[] = [];
    for (const { path, method, op } of apiOperations) {
      const errors = Object.entries(op.responses).filter(([status]) => /^[45]\d\d$/.test(status));
      if (errors.length === 0) problems.push(`${method} ${path}: no error response`);
      const takesInput = (op.parameters?.length ?? 0) > 0 || op.requestBody !== undefined;
      if (takesInput && !op.responses['400']) problems.push(`${method} ${path}: no 400`);
      const needsCredentials = !(Array.isArray(op.security) && op.security.length === 0);
      if (needsCredentials && !op.responses['401']) problems.push(`${method} ${path}: no 401`);
      for (const [status, r] of errors) {
        const body = r.content?.['application/json'];
        if (body?.schema?.$ref !== '#/components/schemas/ErrorBodyDto') problems.push(`${method} ${path} ${status}: not the error body`);
        if (typeof body?.example?.code !== 'number') problems.push(`${method} ${path} ${status}: no example code`);
      }
    }
    expect(problems).toEqual([]);
  });
});
