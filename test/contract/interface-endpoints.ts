/**
 * The 59 endpoints of the interface specification, transcribed by hand (the specification is not
 * part of this repository). The conformance test holds openapi.json against this table.
 *
 * Types: 'string' | 'number' | 'boolean' | 'object' | 'string[]' | 'object[]'.
 * success: the status the interface states; `noContent` when it says "no content". Where the
 * interface states no status, any 2xx with a documented schema passes.
 */
export type FieldType = 'string' | 'number' | 'boolean' | 'object' | 'string[]' | 'object[]';
export interface Field {
  name: string;
  type: FieldType;
  required: boolean;
}
export interface InterfaceEndpoint {
  method: 'get' | 'post' | 'put' | 'delete';
  path: string;
  query?: Field[];
  body?: Field[];
  success?: number;
  noContent?: boolean;
}

const req = (name: string, type: FieldType): Field => ({ name, type, required: true });
const opt = (name: string, type: FieldType): Field => ({ name, type, required: false });
const paging = [opt('page', 'number'), opt('limit', 'number')];
const oauthBody = [req('token', 'string'), opt('accessToken', 'string'), opt('referrerHandle', 'string')];
const SESSION_RESULT = ['userId', 'sessionToken', 'refreshToken'];

export const SESSION_RESULT_FIELDS = SESSION_RESULT;

