import { ACCESS_ENTITIES } from './access/access.module.js';
import { AUDIT_ENTITIES } from './audit/audit.module.js';
import { AUTH_ENTITIES } from './auth/auth.module.js';
import { COMMUNITIES_ENTITIES } from './communities/communities.module.js';
import { CRYPTO_ENTITIES } from './crypto/crypto.module.js';
import { INTEGRATIONS_ENTITIES } from './integrations/integrations.module.js';
import { INVENTORY_ENTITIES } from './inventory/inventory.module.js';
import { NOTIFICATIONS_ENTITIES } from './notifications/notifications.module.js';
import { PARTICIPATION_ENTITIES } from './participation/participation.module.js';
import { PRIZES_ENTITIES } from './prizes/prizes.module.js';
import { PROFILE_ENTITIES } from './profile/profile.module.js';
import { QUEST_EVENTS_ENTITIES } from './quest-events/quest-events.module.js';
import { QUESTS_ENTITIES } from './quests/quests.module.js';
import { RESOURCES_ENTITIES } from './resources/resources.module.js';
import { SEASONS_ENTITIES } from './seasons/seasons.module.js';
import { SOCIALS_ENTITIES } from './socials/socials.module.js';
import { REQUIREMENTS_ENTITIES } from './requirements/requirements.module.js';
import { STORE_ENTITIES } from './store/store.module.js';
import { TENANTS_ENTITIES } from './tenants/tenants.module.js';
import { USERS_ENTITIES } from './users/users.module.js';
import { WALLETS_ENTITIES } from './wallets/wallets.module.js';

/**
 * Every TypeORM entity of the service, from the lists the modules own: the app's data source, the
 * migration commands and the tests use the one schema. A new module's list goes here.
 */
export const appEntities = [
  ...CRYPTO_ENTITIES,
  ...ACCESS_ENTITIES,
  ...AUDIT_ENTITIES,
  ...AUTH_ENTITIES,
  ...COMMUNITIES_ENTITIES,
  ...INTEGRATIONS_ENTITIES,
  ...INVENTORY_ENTITIES,
  ...NOTIFICATIONS_ENTITIES,
  ...PARTICIPATION_ENTITIES,
  ...PRIZES_ENTITIES,
  ...PROFILE_ENTITIES,
  ...QUEST_EVENTS_ENTITIES,
  ...QUESTS_ENTITIES,
  ...RESOURCES_ENTITIES,
  ...SEASONS_ENTITIES,
  ...SOCIALS_ENTITIES,
  ...REQUIREMENTS_ENTITIES,
  ...STORE_ENTITIES,
  ...TENANTS_ENTITIES,
  ...USERS_ENTITIES,
  ...WALLETS_ENTITIES,
];
