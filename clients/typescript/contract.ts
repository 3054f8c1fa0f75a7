// Generated from openapi.json by `npm run openapi`. Do not edit.

/** The contract this client was generated from: the API version (`/v1`) and the SHA-256 of openapi.json. */
export const CONTRACT = { apiVersion: "1", sha256: "d9c7e61b5946f1c2edb5136b4209165c1d3f865d4c7aeba0262450ce82b1f6bf" } as const;

/** Every error the service answers: `message` is the interface identifier, `error` the precise case. */
export const ERRORS = [
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "amount_too_large"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "avatar_empty"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "claim_requirements"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "duplicate_slot"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "event_already_ended"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "event_already_started"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "event_full"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "generic_client_error"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "handle_reserved"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "invalid_community_slug"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "invalid_date_of_birth"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "invalid_domain"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "invalid_game_events"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "invalid_json"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "invalid_listing"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "invalid_prize"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "invalid_quest"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "invalid_quest_event"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "invalid_requirement"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "invalid_resource_type"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "invalid_reward"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "invalid_season"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "invalid_slot_key"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "invalid_task"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "invalid_tenant_settings"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "item_not_owned"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "item_slot_mismatch"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "last_event_id_invalid"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "no_suitable_wallet"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "not_enough_tickets"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "participant_transition"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "quest_event_state"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "quest_not_completable"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "registration_closed"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "requirement_data_invalid"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "reward_sold_out"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "scoped_event_reward"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "scoped_reward_outside_event"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "self_referral"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "siwe_message_malformed"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "start_already_passed"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "submission_invalid"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "supply_below_granted"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "tenant_required"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "ticket_cost_above_tickets"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "unknown_blockchain"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "unknown_event_type"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "unknown_referrer"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "unknown_tenant"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "unsafe_input"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "unsupported_account_type"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "validation_failed"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "visit_link_invalid"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "webhook_url_refused"
  },
  {
    "status": 400,
    "code": 10002,
    "message": "generic_client_error",
    "error": "wrong_answer"
  },
  {
    "status": 401,
    "code": 10401,
    "message": "GENERIC_UNAUTHORIZED",
    "error": "GENERIC_UNAUTHORIZED"
  },
  {
    "status": 401,
    "code": 10402,
    "message": "SESSION_TOKEN_EXPIRED",
    "error": "SESSION_TOKEN_EXPIRED"
  },
  {
    "status": 401,
    "code": 10403,
    "message": "REFRESH_TOKEN_EXPIRED",
    "error": "REFRESH_TOKEN_EXPIRED"
  },
  {
    "status": 401,
    "code": 10411,
    "message": "GENERIC_UNAUTHORIZED",
    "error": "session_token_missing"
  },
  {
    "status": 401,
    "code": 10412,
    "message": "GENERIC_UNAUTHORIZED",
    "error": "session_token_invalid"
  },
  {
    "status": 401,
    "code": 10413,
    "message": "GENERIC_UNAUTHORIZED",
    "error": "api_key_missing"
  },
  {
    "status": 401,
    "code": 10414,
    "message": "GENERIC_UNAUTHORIZED",
    "error": "api_key_invalid"
  },
  {
    "status": 401,
    "code": 10415,
    "message": "GENERIC_UNAUTHORIZED",
    "error": "tenant_mismatch"
  },
  {
    "status": 401,
    "code": 10416,
    "message": "GENERIC_UNAUTHORIZED",
    "error": "session_ended"
  },
  {
    "status": 401,
    "code": 12001,
    "message": "GENERIC_UNAUTHORIZED",
    "error": "login_token_invalid"
  },
  {
    "status": 401,
    "code": 12002,
    "message": "GENERIC_UNAUTHORIZED",
    "error": "login_token_algorithm"
  },
  {
    "status": 401,
    "code": 12003,
    "message": "GENERIC_UNAUTHORIZED",
    "error": "login_token_expired"
  },
  {
    "status": 401,
    "code": 12004,
    "message": "GENERIC_UNAUTHORIZED",
    "error": "login_token_not_yet_valid"
  },
  {
    "status": 401,
    "code": 12005,
    "message": "GENERIC_UNAUTHORIZED",
    "error": "login_token_claims"
  },
  {
    "status": 401,
    "code": 12006,
    "message": "GENERIC_UNAUTHORIZED",
    "error": "login_token_replayed"
  },
  {
    "status": 401,
    "code": 12007,
    "message": "GENERIC_UNAUTHORIZED",
    "error": "tenant_secret_unusable"
  },
  {
    "status": 401,
    "code": 12008,
    "message": "GENERIC_UNAUTHORIZED",
    "error": "login_token_provider"
  },
  {
    "status": 401,
    "code": 12010,
    "message": "GENERIC_UNAUTHORIZED",
    "error": "credential_invalid"
  },
  {
    "status": 401,
    "code": 12011,
    "message": "GENERIC_UNAUTHORIZED",
    "error": "credential_expired"
  },
  {
    "status": 401,
    "code": 12020,
    "message": "GENERIC_UNAUTHORIZED",
    "error": "id_token_invalid"
  },
  {
    "status": 401,
    "code": 12031,
    "message": "GENERIC_UNAUTHORIZED",
    "error": "siwe_domain_not_allowed"
  },
  {
    "status": 401,
    "code": 12032,
    "message": "GENERIC_UNAUTHORIZED",
    "error": "siwe_chain_not_allowed"
  },
  {
    "status": 401,
    "code": 12033,
    "message": "GENERIC_UNAUTHORIZED",
    "error": "siwe_message_expired"
  },
  {
    "status": 401,
    "code": 12034,
    "message": "GENERIC_UNAUTHORIZED",
    "error": "siwe_message_not_yet_valid"
  },
  {
    "status": 401,
    "code": 12035,
    "message": "GENERIC_UNAUTHORIZED",
    "error": "siwe_nonce_replayed"
  },
  {
    "status": 401,
    "code": 12036,
    "message": "GENERIC_UNAUTHORIZED",
    "error": "siwe_signature_invalid"
  },
  {
    "status": 401,
    "code": 12050,
    "message": "GENERIC_UNAUTHORIZED",
    "error": "invalid_credentials"
  },
  {
    "status": 401,
    "code": 12051,
    "message": "GENERIC_UNAUTHORIZED",
    "error": "refresh_token_invalid"
  },
  {
    "status": 401,
    "code": 71001,
    "message": "GENERIC_UNAUTHORIZED",
    "error": "stream_ticket_invalid"
  },
  {
    "status": 403,
    "code": 10003,
    "message": "forbidden",
    "error": "forbidden"
  },
  {
    "status": 403,
    "code": 12021,
    "message": "primary_account_required",
    "error": "primary_account_required"
  },
  {
    "status": 403,
    "code": 20003,
    "message": "not_a_member",
    "error": "not_a_member"
  },
  {
    "status": 403,
    "code": 40006,
    "message": "requirement_not_met",
    "error": "requirement_not_met"
  },
  {
    "status": 404,
    "code": 10004,
    "message": "not_found",
    "error": "not_found"
  },
  {
    "status": 404,
    "code": 11004,
    "message": "user_not_found",
    "error": "user_not_found"
  },
  {
    "status": 404,
    "code": 12040,
    "message": "wallet_not_found",
    "error": "wallet_not_found"
  },
  {
    "status": 404,
    "code": 20001,
    "message": "community_not_found",
    "error": "community_not_found"
  },
  {
    "status": 404,
    "code": 20101,
    "message": "resource_type_not_found",
    "error": "resource_type_not_found"
  },
  {
    "status": 404,
    "code": 20105,
    "message": "season_not_found",
    "error": "season_not_found"
  },
  {
    "status": 404,
    "code": 20202,
    "message": "season_schedule_not_found",
    "error": "season_schedule_not_found"
  },
  {
    "status": 404,
    "code": 30001,
    "message": "quest_not_found",
    "error": "quest_not_found"
  },
  {
    "status": 404,
    "code": 30002,
    "message": "task_not_found",
    "error": "task_not_found"
  },
  {
    "status": 404,
    "code": 30005,
    "message": "submission_not_found",
    "error": "submission_not_found"
  },
  {
    "status": 404,
    "code": 30006,
    "message": "platform_not_configured",
    "error": "platform_not_configured"
  },
  {
    "status": 404,
    "code": 30501,
    "message": "quest_event_not_found",
    "error": "quest_event_not_found"
  },
  {
    "status": 404,
    "code": 30503,
    "message": "reward_not_found",
    "error": "reward_not_found"
  },
  {
    "status": 404,
    "code": 30504,
    "message": "allocation_not_found",
    "error": "allocation_not_found"
  },
  {
    "status": 404,
    "code": 30601,
    "message": "participant_not_found",
    "error": "participant_not_found"
  },
  {
    "status": 404,
    "code": 40001,
    "message": "listing_not_found",
    "error": "listing_not_found"
  },
  {
    "status": 404,
    "code": 40007,
    "message": "requirement_not_found",
    "error": "requirement_not_found"
  },
  {
    "status": 404,
    "code": 40101,
    "message": "prize_not_found",
    "error": "prize_not_found"
  },
  {
    "status": 404,
    "code": 50001,
    "message": "slot_not_found",
    "error": "slot_not_found"
  },
  {
    "status": 404,
    "code": 50002,
    "message": "item_not_found",
    "error": "item_not_found"
  },
  {
    "status": 404,
    "code": 50006,
    "message": "mint_not_found",
    "error": "mint_not_found"
  },
  {
    "status": 404,
    "code": 60001,
    "message": "social_not_found",
    "error": "social_not_found"
  },
  {
    "status": 404,
    "code": 60101,
    "message": "profile_user_not_found",
    "error": "profile_user_not_found"
  },
  {
    "status": 404,
    "code": 70001,
    "message": "subscription_not_found",
    "error": "subscription_not_found"
  },
  {
    "status": 404,
    "code": 70002,
    "message": "delivery_not_found",
    "error": "delivery_not_found"
  },
  {
    "status": 408,
    "code": 10008,
    "message": "request_timeout",
    "error": "request_timeout"
  },
  {
    "status": 409,
    "code": 10009,
    "message": "conflict",
    "error": "conflict"
  },
  {
    "status": 409,
    "code": 10010,
    "message": "write_conflict",
    "error": "write_conflict"
  },
  {
    "status": 409,
    "code": 11001,
    "message": "username_taken",
    "error": "username_taken"
  },
  {
    "status": 409,
    "code": 11002,
    "message": "handle_taken",
    "error": "handle_taken"
  },
  {
    "status": 409,
    "code": 13001,
    "message": "domain_taken",
    "error": "domain_taken"
  },
  {
    "status": 409,
    "code": 20002,
    "message": "community_slug_taken",
    "error": "community_slug_taken"
  },
  {
    "status": 409,
    "code": 20102,
    "message": "resource_type_slug_taken",
    "error": "resource_type_slug_taken"
  },
  {
    "status": 409,
    "code": 20103,
    "message": "insufficient_balance",
    "error": "insufficient_balance"
  },
  {
    "status": 409,
    "code": 20104,
    "message": "idempotency_key_reused",
    "error": "idempotency_key_reused"
  },
  {
    "status": 409,
    "code": 30003,
    "message": "quest_not_claimable",
    "error": "quest_not_claimable"
  },
  {
    "status": 409,
    "code": 30004,
    "message": "task_not_open",
    "error": "task_not_open"
  },
  {
    "status": 409,
    "code": 30502,
    "message": "quest_event_slug_taken",
    "error": "quest_event_slug_taken"
  },
  {
    "status": 409,
    "code": 40002,
    "message": "listing_sold_out",
    "error": "listing_sold_out"
  },
  {
    "status": 409,
    "code": 40003,
    "message": "purchase_limit_reached",
    "error": "purchase_limit_reached"
  },
  {
    "status": 409,
    "code": 40004,
    "message": "listing_not_available",
    "error": "listing_not_available"
  },
  {
    "status": 409,
    "code": 40005,
    "message": "nonce_reused",
    "error": "nonce_reused"
  },
  {
    "status": 409,
    "code": 40008,
    "message": "requirement_key_taken",
    "error": "requirement_key_taken"
  },
  {
    "status": 409,
    "code": 40009,
    "message": "price_changed",
    "error": "price_changed"
  },
  {
    "status": 409,
    "code": 40102,
    "message": "prize_supply_exhausted",
    "error": "prize_supply_exhausted"
  },
  {
    "status": 409,
    "code": 40103,
    "message": "prize_award_key_reused",
    "error": "prize_award_key_reused"
  },
  {
    "status": 409,
    "code": 40104,
    "message": "prize_supply_below_awarded",
    "error": "prize_supply_below_awarded"
  },
  {
    "status": 409,
    "code": 50003,
    "message": "supply_exhausted",
    "error": "supply_exhausted"
  },
  {
    "status": 409,
    "code": 50004,
    "message": "slot_key_taken",
    "error": "slot_key_taken"
  },
  {
    "status": 409,
    "code": 50005,
    "message": "avatar_already_minted",
    "error": "avatar_already_minted"
  },
  {
    "status": 409,
    "code": 50007,
    "message": "grant_idempotency_key_reused",
    "error": "grant_idempotency_key_reused"
  },
  {
    "status": 409,
    "code": 60002,
    "message": "social_account_taken",
    "error": "social_account_taken"
  },
  {
    "status": 409,
    "code": 70003,
    "message": "too_many_subscriptions",
    "error": "too_many_subscriptions"
  },
  {
    "status": 409,
    "code": 70004,
    "message": "secret_rotated_concurrently",
    "error": "secret_rotated_concurrently"
  },
  {
    "status": 413,
    "code": 10013,
    "message": "payload_too_large",
    "error": "payload_too_large"
  },
  {
    "status": 415,
    "code": 10015,
    "message": "unsupported_media_type",
    "error": "unsupported_media_type"
  },
  {
    "status": 429,
    "code": 10029,
    "message": "too_many_requests",
    "error": "too_many_requests"
  },
  {
    "status": 429,
    "code": 30007,
    "message": "claims_limited",
    "error": "claims_limited"
  },
  {
    "status": 429,
    "code": 71002,
    "message": "stream_limit_reached",
    "error": "stream_limit_reached"
  },
  {
    "status": 431,
    "code": 10031,
    "message": "headers_too_large",
    "error": "headers_too_large"
  },
  {
    "status": 500,
    "code": 10001,
    "message": "internal_error",
    "error": "internal_error"
  },
  {
    "status": 503,
    "code": 10503,
    "message": "service_unavailable",
    "error": "service_unavailable"
  },
  {
    "status": 503,
    "code": 10504,
    "message": "database_timeout",
    "error": "database_timeout"
  },
  {
    "status": 503,
    "code": 12012,
    "message": "provider_not_configured",
    "error": "provider_not_configured"
  },
  {
    "status": 503,
    "code": 12013,
    "message": "jwks_unavailable",
    "error": "jwks_unavailable"
  },
  {
    "status": 503,
    "code": 71003,
    "message": "stream_capacity_reached",
    "error": "stream_capacity_reached"
  }
] as const;

/** The interface identifiers of the error body (`message`). */
export type CgsErrorIdentifier = (typeof ERRORS)[number]['message'];
/** The precise cases of the error body (`error`). */
export type CgsErrorCode = (typeof ERRORS)[number]['error'];
