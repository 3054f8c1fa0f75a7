import type { MigrationInterface } from 'typeorm';
// Every migration, in order. `npm run migration:generate -- <Name>` adds new ones here.
import { Foundation1795356103208 } from './1795356103208-Foundation.js';
import { Referrals1795356436693 } from './1795356436693-Referrals.js';
import { Communities1795356707160 } from './1795356707160-Communities.js';
import { LoginIdentitiesWallets1795356894998 } from './1795356894998-LoginIdentitiesWallets.js';
import { Resources1795356930798 } from './1795356930798-Resources.js';
import { UserSpace1795357195414 } from './1795357195414-UserSpace.js';
import { Inventory1795357330109 } from './1795357330109-Inventory.js';
import { StorePrizes1795357732969 } from './1795357732969-StorePrizes.js';
import { QuestsEventsParticipation1795357800008 } from './1795357800008-QuestsEventsParticipation.js';
import { PerformanceIndexes1795358000000 } from './1795358000000-PerformanceIndexes.js';
import { QuestSearchIndex1795370000000 } from './1795370000000-QuestSearchIndex.js';
import { TenantDomains1795458981029 } from './1795458981029-TenantDomains.js';
import { SessionRevocations1795460378117 } from './1795460378117-SessionRevocations.js';
import { SupplyShards1795594943964 } from './1795594943964-SupplyShards.js';
import { StorePurchaseFunction1795603758601 } from './1795603758601-StorePurchaseFunction.js';
import { Seasons1795603823150 } from './1795603823150-Seasons.js';
import { NotificationStream1795603748081 } from './1795603748081-NotificationStream.js';
import { Integrations1795604408344 } from './1795604408344-Integrations.js';
import { AdminAuditLog1795610000000 } from './1795610000000-AdminAuditLog.js';
import { OutboxRetention1795638188758 } from './1795638188758-OutboxRetention.js';
import { StorePurchasePriceCheck1795649011420 } from './1795649011420-StorePurchasePriceCheck.js';
import { AdminAuditAborted1795649189400 } from './1795649189400-AdminAuditAborted.js';
import { PausedDeliveries1795649256503 } from './1795649256503-PausedDeliveries.js';
import { AuditRetentionIndex1795654825325 } from './1795654825325-AuditRetentionIndex.js';
import { SupplyTakeFunctions1795717161396 } from './1795717161396-SupplyTakeFunctions.js';
import { NotificationWriteOrder1795740000000 } from './1795740000000-NotificationWriteOrder.js';
import { BalanceAmountsSafe1795760000000 } from './1795760000000-BalanceAmountsSafe.js';
import { EventFinalStandings1795770000000 } from './1795770000000-EventFinalStandings.js';
import { BindScopedScoreTypes1795802725159 } from './1795802725159-BindScopedScoreTypes.js';
import { RewardWalletChain1795816189021 } from './1795816189021-RewardWalletChain.js';
import { EventCompletionInSteps1795830000000 } from './1795830000000-EventCompletionInSteps.js';
import { QuestTasks1796184343319 } from './1796184343319-QuestTasks.js';
import { PurchaseFunctionsByModule1796200000000 } from './1796200000000-PurchaseFunctionsByModule.js';
// <imports above>

export const migrations: (new () => MigrationInterface)[] = [
  Foundation1795356103208,
  Referrals1795356436693,
  Communities1795356707160,
  LoginIdentitiesWallets1795356894998,
  Resources1795356930798,
  UserSpace1795357195414,
  Inventory1795357330109,
  StorePrizes1795357732969,
  QuestsEventsParticipation1795357800008,
  PerformanceIndexes1795358000000,
  QuestSearchIndex1795370000000,
  TenantDomains1795458981029,
  SessionRevocations1795460378117,
  SupplyShards1795594943964,
  StorePurchaseFunction1795603758601,
  Seasons1795603823150,
  NotificationStream1795603748081,
  Integrations1795604408344,
  AdminAuditLog1795610000000,
  OutboxRetention1795638188758,
  StorePurchasePriceCheck1795649011420,
  AdminAuditAborted1795649189400,
  PausedDeliveries1795649256503,
  AuditRetentionIndex1795654825325,
  SupplyTakeFunctions1795717161396,
  NotificationWriteOrder1795740000000,
  BalanceAmountsSafe1795760000000,
  EventFinalStandings1795770000000,
  BindScopedScoreTypes1795802725159,
  RewardWalletChain1795816189021,
  EventCompletionInSteps1795830000000,
  QuestTasks1796184343319,
  PurchaseFunctionsByModule1796200000000,
  // <classes above>
];
