import type { DomainEventType } from '../common/events/domain-events.js';
import type { ParticipantStatusName } from '../participation/participation.events.js';

/**
 * The events this service publishes to integrations (webhooks, NATS, the live stream): their type,
 * the version of their payload and its JSON Schema (draft 2020-12 subset that ajv and OpenAPI 3.1
 * read alike). Each is a domain event of its module (`<module>.events.ts`) whose fields, less
 * `tenantId` (which the envelope carries), are the payload. A change that removes or retypes a
 * field is a new version; adding an optional field is not.
 *
 * The envelope every sink sends: `{ id, type, version, tenantId, occurredAt, data }`.
 */
type Schema = Record<string, unknown>;

const uuid: Schema = { type: 'string', format: 'uuid' };
const nullableUuid: Schema = { type: ['string', 'null'], format: 'uuid' };
const str = (maxLength = 256): Schema => ({ type: 'string', maxLength });
const int = (minimum?: number): Schema => ({ type: 'integer', ...(minimum !== undefined ? { minimum } : {}) });
const PARTICIPANT_STATUSES: ParticipantStatusName[] = ['REGISTERED', 'UNREGISTERED', 'DROPPED', 'CANCELLED'];
const EVENT_STATUS_VALUES = ['draft', 'upcoming', 'registration_open', 'active', 'ended', 'completed', 'cancelled'];

function object(properties: Record<string, Schema>, optional: string[] = []): Schema {
  return {
    type: 'object',
    additionalProperties: false,
    required: Object.keys(properties).filter((k) => !optional.includes(k)),
    properties,
  };
}

const ledgerPayload = (verb: string) =>
  object({
    userId: uuid,
    resourceTypeId: uuid,
    kind: {
      type: 'string',
      enum: ['global', 'scoped'],
      description: '`global`: a community currency (XP); `scoped`: the points of one quest event.',
    },
    amount: { ...int(1), description: `The amount ${verb} (positive).` },
    reason: { ...str(64), description: '`quest_completion`, `store_purchase`, `event_reward`, an operator’s own reason...' },
    reference: { type: ['string', 'null'], maxLength: 256, description: 'What caused it (a quest, purchase or claim id...).' },
    balance: { ...int(0), description: 'The spendable balance after the change.' },
  });

export interface CatalogEntry {
  version: number;
  description: string;
  schema: Schema;
}

