/**
 * The order in which /docs (Swagger UI) and openapi.json present the API: the interface's groups
 * in the interface's order, each with its interface endpoints in the interface's order (this
 * service's extra routes of a group follow them), then the extensions, then management. Copied
 * from the interface specification by hand: it is not part of this repository. The document
 * builder refuses a tag missing here and an endpoint listed here but absent from the code.
 */
export interface ApiTagLayout {
  name: string;
  description: string;
  /** `METHOD /path` of the interface's endpoints in this tag, in the interface's order. */
  endpoints: string[];
  /**
   * Endpoints of `endpoints` shown before the others of the tag: the one departure from the
   * interface's order, for the call a newcomer makes first (docs/decisions.md, "Swagger UI").
   */
  shownFirst?: string[];
}

export const INTERFACE_TAGS: readonly ApiTagLayout[] = [
  {
    name: 'Authentication',
    description:
      'Logins (OAuth, ZKLogin, SIWE, password), registration and session refresh. A login returns the session and refresh tokens.',
    endpoints: [
      'POST /v1/user/auth/refresh-session',
      'POST /v1/user/auth/providerA/login',
      'POST /v1/user/auth/providerB/login',
      'POST /v1/user/auth/providerC/login',
      'POST /v1/user/auth/providerA/zklogin',
      'POST /v1/user/auth/providerD/zklogin',
      'POST /v1/user/auth/siwe/login',
      'POST /v1/user/register/password',
      'POST /v1/user/auth/password/login',
    ],
    shownFirst: ['POST /v1/user/auth/password/login', 'POST /v1/user/register/password'],
  },
  {
    name: 'Resources',
    description: 'Resource types (XP, points, currencies) of a community.',
    endpoints: ['GET /v1/community/resource-types/{resourceTypeId}', 'GET /v1/community/{communityId}/resource-types'],
  },
  {
    name: 'Community',
    description: "Communities, the user's ranking, leaderboards, joining, referrals and the community's quests.",
    endpoints: [
      'GET /v1/community/{communityId}',
      'GET /v1/community/{id}/ranking/{slug}',
      'GET /v1/community/{id}/leaderboard/{slug}',
      'POST /v1/community/{communityId}/join',
      'GET /v1/community/{communityId}/referrals',
      'GET /v1/community/{communityId}/quests',
      'GET /v1/community/{communityId}/quests/tags',
    ],
  },
  {
    name: 'Quest events',
    description: "Quest events, their leaderboards and quests, and the participant's reward allocations.",
    endpoints: [
      'GET /v1/quest-event/{eventId}',
      'GET /v1/quest-event',
      'GET /v1/quest-event/{id}/leaderboard',
      'GET /v1/quest-event/{id}/quests',
      'GET /v1/quest-event/{eventId}/reward/allocations',
      'POST /v1/quest-event/{eventId}/reward/allocations/claim/{rewardAllocationId}',
    ],
  },
  {
    name: 'Participation',
    description: "The user's participation in a quest event: register, unregister, cancel, rank and sync.",
    endpoints: [
      'GET /v1/quest-event/{eventId}/participant',
      'GET /v1/quest-event/{eventId}/participant/list',
      'GET /v1/quest-event/{eventId}/participant/rank',
      'POST /v1/quest-event/{eventId}/participant/register',
      'PUT /v1/quest-event/{eventId}/participant/unregister',
      'PUT /v1/quest-event/{eventId}/participant/cancel',
      'GET /v1/quest-event/{eventId}/participant/sync',
    ],
  },
  {
    name: 'Inventory',
    description: "The user's inventory in a community: slots, items and the avatar (mintable as an NFT).",
    endpoints: [
      'GET /v1/community/{ckey}/inventory',
      'GET /v1/community/{ckey}/inventory/slots',
      'GET /v1/community/{ckey}/inventory/slots/{slotId}/items',
      'GET /v1/community/{ckey}/inventory/items/{itemId}',
      'POST /v1/community/{ckey}/inventory/slots/allocate',
      'GET /v1/community/{ckey}/inventory/avatar',
      'GET /v1/community/{ckey}/inventory/items',
      'POST /v1/community/{ckey}/inventory/avatar/mint',
    ],
  },
  {
    name: 'Prizes',
    description: 'Prizes, their requirements and their supply.',
    endpoints: [
      'GET /v1/inventory/prizes',
      'GET /v1/inventory/prizes/requirements',
      'GET /v1/inventory/prizes/{prizeId}',
      'GET /v1/inventory/prizes/{prizeId}/supply',
    ],
  },
  {
    name: 'Store',
    description: "Store listings, the user's spendable balance and purchases.",
    endpoints: ['GET /v1/store/balance', 'GET /v1/store/listings', 'GET /v1/store/purchase', 'POST /v1/store/purchase/{listingId}'],
  },
  {
    name: 'Socials and wallet',
    description: "The user's linked social accounts and blockchain wallet.",
    endpoints: [
      'GET /v1/user/socials',
      'POST /v1/user/socials',
      'GET /v1/user/socials/{type}',
      'POST /v1/user/socials/update',
      'DELETE /v1/user/socials/{id}',
      'GET /v1/user/wallet',
    ],
  },
  {
    name: 'Profile',
    description: "The user's profile, public profiles and the user's referrals.",
    endpoints: ['GET /v1/user/profile', 'GET /v1/user/by-id/{username}/public', 'POST /v1/user/profile', 'GET /v1/user/referrals'],
  },
  {
    name: 'Notifications',
    description: "The user's notifications.",
    endpoints: ['GET /v1/user/notifications', 'POST /v1/user/notifications/read'],
  },
];

/** Groups this service adds to the interface; shown after the interface's groups. */
export const EXTENSION_TAGS: readonly ApiTagLayout[] = [
  {
    name: 'Seasons',
    description:
      'Time-boxed leaderboards of a resource (weekly XP...): the seasons of a community. Their boards: the ranking routes with `?season=current|<id>`.',
    endpoints: [],
  },
  {
    name: 'Quest play',
    description:
      'Quests players complete themselves: a quest with tasks (answers, submissions, visits, linked socials, on-chain holdings, partner checks, game events, referrals, resources, other quests) is checked by the service and credited once per period. Where the player stands, claims, answers, submissions, visit links, and the history.',
    endpoints: [],
  },
  { name: 'Health', description: 'Liveness and readiness probes (outside `/v1`).', endpoints: [] },
];

/** The management API (`/v1/admin`), shown after everything a client application calls. */
export const MANAGEMENT_TAG: ApiTagLayout = {
  name: 'Management',
  description: "Operators' routes under `/v1/admin`: they take the tenant's API key in `X-Api-Key`.",
  endpoints: [],
};

export const API_TAGS: readonly ApiTagLayout[] = [...INTERFACE_TAGS, ...EXTENSION_TAGS, MANAGEMENT_TAG];