export const INTERFACE_ENDPOINTS: InterfaceEndpoint[] = [
  // Authentication group
  { method: 'post', path: '/v1/user/auth/refresh-session', body: [req('refreshToken', 'string')] },
  { method: 'post', path: '/v1/user/auth/providerA/login', body: [req('credential', 'string'), opt('referrerHandle', 'string')] },
  { method: 'post', path: '/v1/user/auth/providerB/login', body: oauthBody },
  { method: 'post', path: '/v1/user/auth/providerC/login', body: oauthBody },
  { method: 'post', path: '/v1/user/auth/providerA/zklogin', body: oauthBody },
  { method: 'post', path: '/v1/user/auth/providerD/zklogin', body: oauthBody },
  {
    method: 'post',
    path: '/v1/user/auth/siwe/login',
    body: [req('message', 'string'), req('signature', 'string'), opt('referrerHandle', 'string')],
  },
  { method: 'post', path: '/v1/user/register/password', body: [req('username', 'string'), req('password', 'string')] },
  { method: 'post', path: '/v1/user/auth/password/login', body: [req('username', 'string'), req('password', 'string')] },
  // Resources
  { method: 'get', path: '/v1/community/resource-types/{resourceTypeId}' },
  { method: 'get', path: '/v1/community/{communityId}/resource-types', query: paging },
  // Community
  { method: 'get', path: '/v1/community/{communityId}' },
  { method: 'get', path: '/v1/community/{id}/ranking/{slug}' },
  { method: 'get', path: '/v1/community/{id}/leaderboard/{slug}' },
  { method: 'post', path: '/v1/community/{communityId}/join', query: [req('referrerHandle', 'string')] },
  { method: 'get', path: '/v1/community/{communityId}/referrals' },
  {
    method: 'get',
    path: '/v1/community/{communityId}/quests',
    query: [
      req('tags', 'string[]'),
      req('questTypes', 'string[]'),
      req('featured', 'string'),
      req('query', 'string'),
      req('page', 'number'),
      req('limit', 'number'),
    ],
  },
  {
    method: 'get',
    path: '/v1/community/{communityId}/quests/tags',
    query: [
      req('excludeTemplateTags', 'boolean'),
      req('userAvailableQuests', 'boolean'),
      req('includeRewards', 'string'),
      req('userId', 'string'),
    ],
  },
  // Quest events
  { method: 'get', path: '/v1/quest-event/{eventId}' },
  {
    method: 'get',
    path: '/v1/quest-event',
    query: [
      ...paging,
      opt('participating', 'boolean'),
      opt('registrationOpen', 'boolean'),
      opt('filter', 'object'),
      opt('itemId', 'string'),
      opt('resourceId', 'string'),
    ],
  },
  { method: 'get', path: '/v1/quest-event/{id}/leaderboard', query: paging },
  { method: 'get', path: '/v1/quest-event/{id}/quests' },
  { method: 'get', path: '/v1/quest-event/{eventId}/reward/allocations' },
  {
    method: 'post',
    path: '/v1/quest-event/{eventId}/reward/allocations/claim/{rewardAllocationId}',
    body: [opt('email', 'string'), opt('walletAddress', 'string'), opt('address', 'object')],
  },
  // Participation
  { method: 'get', path: '/v1/quest-event/{eventId}/participant' },
  { method: 'get', path: '/v1/quest-event/{eventId}/participant/list' },
  { method: 'get', path: '/v1/quest-event/{eventId}/participant/rank' },
  { method: 'post', path: '/v1/quest-event/{eventId}/participant/register' },
  { method: 'put', path: '/v1/quest-event/{eventId}/participant/unregister' },
  { method: 'put', path: '/v1/quest-event/{eventId}/participant/cancel' },
  { method: 'get', path: '/v1/quest-event/{eventId}/participant/sync' },
  // Inventory
  { method: 'get', path: '/v1/community/{ckey}/inventory' },
  { method: 'get', path: '/v1/community/{ckey}/inventory/slots', query: [req('userId', 'string')] },
  { method: 'get', path: '/v1/community/{ckey}/inventory/slots/{slotId}/items', query: [...paging, req('onlyOwned', 'string')] },
  { method: 'get', path: '/v1/community/{ckey}/inventory/items/{itemId}' },
  {
    method: 'post',
    path: '/v1/community/{ckey}/inventory/slots/allocate',
    body: [req('slots', 'object[]')],
    success: 201,
    noContent: true,
  },
  { method: 'get', path: '/v1/community/{ckey}/inventory/avatar', query: [req('userId', 'string')] },
  { method: 'get', path: '/v1/community/{ckey}/inventory/items', query: [...paging, req('onlyOwned', 'string'), req('userId', 'string')] },
  {
    method: 'post',
    path: '/v1/community/{ckey}/inventory/avatar/mint',
    body: [req('blockchain', 'string')],
    success: 201,
    noContent: true,
  },
  // Prizes
  { method: 'get', path: '/v1/inventory/prizes', query: [req('ownedOnly', 'string'), ...paging], success: 200 },
  { method: 'get', path: '/v1/inventory/prizes/requirements', success: 200 },
  { method: 'get', path: '/v1/inventory/prizes/{prizeId}', success: 200 },
  { method: 'get', path: '/v1/inventory/prizes/{prizeId}/supply', success: 200 },
  // Store
  { method: 'get', path: '/v1/store/balance', query: [req('containerId', 'string')], success: 200 },
  {
    method: 'get',
    path: '/v1/store/listings',
    query: [...paging, req('enrichRequirements', 'boolean'), req('containerId', 'string')],
    success: 200,
  },
  { method: 'get', path: '/v1/store/purchase', query: [...paging, req('containerId', 'string')], success: 200 },
  {
    method: 'post',
    path: '/v1/store/purchase/{listingId}',
    body: [req('nonce', 'string'), opt('requirementData', 'object[]')],
    success: 201,
  },
  // Socials and wallet
  { method: 'get', path: '/v1/user/socials' },
  {
    method: 'post',
    path: '/v1/user/socials',
    body: [
      req('accountType', 'string'),
      req('subjectId', 'string'),
      req('public', 'boolean'),
      opt('handle', 'string'),
      opt('server', 'string'),
      opt('expiryDate', 'string'),
      opt('extraArgs', 'object'),
      opt('createdAt', 'object'),
      opt('userToken', 'string'),
      opt('refreshToken', 'string'),
    ],
  },
  { method: 'get', path: '/v1/user/socials/{type}' },
  {
    method: 'post',
    path: '/v1/user/socials/update',
    body: [
      req('socialId', 'string'),
      opt('handle', 'string'),
      opt('server', 'string'),
      opt('expiryDate', 'string'),
      opt('extraArgs', 'object'),
      opt('createdAt', 'object'),
      opt('userToken', 'string'),
      opt('refreshToken', 'string'),
      opt('public', 'boolean'),
    ],
  },
  { method: 'delete', path: '/v1/user/socials/{id}' },
  { method: 'get', path: '/v1/user/wallet' },
  // Profile, referrals and notifications
  { method: 'get', path: '/v1/user/profile', query: [req('fields', 'string[]')] },
  { method: 'get', path: '/v1/user/by-id/{username}/public', query: [req('containerId', 'string')] },
  {
    method: 'post',
    path: '/v1/user/profile',
    body: [
      opt('displayName', 'string'),
      opt('handle', 'string'),
      opt('biography', 'string'),
      opt('dateOfBirth', 'object'),
      opt('address', 'object'),
    ],
  },
  { method: 'get', path: '/v1/user/referrals' },
  { method: 'get', path: '/v1/user/notifications', query: [...paging, req('containerId', 'string')], success: 200 },
  { method: 'post', path: '/v1/user/notifications/read', success: 201, noContent: true },
];
