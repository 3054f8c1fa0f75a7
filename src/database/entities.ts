import { AppSecret } from './app-secret.entity.js';
import { Tenant } from '../tenants/entities/tenant.entity.js';
import { User } from '../users/entities/user.entity.js';
import { Referral } from '../users/entities/referral.entity.js';
import { RefreshToken } from '../auth/entities/refresh-token.entity.js';
import { Community } from '../communities/entities/community.entity.js';
import { CommunityMember } from '../communities/entities/community-member.entity.js';

/** Every TypeORM entity of the service. Add new entities here (and generate a migration). */
export const entities = [
  AppSecret,
  Tenant,
  User,
  Referral,
  RefreshToken,
  Community,
  CommunityMember,
  // <entities above>
];
