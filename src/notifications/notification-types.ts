/**
 * What a notification reports. Stored as text, so adding a type needs no migration; the list is
 * the contract clients switch on (documented in Swagger as the `type` enum). Suggested `data`:
 *
 * - `event_registered` / `event_completed` / `event_cancelled`: `{eventId, eventName}`
 * - `event_dropped`: `{eventId, eventName, reason}` (the operator removed the player; `reason` may be null)
 * - `tickets_allocated`: `{eventId, tickets}`
 * - `claim_processed`: `{eventId, rewardId, status}`
 * - `purchase_completed`: `{purchaseId, listingId}`
 * - `item_granted`: `{itemId, slotId?}`
 * - `mint_finished`: `{mintId, status, txDigest?}`
 * - `referral_joined`: `{referredUserId, referredHandle, communityId}`
 * - `prize_awarded`: `{prizeId}`
 * - `season_reward`: `{seasonId, seasonName, rank, score, rewards: [{type, refId, amount, status}]}`
 * - `quest_completed`: `{questId, questName, periodKey, streak}` (`streak`: the current run of a recurring quest, or null)
 * - `submission_reviewed`: `{questId, questName, taskId, approved, reason}`
 * - `system`: free-form, `{}` allowed
 */
export const NotificationType = {
  EventRegistered: 'event_registered',
  EventCompleted: 'event_completed',
  EventCancelled: 'event_cancelled',
  EventDropped: 'event_dropped',
  TicketsAllocated: 'tickets_allocated',
  ClaimProcessed: 'claim_processed',
  PurchaseCompleted: 'purchase_completed',
  ItemGranted: 'item_granted',
  MintFinished: 'mint_finished',
  ReferralJoined: 'referral_joined',
  PrizeAwarded: 'prize_awarded',
  SeasonReward: 'season_reward',
  QuestCompleted: 'quest_completed',
  SubmissionReviewed: 'submission_reviewed',
  System: 'system',
} as const;

export type NotificationType = (typeof NotificationType)[keyof typeof NotificationType];

export const NOTIFICATION_TYPES: readonly NotificationType[] = Object.values(NotificationType);

/** Longest title kept (longer ones are cut with an ellipsis). */
export const NOTIFICATION_TITLE_MAX = 200;
/** Largest `data` object, as JSON. */
export const NOTIFICATION_DATA_MAX_BYTES = 4096;
