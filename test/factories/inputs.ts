import { uniqueHandle, uniqueName } from './unique-name.js';

// What a test entity looks like, in one place: the bodies the e2e factories send to the management
// API and the medium factories hand to the services (the same fields, the DTOs of both).

const HOUR = 3_600_000;
type Fields = Record<string, unknown>;

export const tenantInput = (fields: Fields = {}) => ({ slug: uniqueName('t'), ...fields });

/** A password user's credentials (`handle` for a user made by the service). */
export const userInput = () => ({ username: uniqueHandle('user'), password: 'correct horse battery' });

export const communityInput = (fields: Fields = {}) => ({ slug: uniqueName('c'), name: 'Test community', ...fields });

/** A global resource type of the community unless told. */
export const resourceTypeInput = (communityId: string, fields: Fields = {}) => ({
  communityId,
  slug: uniqueName('r'),
  name: 'XP',
  kind: 'global',
  ...fields,
});

/** A grant's key: each call a new grant. */
export const idempotencyKey = () => uniqueName('k');

/**
 * A quest event from `now` (hours are offsets): registration opens in 1 h and closes in 3 h, the
 * event runs from 2 h to 10 h unless told.
 */
export function questEventInput(communityId: string, now: number, fields: Fields = {}) {
  const at = (h: number) => new Date(now + h * HOUR);
  return {
    communityId,
    slug: uniqueName('ev'),
    name: 'Spring Cup',
    registrationStartsAt: at(1),
    registrationEndsAt: at(3),
    startsAt: at(2),
    endsAt: at(10),
    ...fields,
  };
}

/** A quest of the event crediting `points` of `scoreTypeId`. */
export const eventQuestInput = (event: { communityId: string; id: string }, scoreTypeId: string, points: number, fields: Fields = {}) => ({
  communityId: event.communityId,
  questEventId: event.id,
  name: uniqueName('quest'),
  type: 'match',
  rewards: [{ type: 'resource', resourceTypeId: scoreTypeId, amount: points }],
  ...fields,
});

export const listingInput = (fields: Fields) => ({ name: uniqueName('listing'), ...fields });

/** The JSON schema of a shipping address (the interface's Address shape, lines 1 and city/country required). */
export const ADDRESS_SCHEMA = {
  type: 'object',
  required: ['addressLine1', 'city', 'country'],
  additionalProperties: false,
  properties: {
    addressId: { type: 'string', maxLength: 64 },
    addressLine1: { type: 'string', minLength: 1, maxLength: 200 },
    addressLine2: { type: 'string', maxLength: 200 },
    city: { type: 'string', minLength: 1, maxLength: 100 },
    postalCode: { type: 'string', maxLength: 32 },
    country: { type: 'string', minLength: 2, maxLength: 64 },
  },
};

export const EMAIL_SCHEMA = {
  type: 'object',
  required: ['email'],
  additionalProperties: false,
  properties: { email: { type: 'string', format: 'email', maxLength: 254 } },
};

/** A data requirement asking for a shipping address unless told. */
export const requirementInput = (fields: Fields = { kind: 'data', schema: ADDRESS_SCHEMA }) => ({
  key: uniqueName('req'),
  name: 'Requirement',
  ...fields,
});

export const prizeInput = (fields: Fields = {}) => ({ name: uniqueName('prize'), kind: 'physical', ...fields });

export const slotInput = (communityId: string) => ({ communityId, key: uniqueName('slot'), name: 'Slot' });

export const itemInput = (communityId: string, slotId: string, fields: Fields = {}) => ({
  communityId,
  slotId,
  name: uniqueName('item').slice(0, 40),
  ...fields,
});

/** A purchase's nonce: each call a new purchase. */
export const nonce = () => uniqueName('nonce');