export const EVENT_CATALOG = {
  'user.registered': {
    version: 1,
    description: 'A user was created (password registration, or the first login of an identity).',
    schema: object({ userId: uuid, handle: str(64) }),
  },
  'user.logged_in': {
    version: 1,
    description: 'A session was started (every login and registration).',
    schema: object({
      userId: uuid,
      method: { ...str(32), description: '`password`, `siwe`, `providerA`, `providerB`, `zklogin_providerA`...' },
    }),
  },
  'community.joined': {
    version: 1,
    description: 'A user joined a community.',
    schema: object({ communityId: uuid, userId: uuid }),
  },
  'resource.credited': {
    version: 1,
    description: "An amount was added to a user's balance (never for a replayed idempotency key).",
    schema: ledgerPayload('added'),
  },
  'resource.debited': {
    version: 1,
    description: "An amount was taken from a user's balance (a purchase's price, a revoked score...).",
    schema: ledgerPayload('taken'),
  },
  'quest.completed': {
    version: 1,
    description:
      'A user completed a quest (once per user, quest and period: `periodKey` is `once`, or the day, ISO week or month of a recurring quest); its rewards were granted in the same transaction.',
    schema: object({ questId: uuid, completionId: uuid, userId: uuid, communityId: uuid, questEventId: nullableUuid, periodKey: str(16) }, [
      'periodKey',
    ]),
  },
  'quest.task_verified': {
    version: 1,
    description: 'A task of a quest was verified done for a user in a period (once per task, user and period).',
    schema: object({ questId: uuid, taskId: uuid, kind: str(16), userId: uuid, communityId: uuid, periodKey: str(16) }),
  },
  'quest.submission_reviewed': {
    version: 1,
    description: "An operator approved or rejected a user's submission to a quest task (`reason` given to the user, or null).",
    schema: object({
      questId: uuid,
      taskId: uuid,
      submissionId: uuid,
      userId: uuid,
      communityId: uuid,
      periodKey: str(16),
      approved: { type: 'boolean' },
      reason: { type: ['string', 'null'], maxLength: 500 },
    }),
  },
  'participant.status_changed': {
    version: 1,
    description: "A user's participation in a quest event changed status (`from` null: the first registration).",
    schema: object({
      eventId: uuid,
      communityId: uuid,
      userId: uuid,
      from: { type: ['string', 'null'], enum: [...PARTICIPANT_STATUSES, null] },
      to: { type: 'string', enum: PARTICIPANT_STATUSES },
      action: { type: 'string', enum: ['register', 'unregister', 'cancel', 'drop'] },
    }),
  },
  'quest_event.status_changed': {
    version: 1,
    description:
      'A quest event was created, published, cancelled or completed (`from` null: created). The statuses that follow from time alone (registration_open, active, ended) are not events.',
    schema: object({
      eventId: uuid,
      communityId: uuid,
      from: { type: ['string', 'null'], enum: [...EVENT_STATUS_VALUES, null] },
      to: { type: 'string', enum: EVENT_STATUS_VALUES },
    }),
  },
  'reward.allocated': {
    version: 1,
    description: "Tickets of a quest event's reward were allocated to a participant when the event completed.",
    schema: object({ eventId: uuid, allocationId: uuid, rewardId: uuid, userId: uuid, tickets: int(0) }),
  },
  'reward.claimed': {
    version: 1,
    description: 'A participant spent tickets on a reward.',
    schema: object({
      eventId: uuid,
      allocationId: uuid,
      rewardId: uuid,
      claimId: uuid,
      userId: uuid,
      ticketsSpent: int(0),
      status: { type: 'string', enum: ['processed', 'pending_fulfilment'] },
    }),
  },
  'store.purchase_completed': {
    version: 1,
    description: 'A store purchase committed (its price paid and its grant made in the same transaction). Never for a replayed nonce.',
    schema: object({
      purchaseId: uuid,
      listingId: uuid,
      communityId: uuid,
      userId: uuid,
      kind: { type: 'string', enum: ['item', 'prize', 'resource'] },
      itemId: nullableUuid,
      prizeId: nullableUuid,
      resourceTypeId: nullableUuid,
      quantity: int(1),
      price: {
        type: 'array',
        items: object({ resourceTypeId: uuid, amount: int(1) }),
      },
    }),
  },
  'prize.awarded': {
    version: 1,
    description: 'A prize was awarded to a user (by the store, an event or the management API).',
    schema: object({
      awardId: uuid,
      prizeId: uuid,
      userId: uuid,
      quantity: int(1),
      source: str(32),
      reason: str(64),
      reference: { type: ['string', 'null'], maxLength: 256 },
    }),
  },
  'inventory.item_granted': {
    version: 1,
    description: 'Units of an inventory item were granted to a user.',
    schema: object({
      grantId: uuid,
      itemId: uuid,
      communityId: uuid,
      userId: uuid,
      quantity: int(1),
      reason: str(64),
      reference: { type: ['string', 'null'], maxLength: 256 },
    }),
  },
  'avatar.minted': {
    version: 1,
    description: "A user's avatar was minted as an NFT (the transaction's receipt was confirmed).",
    schema: object({
      mintId: uuid,
      communityId: uuid,
      userId: uuid,
      blockchain: str(32),
      tokenId: str(78),
      txHash: { type: ['string', 'null'], maxLength: 66 },
    }),
  },
  'social.linked': {
    version: 1,
    description: 'A user linked a social account (or linked again one they hold).',
    schema: object({ socialId: uuid, userId: uuid, accountType: str(32), subjectId: str(256) }),
  },
  'season.created': {
    version: 1,
    description: 'A season was defined through the management API, or opened by its schedule (before it starts).',
    schema: object({
      seasonId: uuid,
      communityId: uuid,
      resourceTypeId: uuid,
      scheduleId: { ...nullableUuid, description: 'The schedule that opened it; null for a one-off season.' },
      number: int(1),
      name: str(200),
      startsAt: { type: 'string', format: 'date-time' },
      endsAt: { type: 'string', format: 'date-time' },
    }),
  },
  'season.rewarded': {
    version: 1,
    description: "A winner's rank rewards were paid when the season closed (once per player and season).",
    schema: object({
      seasonId: uuid,
      userId: uuid,
      rank: { ...int(1), description: 'The final place.' },
      score: int(0),
      rewards: {
        type: 'array',
        description: 'The rewards of the place, in the season’s reward order; `failed`: refused (e.g. no supply left).',
        items: object({
          type: { type: 'string', enum: ['resource', 'item', 'prize'] },
          refId: uuid,
          amount: int(1),
          status: { type: 'string', enum: ['paid', 'failed'] },
        }),
      },
    }),
  },
  'season.closed': {
    version: 1,
    description: 'A season ended: its standings are frozen and its rank rewards paid.',
    schema: object({
      seasonId: uuid,
      communityId: uuid,
      resourceTypeId: uuid,
      ranked: { ...int(0), description: 'Players in the final standings.' },
      paidThrough: { ...int(0), description: 'The last place whose rewards were paid.' },
    }),
  },
} satisfies Partial<Record<DomainEventType, CatalogEntry>>;

