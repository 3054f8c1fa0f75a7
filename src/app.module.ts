import { AuditModule } from './audit/audit.module.js';
import { Module } from '@nestjs/common';
import { AccessModule } from './access/access.module.js';
import { appEntities } from './app.entities.js';
import { AuthModule } from './auth/auth.module.js';
import { CommunitiesModule } from './communities/communities.module.js';
import { CommonModule } from './common/common.module.js';
import { LoggingModule } from './common/logging/logging.module.js';
import { ConfigModule } from './config/config.module.js';
import { CryptoModule } from './crypto/crypto.module.js';
import { DatabaseModule } from './database/database.module.js';
import { IntegrationsModule } from './integrations/integrations.module.js';
import { InventoryModule } from './inventory/inventory.module.js';
import { HealthModule } from './health/health.module.js';
import { NotificationsModule } from './notifications/notifications.module.js';
import { ObservabilityModule } from './observability/observability.module.js';
import { PrizesModule } from './prizes/prizes.module.js';
import { ParticipationModule } from './participation/participation.module.js';
import { QuestEventsModule } from './quest-events/quest-events.module.js';
import { QuestsModule } from './quests/quests.module.js';
import { ProfileModule } from './profile/profile.module.js';
import { SocialsModule } from './socials/socials.module.js';
import { StoreModule } from './store/store.module.js';
import { ResourcesModule } from './resources/resources.module.js';
import { OverviewModule } from './overview/overview.module.js';
import { SeasonsModule } from './seasons/seasons.module.js';
import { TenantsModule } from './tenants/tenants.module.js';
import { UsersModule } from './users/users.module.js';

@Module({
  imports: [
    ConfigModule,
    LoggingModule,
    DatabaseModule.forRoot(appEntities),
    CommonModule,
    ObservabilityModule,
    CryptoModule,
    IntegrationsModule,
    TenantsModule,
    AccessModule,
    AuditModule,
    UsersModule,
    HealthModule,
    AuthModule,
    CommunitiesModule,
    ResourcesModule,
    NotificationsModule,
    SocialsModule,
    ProfileModule,
    InventoryModule,
    PrizesModule,
    StoreModule,
    QuestEventsModule,
    ParticipationModule,
    QuestsModule,
    SeasonsModule,
    OverviewModule,
  ],
})
export class AppModule {}