export type PublicEventType = keyof typeof EVENT_CATALOG;
export const PUBLIC_EVENT_TYPES = Object.keys(EVENT_CATALOG).sort() as PublicEventType[];

export const isPublicEventType = (type: string): type is PublicEventType => Object.hasOwn(EVENT_CATALOG, type);

/** The envelope's schema (`data` is the type's payload). */
export const ENVELOPE_SCHEMA = object({
  id: { ...uuid, description: 'The event id: the idempotency key of a receiver (deliveries of one event share it).' },
  type: { type: 'string', enum: PUBLIC_EVENT_TYPES },
  version: int(1),
  tenantId: uuid,
  occurredAt: { type: 'string', format: 'date-time', description: 'When the change committed its transaction (the service clock).' },
  data: { type: 'object', description: 'The payload of the type (`WebhookEvent_<type>` schemas).' },
});

/** A schema of this catalogue in OpenAPI 3.0 terms (`nullable` instead of a `null` type), for Swagger's components. */
export function toOpenApi30(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toOpenApi30);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'type' && Array.isArray(v)) {
      const types = v.filter((x) => x !== 'null');
      out.type = types.length === 1 ? types[0] : types;
      if (types.length < v.length) out.nullable = true;
    } else out[k] = toOpenApi30(v);
  }
  return out;
}

/** The components Swagger shows: `WebhookEnvelope` and `WebhookEvent_<type>` (the `data` of each type). */
export function eventSchemaComponents(): Record<string, unknown> {
  const components: Record<string, unknown> = {
    WebhookEnvelope: {
      ...(toOpenApi30(ENVELOPE_SCHEMA) as object),
      description:
        'What every webhook delivery POSTs and the NATS sink publishes (docs/integrations.md). At least once: dedupe by `id`. Order is not promised, not even per subscription.',
    },
  };
  for (const type of PUBLIC_EVENT_TYPES) {
    const e: CatalogEntry = EVENT_CATALOG[type];
    components[`WebhookEvent_${type}`] = {
      ...(toOpenApi30(e.schema) as object),
      description: `\`${type}\` version ${e.version}: ${e.description}`,
    };
  }
  return components;
}
