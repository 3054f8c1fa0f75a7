// Generated from openapi.json by `npm run openapi` (openapi-typescript). Do not edit.

export interface paths {
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness: the process is up */
        get: operations["live"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness: the database answers and the process is not poisoned */
        get: operations["ready"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/audit-log": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The audit log of management writes (extension)
         * @description Every POST, PUT, PATCH and DELETE under `/v1/admin` that passed the API key check, successful or not, newest first: the caller, the route template and its parameters, the body with secrets redacted, the status code and the id of the resource the response named. Entries are written just after the response, so one may take a moment to appear. Paginated.
         */
        get: operations["listAdminAuditLog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/communities": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the communities of the tenant
         * @description Oldest first. Paginated.
         */
        get: operations["listAdminCommunities"];
        put?: never;
        /**
         * Create a community
         * @description In the API key's tenant.
         */
        post: operations["createCommunity"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/communities/{communityId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A community of the tenant
         * @description By id or slug.
         */
        get: operations["getAdminCommunity"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update a community
         * @description Any of slug, name, description, images and links.
         */
        patch: operations["updateCommunity"];
        trace?: never;
    };
    "/v1/admin/communities/{communityId}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The members of a community
         * @description Newest first; `query` keeps those whose handle or display name contains it (any case). Paginated.
         */
        get: operations["listCommunityMembers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/inventory/grants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Grant an item to a user
         * @description Adds `quantity` (default 1) units to the user's inventory, within the item supply (409 `supply_exhausted` otherwise), and notifies the user. Idempotent by `idempotencyKey`.
         */
        post: operations["grantInventoryItem"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/inventory/items": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A community's inventory items (extension)
         * @description The items of the community (`communityId`: id or slug), optionally of one slot (`slotId`: id or key), with their supply and units granted, by slot and name. Paginated.
         */
        get: operations["listAdminInventoryItems"];
        put?: never;
        /**
         * Create an inventory item
         * @description An item fitting one slot (`slotId`: id or key) of the community, with an optional supply (units that can ever be granted).
         */
        post: operations["createInventoryItem"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/inventory/items/{itemId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update an inventory item
         * @description Everything but the community and slot. `supply` cannot go below the units granted; null makes it unlimited.
         */
        patch: operations["updateInventoryItem"];
        trace?: never;
    };
    "/v1/admin/inventory/slots": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A community's inventory slots (extension)
         * @description Every slot of the community (`communityId`: id or slug), by position and key. A community has a few.
         */
        get: operations["listAdminInventorySlots"];
        put?: never;
        /**
         * Create an inventory slot
         * @description In a community of the API key's tenant (`communityId`: id or slug). The key is fixed once created.
         */
        post: operations["createInventorySlot"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/inventory/slots/{slotId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update an inventory slot
         * @description Name, description and position.
         */
        patch: operations["updateInventorySlot"];
        trace?: never;
    };
    "/v1/admin/prizes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the prizes of the tenant
         * @description Oldest first. Paginated.
         */
        get: operations["listAdminPrizes"];
        put?: never;
        /**
         * Create a prize
         * @description Tenant-wide or in one community; `totalSupply` absent for unlimited.
         */
        post: operations["createPrize"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/prizes/{prizeId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A prize of the tenant */
        get: operations["getAdminPrize"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update a prize
         * @description Name, description, image, requirements and total supply (never below the units awarded).
         */
        patch: operations["updatePrize"];
        trace?: never;
    };
    "/v1/admin/prizes/{prizeId}/awards": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Award a prize to a user
         * @description Never beyond the supply (409 `prize_supply_exhausted`). Idempotent by `idempotencyKey` (unique per tenant): a retry awards nothing and returns the first award with `replayed: true`. The user is notified (`prize_awarded`).
         */
        post: operations["awardPrize"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/prizes/{prizeId}/owners": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Owners of a prize
         * @description Users with their units, earliest first. Paginated.
         */
        get: operations["listPrizeOwners"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/quest-events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the quest events of the tenant
         * @description Drafts included, latest start first; optionally of one community and in one status. Paginated.
         */
        get: operations["listAdminQuestEvents"];
        put?: never;
        /**
         * Create a quest event
         * @description Published unless `publish: false` (a draft, invisible to users). Times must be ordered: registration start < registration end <= end, registration start <= start < end.
         */
        post: operations["createQuestEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/quest-events/{eventId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A quest event (drafts included) */
        get: operations["getAdminQuestEvent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update a quest event
         * @description While it is a draft or published and not ended. `publish: true` publishes a draft.
         */
        patch: operations["updateQuestEvent"];
        trace?: never;
    };
    "/v1/admin/quest-events/{eventId}/allocations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The reward allocations of a quest event
         * @description Every participant's tickets, made when the event completed; best rank first. Paginated.
         */
        get: operations["listQuestEventAllocations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/quest-events/{eventId}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a quest event
         * @description Any event not completed; nothing is allocated.
         */
        post: operations["cancelQuestEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/quest-events/{eventId}/close": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Complete a quest event now
         * @description Allowed once the event has started (early close) or ended. Allocates tickets to eligible REGISTERED participants exactly once: a repeated or concurrent call answers `completedNow: false` and changes nothing.
         */
        post: operations["closeQuestEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/quest-events/{eventId}/participants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The participants of a quest event
         * @description In every ParticipantStatus (or the one `status` names), first registered first. Paginated.
         */
        get: operations["listAdminParticipants"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/quest-events/{eventId}/participants/drop": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Drop a participant
         * @description REGISTERED → DROPPED (disqualification, unmet entry requirement), until the event is completed. Final; the score is revoked and leaves the leaderboard. Any other status is 400 `participant_transition`.
         */
        post: operations["dropParticipant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/quest-events/{eventId}/rewards": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The rewards of a quest event */
        get: operations["listQuestEventRewards"];
        put?: never;
        /**
         * Add a reward to a quest event
         * @description Before the event is completed or cancelled.
         */
        post: operations["createQuestEventReward"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/quests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * All quests of a community
         * @description Every status, oldest first. Paginated.
         */
        get: operations["listAdminQuests"];
        put?: never;
        /**
         * Create a quest
         * @description In a community, optionally in one of its quest events. Rewards must name resource types or items of the community.
         */
        post: operations["createQuest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/quests/{questId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A quest */
        get: operations["getAdminQuest"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update a quest
         * @description Community and event are fixed.
         */
        patch: operations["updateQuest"];
        trace?: never;
    };
    "/v1/admin/quests/{questId}/completions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Record that a user completed a quest
         * @description Credits the rewards exactly once per user (`created: false` and nothing credited on a repeat). Event quests need the event active and the user REGISTERED; they update the score.
         */
        post: operations["completeQuest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/resources/balances": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Balances of a user
         * @description Every resource the user holds, with spendable `balance` and `earned` total.
         */
        get: operations["listUserBalances"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/resources/deductions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deduct a resource from a user
         * @description Lowers the spendable balance, never below zero (409 `insufficient_balance`). With `lowerEarned: true` it lowers the earned total (rank) too. Idempotent like grants.
         */
        post: operations["deductResource"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/resources/earned-per-day": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A community's earnings of a resource per day (extension)
         * @description For each UTC day of the last `days` (today included, the oldest first): what players earned of the resource (the positive changes of their earned totals, from every reason) and how many earned some.
         */
        get: operations["getEarnedPerDay"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/resources/grants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Grant a resource to a user
         * @description Credits the spendable balance and the earned total (rank). Idempotent by `idempotencyKey` (unique per tenant): a retry changes nothing and returns the original entry with `replayed: true`.
         */
        post: operations["grantResource"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/resources/leaderboard": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The leaderboard of a resource of a community
         * @description The same ranking as the public leaderboard (`/v1/community/{id}/leaderboard/{slug}`), with `season` too (a closed season: its final standings). Paginated.
         */
        get: operations["getAdminLeaderboard"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/resources/ledger": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Ledger entries of a user
         * @description Newest first, optionally for one resource type.
         */
        get: operations["listLedgerEntries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/resources/ranking": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A user's ranking for a resource of a community
         * @description Rank, earned amount, balance and neighbours, as the user sees them (`/v1/community/{id}/ranking/{slug}`).
         */
        get: operations["getAdminRanking"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/resources/types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The resource types of a community
         * @description Community by id or slug. Oldest first. Paginated.
         */
        get: operations["listAdminResourceTypes"];
        put?: never;
        /**
         * Create a resource type
         * @description In a community of the API key's tenant (id or slug). Slug, kind and community are fixed once created.
         */
        post: operations["createResourceType"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/resources/types/{resourceTypeId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update a resource type
         * @description Name, description and image.
         */
        patch: operations["updateResourceType"];
        trace?: never;
    };
    "/v1/admin/season-schedules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A community's season schedules (extension) */
        get: operations["listSchedules"];
        put?: never;
        /**
         * Define recurring seasons (extension)
         * @description Each occurrence of `cron` in `timeZone` ends a season and opens the next (at most hourly). The first season opens now and ends at the next occurrence; the season worker opens each next one before it starts.
         */
        post: operations["createSchedule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/season-schedules/{scheduleId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change or stop a season schedule (extension)
         * @description Name, rewards (of the seasons it opens from now on), or `active: false` to open no further season.
         */
        patch: operations["updateSchedule"];
        trace?: never;
    };
    "/v1/admin/seasons": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A community's seasons (extension)
         * @description As the public list.
         */
        get: operations["adminListSeasons"];
        put?: never;
        /**
         * Define a season (extension)
         * @description A time-boxed leaderboard of a resource type: what players earn in [startsAt, endsAt) (optionally only from some ledger reasons or quests) is ranked on its own board. `startsAt` may not be in the past (earnings count as they are written, there is no backfill). When it ends, its final standings are frozen (ties go to who reached the score first) and its rank rewards paid once each, with a `season_reward` notification.
         */
        post: operations["createSeason"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/seasons/{seasonId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A season and how far its closing went (extension)
         * @description Frozen at, paid through (the last final place paid), rewards paid and refused.
         */
        get: operations["adminGetSeason"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/seasons/{seasonId}/payouts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A season's payouts (extension)
         * @description The rank rewards paid (or refused) when it closed, in final-place order: one line per player and reward. Its final standings are `GET /v1/admin/resources/leaderboard?season=<id>`.
         */
        get: operations["listSeasonPayouts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/store/listings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the listings of the tenant
         * @description Every listing (inactive and ended ones included), oldest first, optionally of one community. Paginated.
         */
        get: operations["listAdminStoreListings"];
        put?: never;
        /**
         * Create a listing
         * @description What it grants (an item or resource type of the community, or a prize), the price, supply, per-user limit, window and requirements.
         */
        post: operations["createStoreListing"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/store/listings/{listingId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A listing of the tenant */
        get: operations["getAdminStoreListing"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update a listing
         * @description Everything but the community and what it grants. The supply cannot go below the number sold.
         */
        patch: operations["updateStoreListing"];
        trace?: never;
    };
    "/v1/admin/store/purchases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Purchases
         * @description Of the tenant, optionally of one listing and/or user, newest first, with the requirement data the buyers gave (decrypted) for fulfilment. Paginated.
         */
        get: operations["listAdminStorePurchases"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/store/requirements": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the requirements of the tenant
         * @description Oldest first. Paginated.
         */
        get: operations["listStoreRequirements"];
        put?: never;
        /**
         * Create a requirement
         * @description `data` (a JSON schema the buyer's data must match), `owns_item` or `min_resource`. Used by listings and prizes.
         */
        post: operations["createStoreRequirement"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/store/requirements/{requirementId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A requirement of the tenant */
        get: operations["getStoreRequirement"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/tenant": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The tenant of the API key
         * @description Its id, slug, name and domains.
         */
        get: operations["getAdminTenant"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/tenant/domains": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Replace the tenant's domains
         * @description A request without a session token or `X-Tenant-Id` whose host name is one of these runs in this tenant, so a client pointed at the tenant's own domain needs no tenant header. A domain belongs to one tenant at most. Other instances of the service see the change within 5 seconds.
         */
        put: operations["setTenantDomains"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/users/{user}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A user of the tenant
         * @description By id or handle (any case): who it is, for support.
         */
        get: operations["getAdminUser"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/users/{userId}/inventory": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A player's inventory (extension)
         * @description What the player holds in every community of the tenant (quantity above 0), by community, slot and item name: whether each item is on the avatar and the avatar mint status. Paginated.
         */
        get: operations["listAdminUserInventory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/users/{userId}/notifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A player's notifications (extension)
         * @description Every notification of the player, of every community and account-wide, newest first, read or not (reading them here marks nothing read). `unreadCount` counts the unread ones. Paginated.
         */
        get: operations["listAdminUserNotifications"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/users/{userId}/participations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A player's event participations (extension)
         * @description Every quest event of the tenant the player registered for, in any ParticipantStatus, with the event and its lifecycle status now; latest registration first. Paginated.
         */
        get: operations["listAdminUserParticipations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/users/{userId}/socials": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A player's linked social accounts (extension)
         * @description Oldest link first: the provider, the account at the provider and when it was linked, for support. No token, nor whether one is stored, nor the provider data given at linking.
         */
        get: operations["listAdminUserSocials"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/users/{userId}/wallets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A player's wallets (extension)
         * @description Oldest first: one per login and chain (zkLogin on `sui`, SIWE on `evm:<chainId>`). An empty list when the player has none.
         */
        get: operations["listAdminUserWallets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/webhooks/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook deliveries (extension)
         * @description Newest first, each with its attempts (time, HTTP status, duration, error). Delivery is at least once: POST of the event envelope as JSON with `X-CGS-Event-Id` (the idempotency key: dedupe by it), `X-CGS-Timestamp` and `X-CGS-Signature` (HMAC-SHA256 of `<timestamp>.<body>`; docs/integrations.md), a 5 s timeout, retries with exponential backoff and jitter for 24 hours, then dead-lettered. Order is not promised, not even per subscription: order by `occurredAt` when it matters.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/webhooks/deliveries/{deliveryId}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Redeliver one delivery (extension)
         * @description Queues it again now (delivered or not), with a new retry schedule; its earlier attempts stay listed.
         */
        post: operations["redeliverWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/webhooks/event-types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the event types (extension)
         * @description Every event type with its payload version, description and JSON Schema (also `WebhookEvent_<type>` in components).
         */
        get: operations["listWebhookEventTypes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/webhooks/subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the tenant's webhook subscriptions (extension)
         * @description Oldest first; secrets are never listed.
         */
        get: operations["listWebhookSubscriptions"];
        put?: never;
        /**
         * Create a webhook subscription (extension)
         * @description The answer carries the signing `secret`, shown only once. Delivery is at least once: POST of the event envelope as JSON with `X-CGS-Event-Id` (the idempotency key: dedupe by it), `X-CGS-Timestamp` and `X-CGS-Signature` (HMAC-SHA256 of `<timestamp>.<body>`; docs/integrations.md), a 5 s timeout, retries with exponential backoff and jitter for 24 hours, then dead-lettered. Order is not promised, not even per subscription: order by `occurredAt` when it matters.
         */
        post: operations["createWebhookSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/webhooks/subscriptions/{subscriptionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a webhook subscription (extension) */
        get: operations["getWebhookSubscription"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook subscription (extension)
         * @description With its deliveries and their attempts.
         */
        delete: operations["deleteWebhookSubscription"];
        options?: never;
        head?: never;
        /**
         * Update a webhook subscription (extension)
         * @description URL, event types, active, description. Events already queued keep going to the subscription as it is when they are sent. While inactive it gets no deliveries of new events; those already queued wait and are sent once it is active again.
         */
        patch: operations["updateWebhookSubscription"];
        trace?: never;
    };
    "/v1/admin/webhooks/subscriptions/{subscriptionId}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Redeliver the failed deliveries of a window (extension)
         * @description Every delivery of the subscription created in [`from`, `to`) that is dead or waiting for a retry after a failure is queued again now, with a new retry schedule.
         */
        post: operations["redeliverFailedWebhooks"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/webhooks/subscriptions/{subscriptionId}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate a webhook subscription's signing secret (extension)
         * @description A new secret, shown only in this answer. For `overlapSeconds` (default one day) deliveries carry two signatures, one per secret, so the receiver can switch when it likes. Of two rotations at the same time one is applied and the other answered 409 `secret_rotated_concurrently`, so a secret answered here is the one in effect.
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/community/{ckey}/inventory": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The inventory of a community
         * @description Its slots (in order), how many items it defines, and the current user's summary (items owned, units, allocated slots, avatar version).
         */
        get: operations["getInventory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/community/{ckey}/inventory/avatar": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Avatar of a user
         * @description Every slot with its item, the avatar version, and the mint status (`mint`: the latest mint; `mints`: the latest 20). Public.
         */
        get: operations["getUserAvatar"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/community/{ckey}/inventory/avatar/mint": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mint the avatar as an NFT
         * @description Queues a mint of the current user's avatar as an ERC-721 token on the named blockchain (configured by name), to the user's EVM wallet (from a SIWE login). Returns once queued; follow `mint` on the avatar. One token per avatar version and blockchain: minting the same version again is 409 unless the earlier mint failed (then it is retried).
         */
        post: operations["mintUserAvatar"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/community/{ckey}/inventory/items": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Inventory items of a user
         * @description Paginated items of the community with what `userId` owns of each and whether it is allocated. `onlyOwned` (required, `true` or `false`): `true` lists only owned items. Public.
         */
        get: operations["listInventoryItems"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/community/{ckey}/inventory/items/{itemId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One item
         * @description An item of the community with its supply.
         */
        get: operations["getInventoryItem"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/community/{ckey}/inventory/nft/{tenantId}/{mintId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * NFT metadata of a minted avatar
         * @description ERC-721 metadata JSON of one mint: the avatar as it was when the mint was requested. The token URI of the token points here. The tenant is in the path so wallets and marketplaces need no header.
         */
        get: operations["getAvatarNftMetadata"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/community/{ckey}/inventory/slots": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Slots of a user's inventory
         * @description Every slot of the community with the item `userId` has allocated to it (null when empty). Public: any user's slots can be read.
         */
        get: operations["listInventorySlots"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/community/{ckey}/inventory/slots/{slotId}/items": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Items of a slot
         * @description Paginated items fitting the slot (`slotId`: id or key), with what the current user owns of each. `onlyOwned` (required, `true` or `false`): `true` lists only the items the user owns.
         */
        get: operations["listSlotItems"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/community/{ckey}/inventory/slots/allocate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Allocate items to slots
         * @description Sets several slots of the current user's avatar at once, all or nothing: each item must exist, fit its slot and be owned by the user. `itemId` null or "" empties a slot; slots not listed keep their item. Any change raises the avatar version by one.
         */
        post: operations["allocateInventorySlots"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/community/{communityId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A community
         * @description `communityId` is the id or the slug.
         */
        get: operations["getCommunity"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/community/{communityId}/join": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Join a community
         * @description Idempotent: 201 when the membership is created, 200 (same body, `created: false`) when the user already is a member. `referrerHandle` is required; an empty value means no referrer.
         */
        post: operations["joinCommunity"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/community/{communityId}/quests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Quests of a community
         * @description Active quests with type, status, tags, rewards and whether the current user completed them; featured first. Every query parameter is required (as in the interface): send an empty value for "no filter" (`tags=&questTypes=&featured=&query=`); `page` and `limit` need numbers. A missing parameter is a 400.
         */
        get: operations["listCommunityQuests"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/community/{communityId}/quests/tags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Quest tags of a community with completion statistics
         * @description Tags of the active quests, alphabetical, each with `questCount`, `completedCount` and `availableCount` for `userId` (empty: the current user). Every query parameter is required: booleans take `true`/`false`; `includeRewards` takes `true`, `false` or empty; `userId` a user id or empty.
         */
        get: operations["listCommunityQuestTags"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/community/{communityId}/referrals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The user's referrals into a community
         * @description Members the current user referred into the community, newest first. Paginated.
         */
        get: operations["listCommunityReferrals"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/community/{communityId}/resource-types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Resource types of a community
         * @description Paginated; global types first, then by slug. `communityId` is an id or a slug.
         */
        get: operations["listCommunityResourceTypes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/community/{id}/leaderboard/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The leaderboard of a resource
         * @description Users with an earned amount > 0, highest first. Equal amounts share a rank (1, 2, 2, 4) and are listed by who reached the amount first, then by user id. Paginated.
         */
        get: operations["getCommunityLeaderboard"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/community/{id}/ranking/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The current user's ranking for a resource
         * @description Rank, earned amount, spendable balance and neighbours for the resource type `slug` (or id) of the community `id` (id or slug). Equal amounts share a rank; `rank` is null while the user has earned nothing.
         */
        get: operations["getCommunityRanking"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/community/{id}/seasons": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A community's seasons (extension)
         * @description Time-boxed leaderboards of a resource: upcoming, live, closing (ended, rewards being paid) and closed ones, the latest first (upcoming: the soonest first). Read a season's board with `GET /v1/community/{id}/leaderboard/{slug}?season=<id>` (or `current`), and a player's place with the ranking route.
         */
        get: operations["listSeasons"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/community/{id}/seasons/{seasonId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One season of a community (extension)
         * @description Its window, what it counts, its rank rewards and, once closed, how many players its final standings hold.
         */
        get: operations["getSeason"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/community/resource-types/{resourceTypeId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A resource type
         * @description A global (XP) or scoped (quest event) resource type, by id.
         */
        get: operations["getResourceType"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inventory/prizes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Prizes and achievements
         * @description Every prize of the tenant (`ownedOnly=false`) or only those the current user owns (`ownedOnly=true`), oldest first, with supply and the user's units. Paginated.
         */
        get: operations["listPrizes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inventory/prizes/{prizeId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A prize
         * @description With supply, the current user's units, the owner count and the first owners.
         */
        get: operations["getPrize"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inventory/prizes/{prizeId}/supply": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Supply of a prize
         * @description Total, awarded and remaining units (null total and remaining: unlimited).
         */
        get: operations["getPrizeSupply"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inventory/prizes/requirements": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Requirements of prizes
         * @description The requirement definitions the tenant's prizes ask winners for (e.g. a shipping address), each with the data the current user saved for it (or null).
         */
        get: operations["listPrizeRequirements"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/quest-event": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Quest events
         * @description Published events (never drafts), earliest start first. `participating` (events the user is REGISTERED in) and `registrationOpen` combine (AND). `filter` is a deepObject: `filter[containerId]=<community id or slug>&filter[features]=a,b&filter[status]=active&filter[status]=completed`. Paginated.
         */
        get: operations["listQuestEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/quest-event/{eventId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A quest event
         * @description By id or slug, with its derived status and the current user's participant status.
         */
        get: operations["getQuestEvent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/quest-event/{eventId}/participant": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The user's participation in an event
         * @description Transition table (anything else is 400 `participant_transition`, naming the current status): register: (none) or UNREGISTERED(2) → REGISTERED(1), while registration is open and a seat is free; unregister: REGISTERED → UNREGISTERED, before the start; cancel: REGISTERED → CANCELLED(4), before the end, final, the score leaves the leaderboard; drop (management API): REGISTERED → DROPPED(3), until completion, final. Only REGISTERED participants score, sync, rank and receive tickets.
         */
        get: operations["getParticipant"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/quest-event/{eventId}/participant/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Cancel participation
         * @description Final; before the end; the score is revoked and leaves the leaderboard. Transition table (anything else is 400 `participant_transition`, naming the current status): register: (none) or UNREGISTERED(2) → REGISTERED(1), while registration is open and a seat is free; unregister: REGISTERED → UNREGISTERED, before the start; cancel: REGISTERED → CANCELLED(4), before the end, final, the score leaves the leaderboard; drop (management API): REGISTERED → DROPPED(3), until completion, final. Only REGISTERED participants score, sync, rank and receive tickets.
         */
        put: operations["cancelParticipation"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/quest-event/{eventId}/participant/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * REGISTERED participants of an event
         * @description First registered first. Paginated.
         */
        get: operations["listParticipants"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/quest-event/{eventId}/participant/rank": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The user's rank in an event
         * @description Live score and rank on the event leaderboard (same rules as community leaderboards), with two neighbours each side; `rank` null unless REGISTERED with a score > 0.
         */
        get: operations["getParticipantRank"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/quest-event/{eventId}/participant/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Register for an event
         * @description Members of the event's community only. Transition table (anything else is 400 `participant_transition`, naming the current status): register: (none) or UNREGISTERED(2) → REGISTERED(1), while registration is open and a seat is free; unregister: REGISTERED → UNREGISTERED, before the start; cancel: REGISTERED → CANCELLED(4), before the end, final, the score leaves the leaderboard; drop (management API): REGISTERED → DROPPED(3), until completion, final. Only REGISTERED participants score, sync, rank and receive tickets.
         */
        post: operations["registerParticipant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/quest-event/{eventId}/participant/sync": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Sync the user's score
         * @description REGISTERED only: copies the earned amount of the event's scoped resource into the participant's score and returns the participation. Idempotent; frozen after completion.
         */
        get: operations["syncParticipant"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/quest-event/{eventId}/participant/unregister": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Unregister from an event
         * @description Before the start; the user may register again. Transition table (anything else is 400 `participant_transition`, naming the current status): register: (none) or UNREGISTERED(2) → REGISTERED(1), while registration is open and a seat is free; unregister: REGISTERED → UNREGISTERED, before the start; cancel: REGISTERED → CANCELLED(4), before the end, final, the score leaves the leaderboard; drop (management API): REGISTERED → DROPPED(3), until completion, final. Only REGISTERED participants score, sync, rank and receive tickets.
         */
        put: operations["unregisterParticipant"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/quest-event/{eventId}/reward/allocations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The user's reward allocations in an event
         * @description One per reward the user was allocated tickets for at completion, with tickets left and the data submitted with the last claim.
         */
        get: operations["listRewardAllocations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/quest-event/{eventId}/reward/allocations/claim/{rewardAllocationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Claim a reward with allocated tickets
         * @description Spends the reward's ticket cost from the allocation and takes one unit of its supply, atomically, then credits the resource or grants the item. `email`, `walletAddress` (EIP-55; stored checksummed) and `address` as the reward requires. Another user's allocation is 404; no tickets left or no supply is 400; nothing changes on failure.
         */
        post: operations["claimRewardAllocation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/quest-event/{id}/leaderboard": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The leaderboard of a quest event
         * @description REGISTERED participants by score (the event's scoped resource), highest first; equal scores share a rank (1, 2, 2, 4). Cancelled and dropped participants are not on it. Paginated.
         */
        get: operations["getQuestEventLeaderboard"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/quest-event/{id}/quests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The quests of a quest event
         * @description Active quests of the event, oldest first, with whether the current user completed them.
         */
        get: operations["listQuestEventQuests"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/store/balance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Spendable resources
         * @description The current user's spendable balance of every resource type of the community (`containerId`: id or slug), 0 when never credited.
         */
        get: operations["getStoreBalance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/store/listings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Listings of a community store
         * @description Active listings that have not ended (upcoming ones included), by position. Paginated. With `enrichRequirements=true` each listing also carries `requirements` (definitions with the user's saved data), `purchasedCount`, `canBuy` and `unavailableReasons`.
         */
        get: operations["listStoreListings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/store/purchase": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Purchases of the current user
         * @description In the community (`containerId`), newest first. Paginated.
         */
        get: operations["listStorePurchases"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/store/purchase/{listingId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Buy a listing
         * @description In one transaction: checks the requirement data against each requirement's JSON schema, the conditions, the window, the supply and the per-user limit; debits the price through the ledger; grants the item, prize or resource; saves the data marked `shouldSave`. `nonce` is an idempotency key per user: the same nonce with the same request answers the original purchase (`replayed: true`, nothing charged); with a different request it is 409 `nonce_reused`. Every failure charges nothing.
         */
        post: operations["purchaseStoreListing"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Log out: end a session (extension)
         * @description Ends the session of the given refresh token of the current user (the refresh token and every session token issued for that login), or every session of the user with `all: true`. Every instance refuses the ended session tokens within about a second.
         */
        post: operations["logout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/auth/password/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Log in with a username and password
         * @description A wrong username and a wrong password give the same 401.
         */
        post: operations["passwordLogin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/auth/providerA/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Log in with a providerA credential
         * @description The credential is providerA's OpenID Connect ID token, verified against its JWKS (issuer, audience = tenant setting providerAClientId, expiry). Not configured: 503 provider_not_configured.
         */
        post: operations["providerALogin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/auth/providerA/zklogin": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * zkLogin with providerA
         * @description The `token` is the JWE of spec rule 2, encrypted with the tenant shared secret (hex, 32 bytes); each token logs in once. The first login of `(provider, subjectId)` creates the user (handle from the claim, made unique) and records the referrer. The body `accessToken` and `referrerHandle` take precedence over the claims of the same name. An optional `provider` claim names the endpoint the token is for (`providerB`, `providerC`, `providerA` for zkLogin, `providerD`): a token naming another one is refused (401 `login_token_provider`). The `idToken` claim is required; the first zkLogin creates the user's Sui zkLogin wallet (GET /v1/user/wallet).
         */
        post: operations["providerAZkLogin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/auth/providerB/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Log in with a providerB token
         * @description The `token` is the JWE of spec rule 2, encrypted with the tenant shared secret (hex, 32 bytes); each token logs in once. The first login of `(provider, subjectId)` creates the user (handle from the claim, made unique) and records the referrer. The body `accessToken` and `referrerHandle` take precedence over the claims of the same name. An optional `provider` claim names the endpoint the token is for (`providerB`, `providerC`, `providerA` for zkLogin, `providerD`): a token naming another one is refused (401 `login_token_provider`).
         */
        post: operations["providerBLogin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/auth/providerC/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Log in with a providerC token
         * @description The `token` is the JWE of spec rule 2, encrypted with the tenant shared secret (hex, 32 bytes); each token logs in once. The first login of `(provider, subjectId)` creates the user (handle from the claim, made unique) and records the referrer. The body `accessToken` and `referrerHandle` take precedence over the claims of the same name. An optional `provider` claim names the endpoint the token is for (`providerB`, `providerC`, `providerA` for zkLogin, `providerD`): a token naming another one is refused (401 `login_token_provider`).
         */
        post: operations["providerCLogin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/auth/providerD/zklogin": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * zkLogin with providerD
         * @description The `token` is the JWE of spec rule 2, encrypted with the tenant shared secret (hex, 32 bytes); each token logs in once. The first login of `(provider, subjectId)` creates the user (handle from the claim, made unique) and records the referrer. The body `accessToken` and `referrerHandle` take precedence over the claims of the same name. An optional `provider` claim names the endpoint the token is for (`providerB`, `providerC`, `providerA` for zkLogin, `providerD`): a token naming another one is refused (401 `login_token_provider`). The `idToken` claim is required; the first zkLogin creates the user's Sui zkLogin wallet (GET /v1/user/wallet).
         */
        post: operations["providerDZkLogin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/auth/refresh-session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Exchange a refresh token for a new session token
         * @description The refresh token names its tenant: when nothing else names one (no session token, `X-Tenant-Id`, tenant domain, default or only tenant), the session is refreshed in the refresh token's tenant. When something does, it must be the token's (401 `refresh_token_invalid` otherwise).
         */
        post: operations["refreshSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/auth/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The current session (extension)
         * @description Who the session token belongs to. Not in the interface; useful to check a token.
         */
        get: operations["currentSession"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/auth/siwe/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign-In With Ethereum
         * @description An EIP-4361 message for an allowed origin and chain of the tenant, issued in the last 10 minutes, with a nonce never used before in the tenant (from GET /v1/user/auth/siwe/nonce or chosen by the client), and its signature. The identity is the checksummed address; its wallet is that address on the message chain.
         */
        post: operations["siweLogin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/auth/siwe/nonce": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A fresh SIWE nonce (extension)
         * @description Optional helper: a random nonce for a SIWE message. Nothing is stored; the nonce becomes used when a login accepts it.
         */
        get: operations["getSiweNonce"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/by-id/{username}/public": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A user's public profile in a community
         * @description `{username}` is the user's login username, handle or user id (case-insensitive; a handle wins over another user's username). The username is matched, never shown. Shows the handle, display name, avatar, public socials, and XP and rank in the community `containerId` (id or slug). Never email, address, date of birth, username or tokens.
         */
        get: operations["getPublicProfile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/notifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The current user's notifications in a community
         * @description Newest first. Holds the notifications about the community `containerId` (id or slug) and the account-wide ones (no community). `unreadCount` counts the unread ones of the same list.
         */
        get: operations["listNotifications"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/notifications/read": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mark all of the current user's notifications read
         * @description Every community and the account-wide ones. Idempotent.
         */
        post: operations["markNotificationsRead"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/notifications/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The current user's notifications, live (extension)
         * @description Server-Sent Events (`text/event-stream`, what a browser `EventSource` reads). Events:
         *
         *     - `notification`: `data` is one notification as JSON, the same shape as the items of `GET /v1/user/notifications` (`NotificationDto`). Sent the moment the transaction that wrote it commits, whichever instance wrote it; account-wide and every community's.
         *     - `ready`: the stream is live; `data` `{"replayed": n}`, how many missed notifications were sent before it. Carries `retry: 3000` (ms before an EventSource reconnects).
         *     - `reset`: the client missed more than 200 notifications; `data` `{"reason":"too_many_missed","limit":200}`. Reload the list with `GET /v1/user/notifications`; the stream goes on from now.
         *     - `session_ended`: the session was ended (logout, user deleted); the stream closes. Log in again.
         *     - a comment line `: heartbeat` after every NOTIFICATION_STREAM_HEARTBEAT_MS (15 s) without an event.
         *
         *     Every event has an `id`, an opaque cursor (at most 8192 characters). On reconnecting, an EventSource sends the last one as `Last-Event-ID` and receives exactly the notifications it missed, oldest first, then `ready`. A new EventSource can pass it as `?lastEventId=`. Without one the stream starts at the moment it opens.
         *
         *     Credentials: `Authorization: Bearer <session token>`, or `?ticket=` from `POST /v1/user/notifications/stream-ticket` (browsers). Refusals (401, 400, 429, 503) are ordinary JSON error answers, before any event. The stream stays open while the session lasts; it is not bound to the session token's 10 minutes. Extension, not in the interface.
         */
        get: operations["stream"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/notifications/stream-ticket": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A ticket to open the notification stream from a browser (extension)
         * @description For `new EventSource('/v1/user/notifications/stream?ticket=…')`, which cannot send the session token: valid once, within 60 s, for the session that asked for it. Ask for a new one before each (re)connection.
         */
        post: operations["streamTicket"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/profile": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The current user's profile, limited to the requested fields
         * @description Only the fields named in `fields` are returned: `id`, `username`, `handle`, `displayName`, `biography`, `dateOfBirth` (`{year, month, day}`), `address`, `socials`, `createdAt`. An unknown field is a 400.
         */
        get: operations["getProfile"];
        put?: never;
        /**
         * Update the current user's profile
         * @description Absent fields are kept; `null` clears `displayName`, `biography`, `dateOfBirth` or `address`. `handle` is unique in the tenant (409). `dateOfBirth` is a real date before today (UTC), from 1900 on. `biography` at most 1000 characters. Returns the whole profile.
         */
        post: operations["updateProfile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/referrals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Users the current user referred
         * @description Sign-up referrals (`communityId` null) and community joins, newest first. A user referred at sign-up and into a community appears once per scope.
         */
        get: operations["listReferrals"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/register/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Register with a username and password
         * @description Creates the user and starts a session.
         */
        post: operations["registerPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/socials": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The current user's linked social accounts
         * @description Oldest link first. Tokens are never returned; `hasUserToken`/`hasRefreshToken` and `expiryDate` say what is stored.
         */
        get: operations["listSocials"];
        put?: never;
        /**
         * Link a social account
         * @description Account types: `apple`, `battlenet`, `discord`, `epic`, `facebook`, `github`, `google`, `instagram`, `nintendo`, `playstation`, `reddit`, `riot`, `steam`, `telegram`, `tiktok`, `twitch`, `twitter`, `x`, `xbox`, `youtube`, plus any listed in the `SOCIAL_ACCOUNT_TYPES` setting. An account (type + subjectId) belongs to one user of the tenant: linking one another user holds is a 409; linking one the current user already holds updates it (same id). `userToken` and `refreshToken` are stored encrypted and never returned.
         */
        post: operations["linkSocial"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/socials/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Unlink a social account
         * @description Deletes the account and its stored tokens. Another user's id is a 404.
         */
        delete: operations["deleteSocial"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/socials/{type}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The current user's linked accounts of one type
         * @description Account types: `apple`, `battlenet`, `discord`, `epic`, `facebook`, `github`, `google`, `instagram`, `nintendo`, `playstation`, `reddit`, `riot`, `steam`, `telegram`, `tiktok`, `twitch`, `twitter`, `x`, `xbox`, `youtube`, plus any listed in the `SOCIAL_ACCOUNT_TYPES` setting. Case-insensitive. An empty list when none is linked.
         */
        get: operations["listSocialsOfType"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/socials/update": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Update a linked social account
         * @description Partial: absent fields are kept, `null` clears an optional field. Another user's `socialId` is a 404.
         */
        post: operations["updateSocial"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user/wallet": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The user wallet
         * @description The first wallet of the user: created by their first zkLogin (a Sui zkLogin address linked to that provider) or SIWE login (the signing address on the message chain).
         */
        get: operations["getWallet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        AddressDto: {
            /** @example home */
            addressId?: string;
            /** @example 12 Analytical Row */
            addressLine1?: string;
            /** @example Flat 3 */
            addressLine2?: string;
            /** @example  */
            addressLine3?: string;
            /** @example London */
            city?: string;
            /** @example GB */
            country?: string;
            /** @example W1 1AA */
            postalCode?: string;
            /** @example Greater London */
            state?: string;
        };
        AdminHoldingDto: {
            /**
             * Format: date-time
             * @description When the player first received it.
             * @example 2026-11-20T10:00:00.000Z
             */
            acquiredAt: string;
            /**
             * @description Whether the item is on the player's avatar (in its slot).
             * @example true
             */
            allocated: boolean;
            /**
             * @description The status of the player's latest avatar mint in the community, for an item on the avatar
             *     (a mint is of the avatar as it was when requested); null when not on the avatar or never minted.
             * @example null
             * @enum {string|null}
             */
            avatarMintStatus: "pending" | "sending" | "minted" | "failed" | null;
            /**
             * Format: uuid
             * @example 5e0c3c1e-2f7e-4f4a-9b7d-0f5e1a9d3c21
             */
            communityId: string;
            /** @example pixel-pirates */
            communitySlug: string;
            /** @example https://example.com/items/hat.png */
            imageUrl: string | null;
            /**
             * Format: uuid
             * @example 0f9e8d7c-6b5a-4c3d-9e2f-1a0b9c8d7e6f
             */
            itemId: string;
            /** @example Pirate hat */
            name: string;
            /**
             * @description Units held.
             * @example 1
             */
            quantity: number;
            /** @example common */
            rarity: string;
            /** @example head */
            slotKey: string;
        };
        AdminParticipantDto: {
            /** @example Grace */
            displayName: string | null;
            /** @example null */
            dropReason: string | null;
            /** @example grace_hopper */
            handle: string;
            /**
             * Format: date-time
             * @example 2025-06-12T12:00:00.000Z
             */
            registeredAt: string;
            /** @example 420 */
            score: number;
            /**
             * @description ParticipantStatus: 1 REGISTERED, 2 UNREGISTERED, 3 DROPPED, 4 CANCELLED.
             * @example 1
             * @enum {number}
             */
            status: 1 | 2 | 3 | 4;
            /**
             * Format: date-time
             * @example 2025-06-12T12:00:00.000Z
             */
            statusChangedAt: string;
            /**
             * @example REGISTERED
             * @enum {string}
             */
            statusName: "REGISTERED" | "UNREGISTERED" | "DROPPED" | "CANCELLED";
            /**
             * Format: uuid
             * @example 3b241101-e2bb-4255-8caf-4136c566a962
             */
            userId: string;
        };
        AdminPurchaseDto: {
            /**
             * Format: uuid
             * @example 5e0c3c1e-2f7e-4f4a-9b7d-0f5e1a9d3c21
             */
            communityId: string;
            /**
             * Format: date-time
             * @example 2025-01-01T12:00:00.000Z
             */
            createdAt: string;
            /**
             * Format: uuid
             * @example 2d3e4f50-6172-4839-a4b5-c6d7e8f90a1b
             */
            id: string;
            /**
             * Format: uuid
             * @example 7d0c1b3e-2f4a-4b5c-8d6e-9f0a1b2c3d4e
             */
            itemId: string | null;
            /**
             * @example item
             * @enum {string}
             */
            kind: "item" | "prize" | "resource";
            /**
             * Format: uuid
             * @example 1c9a3c56-8f0b-4b1e-9c0e-5d6f7a8b9c01
             */
            listingId: string;
            /** @example Golden sword */
            listingName: string;
            /** @example 5f1d7c1c-4b7e-4d43-a3a4-2f6f0f9c0b7e */
            nonce: string;
            /** @description What was paid. */
            price: components["schemas"]["PriceComponentDto"][];
            /**
             * Format: uuid
             * @example null
             */
            prizeId: string | null;
            /** @example 1 */
            quantity: number;
            requirementData: components["schemas"]["PurchaseRequirementDataDto"][];
            /**
             * Format: uuid
             * @example null
             */
            resourceTypeId: string | null;
            /**
             * Format: uuid
             * @example 3b241101-e2bb-4255-8caf-4136c566a962
             */
            userId: string;
        };
        AdminRewardAllocationDto: {
            /**
             * Format: date-time
             * @example 2025-06-12T12:00:00.000Z
             */
            createdAt: string;
            /**
             * Format: uuid
             * @example 9d6b1f0e-1c2d-4e3f-8a9b-0c1d2e3f4a5b
             */
            eventId: string;
            /**
             * Format: uuid
             * @example 9d6b1f0e-1c2d-4e3f-8a9b-0c1d2e3f4a5b
             */
            id: string;
            /**
             * @description The participant's rank and score at completion.
             * @example 3
             */
            rank: number | null;
            /** @description The data submitted with the last claim; null before any claim. */
            requirementData: components["schemas"]["RequirementDataDto"] | null;
            reward: components["schemas"]["RewardDto"];
            /** @example 420 */
            score: number;
            /**
             * @description Tickets allocated at completion.
             * @example 2
             */
            tickets: number;
            /** @example 1 */
            ticketsRemaining: number;
            /** @example 1 */
            ticketsSpent: number;
            /**
             * Format: uuid
             * @example 3b241101-e2bb-4255-8caf-4136c566a962
             */
            userId: string;
        };
        AdminSeasonDto: {
            /**
             * Format: date-time
             * @example null
             */
            closedAt: string | null;
            /**
             * Format: uuid
             * @example 5e0c3c1e-2f7e-4f4a-9b7d-0f5e1a9d3c21
             */
            communityId: string;
            /**
             * Format: date-time
             * @description Exclusive: what is earned from this instant on counts for the next season.
             * @example 2026-12-07T00:00:00.000Z
             */
            endsAt: string;
            /**
             * Format: date-time
             * @example null
             */
            frozenAt: string | null;
            /**
             * Format: uuid
             * @example 7d0c2f1e-4d3b-4a59-8b8e-2f4b9b1f0c11
             */
            id: string;
            /** @example Weekly XP #12 */
            name: string;
            /**
             * @description 1, 2, 3... within its schedule.
             * @example 12
             */
            number: number;
            /**
             * @description The last final place whose rewards were paid.
             * @example 0
             */
            paidThrough: number;
            /** @example null */
            questIds: string[] | null;
            /**
             * @description Players in the final standings (null until they are frozen).
             * @example null
             */
            ranked: number | null;
            /** @example null */
            reasons: string[] | null;
            /** @example xp */
            resourceSlug: string;
            /**
             * Format: uuid
             * @example 0b8f6f57-5a53-4d4c-9d3e-6f1c1b2f7a10
             */
            resourceTypeId: string;
            rewards: components["schemas"]["SeasonRewardViewDto"][];
            /**
             * @description Rewards whose grant was refused (e.g. the item's supply ran out).
             * @example 0
             */
            rewardsFailed: number;
            /** @example 0 */
            rewardsPaid: number;
            /**
             * Format: uuid
             * @example null
             */
            scheduleId: string | null;
            /**
             * Format: date-time
             * @example 2026-11-30T00:00:00.000Z
             */
            startsAt: string;
            /**
             * @description `closing`: ended, its standings being frozen and its rewards paid.
             * @example live
             * @enum {string}
             */
            status: "upcoming" | "live" | "closing" | "closed";
        };
        AdminSocialDto: {
            /**
             * @description The provider (account type).
             * @example discord
             */
            accountType: string;
            /** @example ada_plays */
            handle: string | null;
            /**
             * Format: uuid
             * @example 6f1d2c3b-4a59-4e68-9d7c-8b9a0f1e2d3c
             */
            id: string;
            /**
             * Format: date-time
             * @example 2026-04-01T08:30:00.000Z
             */
            linkedAt: string;
            /**
             * @description Whether it shows on the player's public profile.
             * @example true
             */
            public: boolean;
            /** @example eu-west */
            server: string | null;
            /**
             * @description The account's id at the provider.
             * @example 80351110224678912
             */
            subjectId: string;
        };
        AdminUserDto: {
            /**
             * Format: date-time
             * @example 2025-01-01T12:00:00.000Z
             */
            createdAt: string;
            /** @example Ada */
            displayName: string | null;
            /** @example ada_l */
            handle: string;
            /**
             * Format: uuid
             * @example 3b241101-e2bb-4255-8caf-4136c566a962
             */
            userId: string;
            /**
             * @description The password login's username, if the user has one.
             * @example ada
             */
            username: string | null;
        };
        AdminUserParticipationDto: {
            /**
             * Format: uuid
             * @example 5e0c3c1e-2f7e-4f4a-9b7d-0f5e1a9d3c21
             */
            communityId: string;
            /** @example null */
            dropReason: string | null;
            /**
             * Format: uuid
             * @example 9d6b1f0e-1c2d-4e3f-8a9b-0c1d2e3f4a5b
             */
            eventId: string;
            /** @example Spring Cup */
            eventName: string;
            /** @example spring-cup */
            eventSlug: string;
            /**
             * @description The event's lifecycle status now.
             * @example active
             * @enum {string}
             */
            eventStatus: "draft" | "upcoming" | "registration_open" | "active" | "ended" | "completed" | "cancelled";
            /**
             * Format: date-time
             * @example 2025-06-12T12:00:00.000Z
             */
            registeredAt: string;
            /**
             * @description The score as last synced.
             * @example 420
             */
            score: number;
            /**
             * @description ParticipantStatus: 1 REGISTERED, 2 UNREGISTERED, 3 DROPPED, 4 CANCELLED.
             * @example 1
             * @enum {number}
             */
            status: 1 | 2 | 3 | 4;
            /**
             * Format: date-time
             * @example 2025-06-12T12:00:00.000Z
             */
            statusChangedAt: string;
            /**
             * @example REGISTERED
             * @enum {string}
             */
            statusName: "REGISTERED" | "UNREGISTERED" | "DROPPED" | "CANCELLED";
        };
        AllocateSlotsDto: {
            /** @description Slots to set, all or nothing; slots not listed keep their item. */
            slots: components["schemas"]["SlotAllocationDto"][];
        };
        AttemptDto: {
            /**
             * Format: date-time
             * @example 2026-11-25T12:00:00.000Z
             */
            attemptedAt: string;
            /** @example 42 */
            durationMs: number;
            /** @example HTTP 500 */
            error: string | null;
            /**
             * @description The HTTP status; null without an answer (timeout, connection refused).
             * @example 500
             */
            statusCode: number | null;
        };
        AuditEntryDto: {
            /**
             * @description The client went away before the whole answer was sent. The request ran to its end all the
             *     same: `statusCode` and `outcome` are how it ended (a write may have been applied).
             * @example false
             */
            aborted: boolean;
            /**
             * @description The caller: `api-key:` and the first 12 hex digits of the key's SHA-256 (never the key).
             * @example api-key:3f9a1c0b7d2e
             */
            actor: string;
            /**
             * @description The request body with secret-named fields (`secret`, `password`, `token`, `apiKey`, `…key`) as
             *     `"[redacted]"`; over 8 KB of JSON, `{ truncated: true, preview }`; null when there was none.
             * @example {
             *       "name": "Pixel Pirates"
             *     }
             */
            body: {
                [key: string]: unknown;
            } | null;
            /**
             * Format: date-time
             * @example 2026-11-25T14:02:11.512Z
             */
            createdAt: string;
            /**
             * Format: uuid
             * @example 7a4c2f0e-5d1b-4e8a-9c3f-2b6d8e1a4f90
             */
            id: string;
            /**
             * @example PATCH
             * @enum {string}
             */
            method: "POST" | "PUT" | "PATCH" | "DELETE";
            /**
             * @description The id of the resource the response named (created or changed; a grant's ledger entry), when it named one.
             * @example 0f8e2d4c-1b3a-4c5d-9e7f-6a8b0c2d4e6f
             */
            outcome: string | null;
            /**
             * @description The route template.
             * @example /v1/admin/communities/:communityId
             */
            route: string;
            /** @example 200 */
            statusCode: number;
            /**
             * @description The path parameters.
             * @example {
             *       "communityId": "0f8e2d4c-1b3a-4c5d-9e7f-6a8b0c2d4e6f"
             *     }
             */
            target: {
                [key: string]: string;
            };
        };
        AuditLogPageDto: {
            /**
             * @description Whether a later page has items.
             * @example true
             */
            hasNextPage: boolean;
            items: components["schemas"]["AuditEntryDto"][];
            /**
             * @description The page size used.
             * @example 20
             */
            limit: number;
            /**
             * @description The page returned (1-based).
             * @example 1
             */
            page: number;
            /**
             * @description Number of items over all pages.
             * @example 42
             */
            total: number;
        };
        AvatarDto: {
            /**
             * Format: uuid
             * @example 5e0c3c1e-2f7e-4f4a-9b7d-0f5e1a9d3c21
             */
            communityId: string;
            /** @description The mint status: the latest mint of any version and blockchain, null when never minted. */
            mint: components["schemas"]["AvatarMintDto"] | null;
            /** @description The latest 20 mints, newest first. */
            mints: components["schemas"]["AvatarMintDto"][];
            /** @description Every slot of the community, with the allocated item or null. */
            slots: components["schemas"]["UserSlotDto"][];
            /**
             * Format: date-time
             * @example 2025-01-01T12:00:00.000Z
             */
            updatedAt: string | null;
            /**
             * Format: uuid
             * @example 3b241101-e2bb-4255-8caf-4136c566a962
             */
            userId: string;
            /**
             * @description Grows by one with every allocation that changes the avatar (0: never allocated).
             * @example 3
             */
            version: number;
        };
        AvatarMintDto: {
            /** @example 1 */
            attempts: number;
            /**
             * @description The avatar version the token shows.
             * @example 3
             */
            avatarVersion: number;
            /** @example base-sepolia */
            blockchain: string;
            /** @example 84532 */
            chainId: number;
            /** @example 0x5FbDB2315678afecb367f032d93F642f64180aa3 */
            contractAddress: string;
            /** @example null */
            error: string | null;
            /**
             * Format: uuid
             * @example 1a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d
             */
            id: string;
            /**
             * @description The token URI: public ERC-721 metadata of this avatar version.
             * @example https://api.example.com/v1/community/5e0c3c1e-2f7e-4f4a-9b7d-0f5e1a9d3c21/inventory/nft/8a1f.../1a2b...
             */
            metadataUrl: string;
            /**
             * Format: date-time
             * @example 2025-01-01T12:00:05.000Z
             */
            mintedAt: string | null;
            /**
             * @description The user's EVM address that receives the token.
             * @example 0x70997970C51812dc3A010C7d01b50e0d17dc79C8
             */
            recipient: string;
            /**
             * Format: date-time
             * @example 2025-01-01T12:00:00.000Z
             */
            requestedAt: string;
            /**
             * @description `pending` (queued or waiting to retry), `sending` (transaction in flight), `minted`, `failed`.
             * @example minted
             * @enum {string}
             */
            status: "pending" | "sending" | "minted" | "failed";
            /**
             * @description uint256 as a decimal string.
             * @example 73469261340386345512298316340553219845411409284290135396316476582735446331157
             */
            tokenId: string;
            /** @example 0x8d3e... */
            txHash: string | null;
        };
        AwardPrizeDto: {
            /**
             * @description Unique per tenant: a retry with the same key awards nothing and returns the first award.
             * @example tournament-12-winner
             */
            idempotencyKey: string;
            /** @description Units to award (default 1). */
            quantity?: number;
            /** @example tournament_winner */
            reason: string;
            reference?: string;
            /**
             * @description `admin` (default) or `event` (an event reward given through the management API).
             * @example admin
             * @enum {string}
             */
            source?: "admin" | "event";
            /**
             * Format: uuid
             * @example 3b241101-e2bb-4255-8caf-4136c566a962
             */
            userId: string;
        };
        BalanceDto: {
            /** @example 350 */
            balance: number;
            /**
             * Format: uuid
             * @example 5e0c3c1e-2f7e-4f4a-9b7d-0f5e1a9d3c21
             */
            communityId: string;
            /** @example 500 */
            earned: number;
            /**
             * Format: uuid
             * @example 0b8f6f57-5a53-4d4c-9d3e-6f1c1b2f7a10
             */
            resourceTypeId: string;
            /** @example xp */
            slug: string;
        };
        BalanceItemDto: {
            /**
             * @description Spendable amount (what the store debits).
             * @example 350
             */
            balance: number;
            /** @example global */
            kind: string;
            /** @example Experience */
            name: string;
            /**
             * Format: uuid
             * @example 0b8f6f57-5a53-4d4c-9d3e-6f1c1b2f7a10
             */
            resourceTypeId: string;
            /** @example xp */
            slug: string;
        };
        ClaimRewardDto: {
            address?: components["schemas"]["AddressDto"];
            /**
             * Format: email
             * @example ada@example.com
             */
            email?: string;
            /**
             * @description An EVM address (`0x` + 40 hex digits). Mixed case must be a valid EIP-55 checksum; it is stored checksummed.
             * @example 0x52908400098527886E0F7030069857D2E4169EE7
             */
            walletAddress?: string;
        };
        CloseQuestEventResultDto: {
            /**
             * @description Allocations created by this call.
             * @example 12
             */
            allocationsCreated: number;
            /**
             * @description true when this call completed the event; false when it was already completed (nothing changed).
             * @example true
             */
            completedNow: boolean;
            event: components["schemas"]["QuestEventDto"];
        };
        CommunityDto: {
            /** @example https://cdn.example.com/banner.png */
            bannerUrl: string | null;
            /**
             * Format: date-time
             * @example 2025-01-01T12:00:00.000Z
             */
            createdAt: string;
            /** @example The crew of the outer rim. */
            description: string;
            /**
             * Format: uuid
             * @example 5e0c3c1e-2f7e-4f4a-9b7d-0f5e1a9d3c21
             */
            id: string;
            /** @example https://cdn.example.com/logo.png */
            imageUrl: string | null;
            links: components["schemas"]["CommunityLinkDto"][];
            /** @example 1280 */
            memberCount: number;
            /** @example Space Pirates */
            name: string;
            /**
             * @description Lowercase, unique in the tenant; usable instead of the id in every `{communityId}`.
             * @example space-pirates
             */
            slug: string;
        };
        CommunityLinkDto: {
            /** @example Discord */
            label: string;
            /**
             * Format: uri
             * @example https://discord.gg/example
             */
            url: string;
        };
        CommunityMemberDto: {
            /** @example Ada */
            displayName: string | null;
            /** @example ada_l */
            handle: string;
            /**
             * Format: date-time
             * @example 2025-01-01T12:00:00.000Z
             */
            joinedAt: string;
            /**
             * Format: uuid
             * @example 3b241101-e2bb-4255-8caf-4136c566a962
             */
            userId: string;
        };
        CommunityReferralDto: {
            /** @example Ada */
            displayName: string | null;
            /** @example ada_l */
            handle: string;
            /**
             * Format: date-time
             * @description When the referred user joined the community.
             * @example 2025-01-01T12:00:00.000Z
             */
            joinedAt: string;
            /**
             * Format: uuid
             * @example 3b241101-e2bb-4255-8caf-4136c566a962
             */
            userId: string;
        };
        CompleteQuestDto: {
            /**
             * Format: uuid
             * @example 3b241101-e2bb-4255-8caf-4136c566a962
             */
            userId: string;
        };
        CompletionRuleDto: {
            /**
             * @description Only ranks 1..maxRank receive tickets; null: any rank.
             * @example 100
             */
            maxRank: number | null;
            /**
             * @description Minimum score (earned scoped resource) to receive tickets.
             * @example 1
             */
            minScore: number;
        };
        CreateCommunityDto: {
            /** Format: uri */
            bannerUrl?: string;
            description?: string;
            /** Format: uri */
            imageUrl?: string;
            links?: components["schemas"]["CommunityLinkDto"][];
            /** @example Space Pirates */
            name: string;
            /**
             * @description 1-64 lowercase letters, digits and dashes; not uuid-shaped; `resource-types` is reserved.
             * @example space-pirates
             */
            slug: string;
        };
        CreateItemDto: {
            attributes?: components["schemas"]["ItemAttributeDto"][];
            /**
             * @description Community id or slug.
             * @example space-pirates
             */
            communityId: string;
            description?: string;
            /** Format: uri */
            imageUrl?: string;
            /** @example Golden crown */
            name: string;
            /** @description Default `common`. */
            rarity?: string;
            /**
             * @description The slot (id or key) the item fits.
             * @example head
             */
            slotId: string;
            /** @description Units that can ever be granted; omit for unlimited. */
            supply?: number;
        };
        CreateListingDto: {
            /** @description false hides the listing. Default true. */
            active?: boolean;
            /**
             * @description Community id or slug.
             * @example my-community
             */
            communityId: string;
            description?: string;
            /** @description On sale until, exclusive (ISO 8601); absent: no end. */
            endsAt?: string;
            /** Format: uri */
            imageUrl?: string;
            /**
             * Format: uuid
             * @description `item` listings: an item of the same community.
             */
            itemId?: string;
            /**
             * @description What a purchase grants: an inventory `item`, a `prize`, or a `resource`.
             * @example item
             * @enum {string}
             */
            kind: "item" | "prize" | "resource";
            /** @example Golden sword */
            name: string;
            /** @description Purchases allowed per user; absent for unlimited. */
            perUserLimit?: number;
            /** @description One or more resource amounts (distinct resource types of the listing's community). */
            price: components["schemas"]["PriceComponentDto"][];
            /**
             * Format: uuid
             * @description `prize` listings: a prize of the tenant (tenant-wide or of the same community).
             */
            prizeId?: string;
            /** @description Units granted per purchase (default 1). */
            quantity?: number;
            /** @description Requirement definitions (ids) the buyer must satisfy. */
            requirementIds?: string[];
            /**
             * Format: uuid
             * @description `resource` listings: a resource type of the same community.
             */
            resourceTypeId?: string;
            /** @description On sale from (ISO 8601); absent: already. */
            startsAt?: string;
            /** @description Purchases available in total; absent for unlimited. */
            totalSupply?: number;
        };
        CreatePrizeDto: {
            /** @description A community of the tenant (id or slug); absent for a tenant-wide prize. */
            communityId?: string;
            description?: string;
            /** Format: uri */
            imageUrl?: string;
            /**
             * @example physical
             * @enum {string}
             */
            kind: "achievement" | "physical" | "digital";
            /** @example Season 1 champion */
            name: string;
            /** @description Requirement definitions (ids) a winner is asked for, e.g. a shipping address. */
            requirementIds?: string[];
            /** @description Units that can ever be awarded; absent for unlimited. */
            totalSupply?: number;
        };
        CreateQuestDto: {
            /**
             * @description The community (id or slug).
             * @example space-pirates
             */
            communityId: string;
            description?: string;
            featured?: boolean;
            /** @example Follow us on X */
            name: string;
            /** @description The quest event (id or slug) the quest belongs to, if any; it must be of the same community. */
            questEventId?: string;
            rewards?: components["schemas"]["QuestRewardDto"][];
            /**
             * @default active
             * @enum {string}
             */
            status: "draft" | "active" | "archived";
            /**
             * @description At most 20 tags of 1-64 characters, stored lowercase.
             * @example [
             *       "twitter",
             *       "onboarding"
             *     ]
             */
            tags?: string[];
            /** @description A template quest (a blueprint shown as such; `excludeTemplateTags` leaves it out of tag statistics). */
            template?: boolean;
            /**
             * @description Free-form (letters, digits, `_ -`), stored lowercase, e.g. `social`, `onchain`, `daily`.
             * @example social
             */
            type: string;
        };
        CreateQuestEventDto: {
            /** @description Most REGISTERED participants; absent: unlimited. */
            capacity?: number;
            /**
             * @description The community (id or slug).
             * @example space-pirates
             */
            communityId: string;
            description?: string;
            /**
             * Format: date-time
             * @example 2025-06-12T12:00:00.000Z
             */
            endsAt: string;
            /**
             * @example [
             *       "score-based"
             *     ]
             */
            features?: string[];
            /** Format: uri */
            imageUrl?: string;
            maxRank?: number;
            /** @default 1 */
            minScore: number;
            /** @example Spring Cup */
            name: string;
            /** @description false: the event is created as a draft (invisible to users) and published later. Default true. */
            publish?: boolean;
            /**
             * Format: date-time
             * @example 2025-06-07T12:00:00.000Z
             */
            registrationEndsAt: string;
            /**
             * Format: date-time
             * @example 2025-06-01T12:00:00.000Z
             */
            registrationStartsAt: string;
            /**
             * Format: uuid
             * @description A scoped resource type of the same community whose `questEventId` is empty or this event.
             */
            scoreResourceTypeId?: string;
            /**
             * @description Lowercase letters, digits and dashes, unique in the tenant, not uuid-shaped.
             * @example spring-cup
             */
            slug: string;
            /**
             * Format: date-time
             * @example 2025-06-05T12:00:00.000Z
             */
            startsAt: string;
        };
        CreateRequirementDto: {
            description?: string;
            /**
             * Format: uuid
             * @description `owns_item` only: an inventory item of the tenant.
             */
            itemId?: string;
            /**
             * @description Unique in the tenant: 1-64 lowercase letters, digits, `-`, `_`.
             * @example shipping-address
             */
            key: string;
            /**
             * @description `data`: the buyer sends an object matching `schema`. `owns_item`: owns `itemId`. `min_resource`: has earned at least `minAmount` of `resourceTypeId`.
             * @example data
             * @enum {string}
             */
            kind: "data" | "owns_item" | "min_resource";
            /** @description `min_resource` only: the minimum earned amount. */
            minAmount?: number;
            /** @example Shipping address */
            name: string;
            /** @description `data` only: whether the data is personal (then it is stored encrypted). Default true. */
            personalData?: boolean;
            /**
             * Format: uuid
             * @description `min_resource` only: a resource type of the tenant.
             */
            resourceTypeId?: string;
            /**
             * @description `data` only: a JSON Schema (draft 2020-12 subset ajv supports, formats such as `email` included) with `type: "object"` at the top. At most 16 KB.
             * @example {
             *       "additionalProperties": false,
             *       "properties": {
             *         "addressLine1": {
             *           "maxLength": 200,
             *           "type": "string"
             *         },
             *         "city": {
             *           "maxLength": 100,
             *           "type": "string"
             *         },
             *         "country": {
             *           "maxLength": 64,
             *           "type": "string"
             *         }
             *       },
             *       "required": [
             *         "addressLine1",
             *         "city",
             *         "country"
             *       ],
             *       "type": "object"
             *     }
             */
            schema?: {
                [key: string]: unknown;
            };
        };
        CreateResourceTypeDto: {
            /** @description Community id or slug. */
            communityId: string;
            description?: string;
            /** Format: uri */
            imageUrl?: string;
            /**
             * @example global
             * @enum {string}
             */
            kind: "global" | "scoped";
            /** @example Experience points */
            name: string;
            /**
             * Format: uuid
             * @description Scoped resources: the quest event they belong to (not checked until quest events exist).
             */
            questEventId?: string;
            /**
             * @description 1-64 lowercase letters, digits, dashes and underscores.
             * @example xp
             */
            slug: string;
        };
        CreateRewardDto: {
            /**
             * @description Units given per claim (default 1).
             * @default 1
             */
            amount: number;
            description?: string;
            /** Format: uuid */
            itemId?: string;
            /**
             * @description `resource`: credits `amount` of `resourceTypeId`; `item`: grants `amount` units of `itemId`; `manual`: the operator fulfils it with the submitted data.
             * @example resource
             * @enum {string}
             */
            kind: "resource" | "item" | "manual";
            /** @example Golden ticket */
            name: string;
            /** @description Rank bracket (inclusive) of the participants allocated this reward; absent: no bound. */
            rankFrom?: number;
            rankTo?: number;
            requiresAddress?: boolean;
            requiresEmail?: boolean;
            requiresWalletAddress?: boolean;
            /** Format: uuid */
            resourceTypeId?: string;
            /** @description Claims available in total; absent: unlimited. */
            supply?: number;
            /**
             * @description Tickets one claim spends (default 1).
             * @default 1
             */
            ticketCost: number;
            /**
             * @description Tickets each eligible participant is allocated for this reward (default 1).
             * @default 1
             */
            tickets: number;
        };
        CreateSeasonDto: {
            /**
             * @description The community (id or slug).
             * @example pixel-pirates
             */
            communityId: string;
            /**
             * Format: date-time
             * @example 2026-12-08T00:00:00.000Z
             */
            endsAt: string;
            /** @example Weekly XP */
            name: string;
            /** @description Only completions of these quests count (Zealy's `includedQuestIds`); absent: every earning. */
            questIds?: string[];
            /**
             * @description Only ledger entries with one of these reasons count (e.g. `quest_completion`); absent: every earning.
             * @example [
             *       "quest_completion"
             *     ]
             */
            reasons?: string[];
            /**
             * @description The ranked resource type of the community (id or slug).
             * @example xp
             */
            resourceTypeId: string;
            rewards?: components["schemas"]["SeasonRewardDto"][];
            /**
             * Format: date-time
             * @description When it opens; absent: now (a few seconds from now). Never in the past: earnings count as they are written.
             * @example 2026-12-01T00:00:00.000Z
             */
            startsAt?: string;
        };
        CreateSeasonScheduleDto: {
            /**
             * @description The community (id or slug).
             * @example pixel-pirates
             */
            communityId: string;
            /**
             * @description Five or six fields (seconds first); each occurrence ends a season and opens the next. At most hourly.
             * @example 0 0 * * 1
             */
            cron: string;
            /** @example Weekly XP */
            name: string;
            /** @description Only completions of these quests count (Zealy's `includedQuestIds`); absent: every earning. */
            questIds?: string[];
            /**
             * @description Only ledger entries with one of these reasons count (e.g. `quest_completion`); absent: every earning.
             * @example [
             *       "quest_completion"
             *     ]
             */
            reasons?: string[];
            /**
             * @description The ranked resource type of the community (id or slug).
             * @example xp
             */
            resourceTypeId: string;
            rewards?: components["schemas"]["SeasonRewardDto"][];
            /**
             * @description IANA time zone of the cron expression.
             * @example Europe/Berlin
             */
            timeZone: string;
        };
        CreateSlotDto: {
            /**
             * @description Community id or slug.
             * @example space-pirates
             */
            communityId: string;
            description?: string;
            /**
             * @description 1-64 lowercase letters, digits, `_` and `-`; unique in the community; not uuid-shaped.
             * @example head
             */
            key: string;
            /** @example Head */
            name: string;
            /** @description Display and layering order (default 0). */
            position?: number;
        };
        CreateSubscriptionDto: {
            /**
             * @description Inactive: its events are not queued while it is (deliveries queued before wait until it is active again).
             * @default true
             */
            active: boolean;
            /** @example Game server (production) */
            description?: string;
            /**
             * @description Event types to deliver (`*`: every type): `avatar.minted`, `community.joined`, `inventory.item_granted`, `participant.status_changed`, `prize.awarded`, `quest.completed`, `quest_event.status_changed`, `resource.credited`, `resource.debited`, `reward.allocated`, `reward.claimed`, `season.closed`, `season.created`, `season.rewarded`, `social.linked`, `store.purchase_completed`, `user.logged_in`, `user.registered`.
             * @example [
             *       "store.purchase_completed",
             *       "quest.completed"
             *     ]
             */
            eventTypes: string[];
            /**
             * Format: uri
             * @description Where deliveries are POSTed: http(s), no credentials; its host must resolve to public addresses only.
             * @example https://game.example.com/hooks/cgs
             */
            url: string;
        };
        CredentialLoginDto: {
            /**
             * @description providerA's signed OpenID Connect ID token (JWT), `aud` = the tenant's providerA client id.
             * @example eyJhbGciOiJSUzI1NiIsImtpZCI6ImtleS0xIn0.eyJpc3MiOiIuLi4ifQ.c2ln
             */
            credential: string;
            /**
             * @description Handle of the user who referred this one. Used only when this login creates the user; an
             *     unknown handle is ignored, the user's own handle is refused (400 self_referral).
             * @example ada_lovelace
             */
            referrerHandle?: string;
        };
        CurrentSessionDto: {
            /**
             * Format: uuid
             * @example af36c48f-16d9-4540-9739-91b185fe8d3e
             */
            tenantId: string;
            /**
             * Format: uuid
             * @example 3b241101-e2bb-4255-8caf-4136c566a962
             */
            userId: string;
        };
        DateOfBirthDto: {
            /** @example 10 */
            day: number;
            /** @example 12 */
            month: number;
            /** @example 1990 */
            year: number;
        };
        DeductResourceDto: {
            /**
             * @description A positive integer, at most 10^12.
             * @example 100
             */
            amount: number;
            /**
             * @description Unique per tenant: a retried call with the same key changes nothing and returns the first result.
             * @example match-8812-winner
             */
            idempotencyKey: string;
            /** @description false (default): lowers the spendable balance only (rank kept). true: lowers the earned total (rank) too. */
            lowerEarned?: boolean;
            /**
             * @description Why, e.g. `match_won`. Stored in the ledger.
             * @example match_won
             */
            reason: string;
            /** @description What it refers to, e.g. a match id. */
            reference?: string;
            /**
             * Format: uuid
             * @example 0b8f6f57-5a53-4d4c-9d3e-6f1c1b2f7a10
             */
            resourceTypeId: string;
            /**
             * Format: uuid
             * @example 3b241101-e2bb-4255-8caf-4136c566a962
             */
            userId: string;
        };
        DeliveryDto: {
            /**
             * @description Attempts since it was (re)queued.
             * @example 3
             */
            attempts: number;
            /**
             * Format: date-time
             * @example 2026-11-25T12:00:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-11-25T12:00:00.000Z
             */
            deliveredAt: string | null;
            /**
             * Format: uuid
             * @description The event id (the `X-CGS-Event-Id` header).
             * @example c0ffee00-1234-4abc-8def-0123456789ab
             */
            eventId: string;
            /** @example store.purchase_completed */
            eventType: string;
            /** @description Every attempt, oldest first (redeliveries included). */
            history: components["schemas"]["AttemptDto"][];
            /**
             * Format: uuid
             * @example 9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d
             */
            id: string;
            /** @example HTTP 500 */
            lastError: string | null;
            /** @example 500 */
            lastStatusCode: number | null;
            /**
             * Format: date-time
             * @description When it is next due (pending), or when its lease runs out (delivering).
             * @example 2026-11-25T12:00:00.000Z
             */
            nextAttemptAt: string;
            /**
             * @description `pending`: waiting for its next attempt; `delivering`: an attempt is in flight; `dead`: retried for the whole window and given up.
             * @enum {string}
             */
            status: "pending" | "delivering" | "delivered" | "dead";
            /**
             * Format: uuid
             * @example 3f2b8c1e-6d4a-4e5f-9a7b-1c2d3e4f5a6b
             */
            subscriptionId: string;
        };
        DropParticipantDto: {
            /**
             * @description Why (disqualification, unmet entry requirement...).
             * @example Unmet entry requirement
             */
            reason?: string;
            /**
             * Format: uuid
             * @example 3b241101-e2bb-4255-8caf-4136c566a962
             */
            userId: string;
        };
        EarnedOnDayDto: {
            /**
             * Format: date
             * @description The UTC day.
             * @example 2026-11-24
             */
            day: string;
            /**
             * @description What was earned that day (grants, quest rewards...: the positive changes of the earned total).
             * @example 4200
             */
            earned: number;
            /**
             * @description How many players earned some.
             * @example 17
             */
            players: number;
        };
        EarnedPerDayDto: {
            /** @description Every day of the window, the oldest first (days without earnings included, at 0). */
            days: components["schemas"]["EarnedOnDayDto"][];
            /**
             * Format: uuid
             * @example 0b8f6f57-5a53-4d4c-9d3e-6f1c1b2f7a10
             */
            resourceTypeId: string;
            /** @example xp */
            slug: string;
        };
        ErrorBodyDto: {
            /**
             * @description Stable numeric code. Every 400 uses 10002; every other case has its own (see the error table).
             * @example 10002
             */
            code: number;
            /**
             * @description Human-readable explanation of this request's error, for logs and developers; its wording may change, never parse it.
             * @example username must be longer than or equal to 3 characters
             */
            detail: string;
            /** @description Structured detail for some errors (e.g. which fields or which requirement failed). */
            details?: {
                [key: string]: unknown;
            };
            /**
             * @description Stable identifier of the precise case (e.g. `validation_failed`, `event_full`, `login_token_replayed`).
             * @example validation_failed
             */
            error: string;
            /**
             * @description The interface's identifier, for clients to compare: `generic_client_error` for every 400; `GENERIC_UNAUTHORIZED`, `SESSION_TOKEN_EXPIRED` (refresh the session) or `REFRESH_TOKEN_EXPIRED` (log in again) for every 401; the `error` identifier for every other status.
             * @example generic_client_error
             */
            message: string;
            /**
             * @description Id of the request, also in the X-Request-Id header.
             * @example 5f0c6a52-3b1e-4f4e-9d3c-2a8f9b1e7c11
             */
            requestId?: string;
        };
        EventTypeDto: {
            /** @example A purchase in the store completed. */
            description: string;
            /**
             * @description The JSON Schema of `data` (also in components.schemas as `WebhookEvent_<type>`).
             * @example {
             *       "type": "object"
             *     }
             */
            schema: {
                [key: string]: unknown;
            };
            /** @example store.purchase_completed */
            type: string;
            /** @example 1 */
            version: number;
        };
        EventTypeListDto: {
            items: components["schemas"]["EventTypeDto"][];
        };
        GrantItemDto: {
            /** @description Unique per tenant: a retry with the same key grants nothing more and returns the first grant. */
            idempotencyKey?: string;
            /**
             * Format: uuid
             * @example 0f9e8d7c-6b5a-4c3d-9e2f-1a0b9c8d7e6f
             */
            itemId: string;
            /** @description Default 1. */
            quantity?: number;
            /**
             * @description Why, e.g. `tournament_prize`. Stored in the item ledger.
             * @example tournament_prize
             */
            reason: string;
            reference?: string;
            /**
             * Format: uuid
             * @example 3b241101-e2bb-4255-8caf-4136c566a962
             */
            userId: string;
        };
        GrantResourceDto: {
            /**
             * @description A positive integer, at most 10^12.
             * @example 100
             */
            amount: number;
            /**
             * @description Unique per tenant: a retried call with the same key changes nothing and returns the first result.
             * @example match-8812-winner
             */
            idempotencyKey: string;
            /**
             * @description Why, e.g. `match_won`. Stored in the ledger.
             * @example match_won
             */
            reason: string;
            /** @description What it refers to, e.g. a match id. */
            reference?: string;
            /**
             * Format: uuid
             * @example 0b8f6f57-5a53-4d4c-9d3e-6f1c1b2f7a10
             */
            resourceTypeId: string;
            /**
             * Format: uuid
             * @example 3b241101-e2bb-4255-8caf-4136c566a962
             */
            userId: string;
        };
        InventoryDto: {
            /**
             * Format: uuid
             * @example 5e0c3c1e-2f7e-4f4a-9b7d-0f5e1a9d3c21
             */
            communityId: string;
            /**
             * @description Items the community defines.
             * @example 24
             */
            itemCount: number;
            slots: components["schemas"]["SlotDto"][];
            user: components["schemas"]["InventorySummaryDto"];
        };
        InventorySummaryDto: {
            /**
             * @description Slots with an item allocated.
             * @example 2
             */
            allocatedSlots: number;
            /**
             * @description The avatar version (0 before the first allocation).
             * @example 3
             */
            avatarVersion: number;
            /**
             * @description Distinct items owned.
             * @example 4
             */
            ownedItems: number;
            /**
             * @description Units owned over all items.
             * @example 6
             */
            totalQuantity: number;
            /**
             * Format: uuid
             * @example 3b241101-e2bb-4255-8caf-4136c566a962
             */
            userId: string;
        };
        ItemAttributeDto: {
            /** @example colour */
            traitType: string;
            /**
             * @description A string (at most 200 characters) or a number.
             * @example gold
             */
            value: string | number;
        };
        ItemDto: {
            attributes: components["schemas"]["ItemAttributeDto"][];
            /**
             * Format: uuid
             * @example 5e0c3c1e-2f7e-4f4a-9b7d-0f5e1a9d3c21
             */
            communityId: string;
            /** @example Worn by the season champion. */
            description: string;
            /**
             * @description Units granted so far.
             * @example 12
             */
            granted: number;
            /**
             * Format: uuid
             * @example 0f9e8d7c-6b5a-4c3d-9e2f-1a0b9c8d7e6f
             */
            id: string;
            /** @example https://cdn.example.com/items/crown.png */
            imageUrl: string | null;
            /** @example Golden crown */
            name: string;
            /** @example legendary */
            rarity: string;
            /**
             * @description Units left (`supply - granted`); null when unlimited.
             * @example 88
             */
            remaining: number | null;
            /**
             * Format: uuid
             * @description The slot the item fits.
             * @example 7c1f0e4a-1b2c-4d3e-8f9a-0b1c2d3e4f50
             */
            slotId: string;
            /** @example head */
            slotKey: string;
            /**
             * @description Units that can ever be granted; null means unlimited.
             * @example 100
             */
            supply: number | null;
        };
        ItemGrantResultDto: {
            /**
             * Format: uuid
             * @example 9d7e1c53-0a41-4f6c-8f8f-2d1c6c3f7b11
             */
            grantId: string;
            /**
             * Format: uuid
             * @example 0f9e8d7c-6b5a-4c3d-9e2f-1a0b9c8d7e6f
             */
            itemId: string;
            /**
             * @description What the user owns after the grant.
             * @example 2
             */
            ownedQuantity: number;
            /** @example 1 */
            quantity: number;
            /**
             * @description true when the idempotency key had already been used: nothing was granted.
             * @example false
             */
            replayed: boolean;
            /**
             * Format: uuid
             * @example 3b241101-e2bb-4255-8caf-4136c566a962
             */
            userId: string;
        };
        LeaderboardEntryDto: {
            /**
             * @description Earned total of the resource (spending in the store does not lower it).
             * @example 1500
             */
            amount: number;
            /** @example Grace */
            displayName: string | null;
            /** @example grace_hopper */
            handle: string;
            /**
             * @description Equal amounts share a rank (1, 2, 2, 4).
             * @example 1
             */
            rank: number;
            /**
             * Format: uuid
             * @example 3b241101-e2bb-4255-8caf-4136c566a962
             */
            userId: string;
        };
        LedgerEntryDto: {
            /**
             * Format: date-time
             * @example 2025-01-01T12:00:00.000Z
             */
            createdAt: string;
            /** @example -50 */
            delta: number;
            /** @example 0 */
            earnedDelta: number;
            /**
             * Format: uuid
             * @example 9d7e1c53-0a41-4f6c-8f8f-2d1c6c3f7b11
             */
            id: string;
            /** @example order-1234-pay */
            idempotencyKey: string | null;
            /** @example purchase */
            reason: string;
            /** @example order-1234 */
            reference: string | null;
            /**
             * Format: uuid
             * @example 0b8f6f57-5a53-4d4c-9d3e-6f1c1b2f7a10
             */
            resourceTypeId: string;
            /**
             * Format: uuid
             * @example 3b241101-e2bb-4255-8caf-4136c566a962
             */
            userId: string;
        };
        LedgerResultDto: {
            /**
             * @description Spendable balance after the operation (for a replay: the current one).
             * @example 350
             */
            balance: number;
            /**
             * Format: date-time
             * @example 2025-01-01T12:00:00.000Z
             */
            createdAt: string;
            /**
             * @description Change of the spendable balance.
             * @example 100
             */
            delta: number;
            /**
             * @description Earned total after the operation (for a replay: the current one).
             * @example 500
             */
            earned: number;
            /**
             * @description Change of the earned total (what the leaderboard ranks).
             * @example 100
             */
            earnedDelta: number;
            /**
             * Format: uuid
             * @example 9d7e1c53-0a41-4f6c-8f8f-2d1c6c3f7b11
             */
            entryId: string;
            /**
             * @description true when the idempotency key had already been used: nothing was changed.
             * @example false
             */
            replayed: boolean;
            /**
             * Format: uuid
             * @example 0b8f6f57-5a53-4d4c-9d3e-6f1c1b2f7a10
             */
            resourceTypeId: string;
            /**
             * Format: uuid
             * @example 3b241101-e2bb-4255-8caf-4136c566a962
             */
            userId: string;
        };
        LinkSocialDto: {
            /**
             * @description One of the supported account types (see the list in the description of `POST /v1/user/socials`); case-insensitive.
             * @example discord
             */
            accountType: string;
            /**
             * @description The provider's account-creation information: a JSON object, at most 4 KB and 5 levels deep.
             * @example {
             *       "at": "2019-03-02T10:00:00Z",
             *       "source": "discord"
             *     }
             */
            createdAt?: {
                [key: string]: unknown;
            } | null;
            /**
             * Format: date-time
             * @description When the stored tokens expire: ISO 8601 date-time with `Z` or an offset, or a date (midnight UTC).
             * @example 2026-05-01T12:00:00Z
             */
            expiryDate?: string | null;
            /**
             * @description Provider-specific data: a JSON object, at most 4 KB and 5 levels deep.
             * @example {
             *       "scopes": [
             *         "identify"
             *       ]
             *     }
             */
            extraArgs?: {
                [key: string]: unknown;
            } | null;
            /**
             * @description The name shown for the account (e.g. `ada#1234`).
             * @example ada_plays
             */
            handle?: string | null;
            /**
             * @description Whether the account shows on the user's public profile.
             * @example true
             */
            public: boolean;
            /**
             * @description Refresh token for the provider. Stored encrypted; never returned.
             * @example 1//0g...
             */
            refreshToken?: string | null;
            /**
             * @description A server, guild or region the account belongs to.
             * @example eu-west
             */
            server?: string | null;
            /**
             * @description The account's id at the provider (case-sensitive).
             * @example 80351110224678912
             */
            subjectId: string;
            /**
             * @description Access token for the provider. Stored encrypted; never returned.
             * @example ya29.a0Af...
             */
            userToken?: string | null;
        };
        ListingDto: {
            /** @example true */
            active: boolean;
            /**
             * @description `enrichRequirements=true` only: whether the user can buy it now (given saved or new data for data requirements).
             * @example false
             */
            canBuy?: boolean;
            /**
             * Format: uuid
             * @example 5e0c3c1e-2f7e-4f4a-9b7d-0f5e1a9d3c21
             */
            communityId: string;
            /**
             * Format: date-time
             * @example 2025-01-01T12:00:00.000Z
             */
            createdAt: string;
            /** @example A shiny sword. */
            description: string;
            /**
             * Format: date-time
             * @example null
             */
            endsAt: string | null;
            /**
             * Format: uuid
             * @example 1c9a3c56-8f0b-4b1e-9c0e-5d6f7a8b9c01
             */
            id: string;
            /** @example null */
            imageUrl: string | null;
            /**
             * Format: uuid
             * @example 7d0c1b3e-2f4a-4b5c-8d6e-9f0a1b2c3d4e
             */
            itemId: string | null;
            /**
             * @example item
             * @enum {string}
             */
            kind: "item" | "prize" | "resource";
            /** @example Golden sword */
            name: string;
            /** @example 2 */
            perUserLimit: number | null;
            /** @example 0 */
            position: number;
            price: components["schemas"]["PriceComponentDto"][];
            /**
             * Format: uuid
             * @example null
             */
            prizeId: string | null;
            /**
             * @description `enrichRequirements=true` only: how many times the user bought this listing.
             * @example 1
             */
            purchasedCount?: number;
            /**
             * @description Units granted per purchase.
             * @example 1
             */
            quantity: number;
            /**
             * @description Purchases left (null: unlimited). totalSupply = remainingSupply + sold.
             * @example 58
             */
            remainingSupply: number | null;
            /**
             * @example [
             *       "6a8e1d1e-7a55-4a8a-9b43-3d2f0b9b1e11"
             *     ]
             */
            requirementIds: string[];
            /** @description `enrichRequirements=true` only: the requirement definitions with the user's saved data. */
            requirements?: components["schemas"]["UserRequirementDto"][];
            /**
             * Format: uuid
             * @example null
             */
            resourceTypeId: string | null;
            /** @example 42 */
            sold: number;
            /**
             * Format: date-time
             * @example null
             */
            startsAt: string | null;
            /**
             * @description null: unlimited.
             * @example 100
             */
            totalSupply: number | null;
            /**
             * @description `enrichRequirements=true` only: why not, any of `not_started`, `ended`, `sold_out`,
             *     `limit_reached`, `insufficient_balance`, `requirement_not_met:<requirementId>`.
             * @example [
             *       "insufficient_balance"
             *     ]
             */
            unavailableReasons?: string[];
        };
        LogoutDto: {
            /** @description End every session of the current user (log out everywhere). */
            all?: boolean;
            /** @description The refresh token of the session to end. Required unless `all` is true. */
            refreshToken?: string;
        };
        MembershipDto: {
            /**
             * Format: uuid
             * @example 5e0c3c1e-2f7e-4f4a-9b7d-0f5e1a9d3c21
             */
            communityId: string;
            /**
             * @description true when this call created the membership (201); false when the user was already a member (200).
             * @example true
             */
            created: boolean;
            /**
             * Format: date-time
             * @example 2025-01-01T12:00:00.000Z
             */
            joinedAt: string;
            /**
             * @description Handle of the member who referred the user into the community, if any.
             * @example grace_hopper
             */
            referrerHandle: string | null;
            /**
             * Format: uuid
             * @example 3b241101-e2bb-4255-8caf-4136c566a962
             */
            userId: string;
        };
        MintAvatarDto: {
            /**
             * @description A configured blockchain name.
             * @example base-sepolia
             */
            blockchain: string;
        };
        NftAttributeDto: {
            /** @example Head */
            trait_type: string;
            /** @example Golden crown */
            value: string | number;
        };
        NftMetadataDto: {
            attributes: components["schemas"]["NftAttributeDto"][];
            /** @example The avatar of captain in Space Pirates, version 3. */
            description: string;
            /** @example https://cdn.example.com/items/crown.png */
            image?: string;
            /** @example Space Pirates avatar of captain #3 */
            name: string;
        };
        NotificationDto: {
            /**
             * Format: uuid
             * @description The community it is about; null for account-wide notifications.
             * @example null
             */
            communityId: string | null;
            /**
             * Format: date-time
             * @example 2026-05-01T12:00:00.000Z
             */
            createdAt: string;
            /**
             * @description Details of the subject (ids to link to); the shape depends on `type`.
             * @example {
             *       "communityId": null,
             *       "referredHandle": "grace_h",
             *       "referredUserId": "3b241101-e2bb-4255-8caf-4136c566a962"
             *     }
             */
            data: {
                [key: string]: unknown;
            };
            /**
             * Format: uuid
             * @example 0d3c1e8a-7c43-4a8e-9a36-2f4f7d6f2b10
             */
            id: string;
            /** @example false */
            read: boolean;
            /**
             * Format: date-time
             * @example null
             */
            readAt: string | null;
            /** @example grace_h joined with your referral */
            title: string;
            /** @example referral_joined */
            type: components["schemas"]["NotificationType"];
        };
        NotificationPageDto: {
            /**
             * @description Whether a later page has items.
             * @example true
             */
            hasNextPage: boolean;
            items: components["schemas"]["NotificationDto"][];
            /**
             * @description The page size used.
             * @example 20
             */
            limit: number;
            /**
             * @description The page returned (1-based).
             * @example 1
             */
            page: number;
            /**
             * @description Number of items over all pages.
             * @example 42
             */
            total: number;
            /**
             * @description Unread notifications over all pages of this list (this community plus account-wide ones).
             * @example 3
             */
            unreadCount: number;
        };
        /** @enum {string} */
        NotificationType: "event_registered" | "event_completed" | "tickets_allocated" | "claim_processed" | "purchase_completed" | "item_granted" | "mint_finished" | "referral_joined" | "prize_awarded" | "season_reward" | "system";
        PaginatedAdminHolding: {
            /**
             * @description Whether a later page has items.
             * @example true
             */
            hasNextPage: boolean;
            items: components["schemas"]["AdminHoldingDto"][];
            /**
             * @description The page size used.
             * @example 20
             */
            limit: number;
            /**
             * @description The page returned (1-based).
             * @example 1
             */
            page: number;
            /**
             * @description Number of items over all pages.
             * @example 42
             */
            total: number;
        };
        PaginatedAdminParticipant: {
            /**
             * @description Whether a later page has items.
             * @example true
             */
            hasNextPage: boolean;
            items: components["schemas"]["AdminParticipantDto"][];
            /**
             * @description The page size used.
             * @example 20
             */
            limit: number;
            /**
             * @description The page returned (1-based).
             * @example 1
             */
            page: number;
            /**
             * @description Number of items over all pages.
             * @example 42
             */
            total: number;
        };
        PaginatedAdminPurchase: {
            /**
             * @description Whether a later page has items.
             * @example true
             */
            hasNextPage: boolean;
            items: components["schemas"]["AdminPurchaseDto"][];
            /**
             * @description The page size used.
             * @example 20
             */
            limit: number;
            /**
             * @description The page returned (1-based).
             * @example 1
             */
            page: number;
            /**
             * @description Number of items over all pages.
             * @example 42
             */
            total: number;
        };
        PaginatedAdminRewardAllocation: {
            /**
             * @description Whether a later page has items.
             * @example true
             */
            hasNextPage: boolean;
            items: components["schemas"]["AdminRewardAllocationDto"][];
            /**
             * @description The page size used.
             * @example 20
             */
            limit: number;
            /**
             * @description The page returned (1-based).
             * @example 1
             */
            page: number;
            /**
             * @description Number of items over all pages.
             * @example 42
             */
            total: number;
        };
        PaginatedAdminUserParticipation: {
            /**
             * @description Whether a later page has items.
             * @example true
             */
            hasNextPage: boolean;
            items: components["schemas"]["AdminUserParticipationDto"][];
            /**
             * @description The page size used.
             * @example 20
             */
            limit: number;
            /**
             * @description The page returned (1-based).
             * @example 1
             */
            page: number;
            /**
             * @description Number of items over all pages.
             * @example 42
             */
            total: number;
        };
        PaginatedCommunity: {
            /**
             * @description Whether a later page has items.
             * @example true
             */
            hasNextPage: boolean;
            items: components["schemas"]["CommunityDto"][];
            /**
             * @description The page size used.
             * @example 20
             */
            limit: number;
            /**
             * @description The page returned (1-based).
             * @example 1
             */
            page: number;
            /**
             * @description Number of items over all pages.
             * @example 42
             */
            total: number;
        };
        PaginatedCommunityMember: {
            /**
             * @description Whether a later page has items.
             * @example true
             */
            hasNextPage: boolean;
            items: components["schemas"]["CommunityMemberDto"][];
            /**
             * @description The page size used.
             * @example 20
             */
            limit: number;
            /**
             * @description The page returned (1-based).
             * @example 1
             */
            page: number;
            /**
             * @description Number of items over all pages.
             * @example 42
             */
            total: number;
        };
        PaginatedCommunityReferral: {
            /**
             * @description Whether a later page has items.
             * @example true
             */
            hasNextPage: boolean;
            items: components["schemas"]["CommunityReferralDto"][];
            /**
             * @description The page size used.
             * @example 20
             */
            limit: number;
            /**
             * @description The page returned (1-based).
             * @example 1
             */
            page: number;
            /**
             * @description Number of items over all pages.
             * @example 42
             */
            total: number;
        };
        PaginatedDelivery: {
            /**
             * @description Whether a later page has items.
             * @example true
             */
            hasNextPage: boolean;
            items: components["schemas"]["DeliveryDto"][];
            /**
             * @description The page size used.
             * @example 20
             */
            limit: number;
            /**
             * @description The page returned (1-based).
             * @example 1
             */
            page: number;
            /**
             * @description Number of items over all pages.
             * @example 42
             */
            total: number;
        };
        PaginatedItem: {
            /**
             * @description Whether a later page has items.
             * @example true
             */
            hasNextPage: boolean;
            items: components["schemas"]["ItemDto"][];
            /**
             * @description The page size used.
             * @example 20
             */
            limit: number;
            /**
             * @description The page returned (1-based).
             * @example 1
             */
            page: number;
            /**
             * @description Number of items over all pages.
             * @example 42
             */
            total: number;
        };
        PaginatedLeaderboardEntry: {
            /**
             * @description Whether a later page has items.
             * @example true
             */
            hasNextPage: boolean;
            items: components["schemas"]["LeaderboardEntryDto"][];
            /**
             * @description The page size used.
             * @example 20
             */
            limit: number;
            /**
             * @description The page returned (1-based).
             * @example 1
             */
            page: number;
            /**
             * @description Number of items over all pages.
             * @example 42
             */
            total: number;
        };
        PaginatedLedgerEntry: {
            /**
             * @description Whether a later page has items.
             * @example true
             */
            hasNextPage: boolean;
            items: components["schemas"]["LedgerEntryDto"][];
            /**
             * @description The page size used.
             * @example 20
             */
            limit: number;
            /**
             * @description The page returned (1-based).
             * @example 1
             */
            page: number;
            /**
             * @description Number of items over all pages.
             * @example 42
             */
            total: number;
        };
        PaginatedListing: {
            /**
             * @description Whether a later page has items.
             * @example true
             */
            hasNextPage: boolean;
            items: components["schemas"]["ListingDto"][];
            /**
             * @description The page size used.
             * @example 20
             */
            limit: number;
            /**
             * @description The page returned (1-based).
             * @example 1
             */
            page: number;
            /**
             * @description Number of items over all pages.
             * @example 42
             */
            total: number;
        };
        PaginatedParticipantListItem: {
            /**
             * @description Whether a later page has items.
             * @example true
             */
            hasNextPage: boolean;
            items: components["schemas"]["ParticipantListItemDto"][];
            /**
             * @description The page size used.
             * @example 20
             */
            limit: number;
            /**
             * @description The page returned (1-based).
             * @example 1
             */
            page: number;
            /**
             * @description Number of items over all pages.
             * @example 42
             */
            total: number;
        };
        PaginatedPrize: {
            /**
             * @description Whether a later page has items.
             * @example true
             */
            hasNextPage: boolean;
            items: components["schemas"]["PrizeDto"][];
            /**
             * @description The page size used.
             * @example 20
             */
            limit: number;
            /**
             * @description The page returned (1-based).
             * @example 1
             */
            page: number;
            /**
             * @description Number of items over all pages.
             * @example 42
             */
            total: number;
        };
        PaginatedPrizeOwner: {
            /**
             * @description Whether a later page has items.
             * @example true
             */
            hasNextPage: boolean;
            items: components["schemas"]["PrizeOwnerDto"][];
            /**
             * @description The page size used.
             * @example 20
             */
            limit: number;
            /**
             * @description The page returned (1-based).
             * @example 1
             */
            page: number;
            /**
             * @description Number of items over all pages.
             * @example 42
             */
            total: number;
        };
        PaginatedPurchase: {
            /**
             * @description Whether a later page has items.
             * @example true
             */
            hasNextPage: boolean;
            items: components["schemas"]["PurchaseDto"][];
            /**
             * @description The page size used.
             * @example 20
             */
            limit: number;
            /**
             * @description The page returned (1-based).
             * @example 1
             */
            page: number;
            /**
             * @description Number of items over all pages.
             * @example 42
             */
            total: number;
        };
        PaginatedQuest: {
            /**
             * @description Whether a later page has items.
             * @example true
             */
            hasNextPage: boolean;
            items: components["schemas"]["QuestDto"][];
            /**
             * @description The page size used.
             * @example 20
             */
            limit: number;
            /**
             * @description The page returned (1-based).
             * @example 1
             */
            page: number;
            /**
             * @description Number of items over all pages.
             * @example 42
             */
            total: number;
        };
        PaginatedQuestEvent: {
            /**
             * @description Whether a later page has items.
             * @example true
             */
            hasNextPage: boolean;
            items: components["schemas"]["QuestEventDto"][];
            /**
             * @description The page size used.
             * @example 20
             */
            limit: number;
            /**
             * @description The page returned (1-based).
             * @example 1
             */
            page: number;
            /**
             * @description Number of items over all pages.
             * @example 42
             */
            total: number;
        };
        PaginatedRequirement: {
            /**
             * @description Whether a later page has items.
             * @example true
             */
            hasNextPage: boolean;
            items: components["schemas"]["RequirementDto"][];
            /**
             * @description The page size used.
             * @example 20
             */
            limit: number;
            /**
             * @description The page returned (1-based).
             * @example 1
             */
            page: number;
            /**
             * @description Number of items over all pages.
             * @example 42
             */
            total: number;
        };
        PaginatedResourceType: {
            /**
             * @description Whether a later page has items.
             * @example true
             */
            hasNextPage: boolean;
            items: components["schemas"]["ResourceTypeDto"][];
            /**
             * @description The page size used.
             * @example 20
             */
            limit: number;
            /**
             * @description The page returned (1-based).
             * @example 1
             */
            page: number;
            /**
             * @description Number of items over all pages.
             * @example 42
             */
            total: number;
        };
        PaginatedSeason: {
            /**
             * @description Whether a later page has items.
             * @example true
             */
            hasNextPage: boolean;
            items: components["schemas"]["SeasonDto"][];
            /**
             * @description The page size used.
             * @example 20
             */
            limit: number;
            /**
             * @description The page returned (1-based).
             * @example 1
             */
            page: number;
            /**
             * @description Number of items over all pages.
             * @example 42
             */
            total: number;
        };
        PaginatedSeasonPayout: {
            /**
             * @description Whether a later page has items.
             * @example true
             */
            hasNextPage: boolean;
            items: components["schemas"]["SeasonPayoutDto"][];
            /**
             * @description The page size used.
             * @example 20
             */
            limit: number;
            /**
             * @description The page returned (1-based).
             * @example 1
             */
            page: number;
            /**
             * @description Number of items over all pages.
             * @example 42
             */
            total: number;
        };
        PaginatedSeasonSchedule: {
            /**
             * @description Whether a later page has items.
             * @example true
             */
            hasNextPage: boolean;
            items: components["schemas"]["SeasonScheduleDto"][];
            /**
             * @description The page size used.
             * @example 20
             */
            limit: number;
            /**
             * @description The page returned (1-based).
             * @example 1
             */
            page: number;
            /**
             * @description Number of items over all pages.
             * @example 42
             */
            total: number;
        };
        PaginatedUserItem: {
            /**
             * @description Whether a later page has items.
             * @example true
             */
            hasNextPage: boolean;
            items: components["schemas"]["UserItemDto"][];
            /**
             * @description The page size used.
             * @example 20
             */
            limit: number;
            /**
             * @description The page returned (1-based).
             * @example 1
             */
            page: number;
            /**
             * @description Number of items over all pages.
             * @example 42
             */
            total: number;
        };
        PaginatedUserPrize: {
            /**
             * @description Whether a later page has items.
             * @example true
             */
            hasNextPage: boolean;
            items: components["schemas"]["UserPrizeDto"][];
            /**
             * @description The page size used.
             * @example 20
             */
            limit: number;
            /**
             * @description The page returned (1-based).
             * @example 1
             */
            page: number;
            /**
             * @description Number of items over all pages.
             * @example 42
             */
            total: number;
        };
        ParticipantDto: {
            /** @example null */
            dropReason: string | null;
            /**
             * Format: uuid
             * @example 9d6b1f0e-1c2d-4e3f-8a9b-0c1d2e3f4a5b
             */
            eventId: string;
            /**
             * Format: date-time
             * @example 2025-06-12T12:00:00.000Z
             */
            registeredAt: string;
            /**
             * @description The score (earned scoped resource) as of `scoreSyncedAt`.
             * @example 420
             */
            score: number;
            /**
             * Format: date-time
             * @example 2025-06-12T12:00:00.000Z
             */
            scoreSyncedAt: string | null;
            /**
             * @description ParticipantStatus: 1 REGISTERED, 2 UNREGISTERED, 3 DROPPED, 4 CANCELLED.
             * @example 1
             * @enum {number}
             */
            status: 1 | 2 | 3 | 4;
            /**
             * Format: date-time
             * @example 2025-06-12T12:00:00.000Z
             */
            statusChangedAt: string;
            /**
             * @example REGISTERED
             * @enum {string}
             */
            statusName: "REGISTERED" | "UNREGISTERED" | "DROPPED" | "CANCELLED";
            /**
             * Format: uuid
             * @example 3b241101-e2bb-4255-8caf-4136c566a962
             */
            userId: string;
        };
        ParticipantListItemDto: {
            /** @example Grace */
            displayName: string | null;
            /** @example grace_hopper */
            handle: string;
            /**
             * Format: date-time
             * @example 2025-06-12T12:00:00.000Z
             */
            registeredAt: string;
            /** @example 420 */
            score: number;
            /**
             * Format: uuid
             * @example 3b241101-e2bb-4255-8caf-4136c566a962
             */
            userId: string;
        };
        ParticipantRankDto: {
            above: components["schemas"]["LeaderboardEntryDto"][];
            below: components["schemas"]["LeaderboardEntryDto"][];
            /**
             * Format: uuid
             * @example 9d6b1f0e-1c2d-4e3f-8a9b-0c1d2e3f4a5b
             */
            eventId: string;
            /**
             * @description Equal scores share a rank; null when not REGISTERED or the score is 0.
             * @example 3
             */
            rank: number | null;
            /**
             * @description The live score (earned scoped resource).
             * @example 420
             */
            score: number;
            /**
             * @description ParticipantStatus: 1 REGISTERED, 2 UNREGISTERED, 3 DROPPED, 4 CANCELLED.
             * @example 1
             * @enum {number}
             */
            status: 1 | 2 | 3 | 4;
            /**
             * @description REGISTERED participants with a score > 0.
             * @example 37
             */
            totalRanked: number;
            /**
             * Format: uuid
             * @example 3b241101-e2bb-4255-8caf-4136c566a962
             */
            userId: string;
        };
        PasswordLoginDto: {
            /**
             * Format: password
             * @example correct horse battery staple
             */
            password: string;
            /** @example ada_lovelace */
            username: string;
        };
        PriceComponentDto: {
            /** @example 250 */
            amount: number;
            /**
             * Format: uuid
             * @example 0b8f6f57-5a53-4d4c-9d3e-6f1c1b2f7a10
             */
            resourceTypeId: string;
        };
        PrizeAwardResultDto: {
            /**
             * Format: uuid
             * @example 4f3e2d1c-0b9a-4876-9543-210fedcba987
             */
            awardId: string;
            /**
             * Format: date-time
             * @example 2025-01-01T12:00:00.000Z
             */
            createdAt: string;
            /**
             * @description Units of the prize the user owns now.
             * @example 1
             */
            ownedQuantity: number;
            /**
             * Format: uuid
             * @example 8e7d6c5b-4a39-4281-9f0e-1d2c3b4a5968
             */
            prizeId: string;
            /** @example 1 */
            quantity: number;
            /** @example 6 */
            remainingSupply: number | null;
            /**
             * @description true: the idempotency key had been used; nothing was awarded now.
             * @example false
             */
            replayed: boolean;
            /**
             * @example admin
             * @enum {string}
             */
            source: "store" | "event" | "admin" | "season";
            /**
             * Format: uuid
             * @example 3b241101-e2bb-4255-8caf-4136c566a962
             */
            userId: string;
        };
        PrizeDetailDto: {
            /**
             * @description Units awarded so far. totalSupply = remainingSupply + awarded.
             * @example 3
             */
            awarded: number;
            /**
             * Format: uuid
             * @example null
             */
            communityId: string | null;
            /**
             * Format: date-time
             * @example 2025-01-01T12:00:00.000Z
             */
            createdAt: string;
            /** @example A signed jersey. */
            description: string;
            /**
             * Format: uuid
             * @example 8e7d6c5b-4a39-4281-9f0e-1d2c3b4a5968
             */
            id: string;
            /** @example null */
            imageUrl: string | null;
            /**
             * @example physical
             * @enum {string}
             */
            kind: "achievement" | "physical" | "digital";
            /** @example Season 1 champion */
            name: string;
            /**
             * @description Units the current user owns (0: not owned).
             * @example 1
             */
            ownedQuantity: number;
            /** @example 3 */
            ownerCount: number;
            /** @description The first owners (at most 50, earliest first); the management API pages through all of them. */
            owners: components["schemas"]["PrizeOwnerDto"][];
            /** @example 7 */
            remainingSupply: number | null;
            /** @example [] */
            requirementIds: string[];
            /**
             * @description null: unlimited.
             * @example 10
             */
            totalSupply: number | null;
        };
        PrizeDto: {
            /**
             * @description Units awarded so far. totalSupply = remainingSupply + awarded.
             * @example 3
             */
            awarded: number;
            /**
             * Format: uuid
             * @example null
             */
            communityId: string | null;
            /**
             * Format: date-time
             * @example 2025-01-01T12:00:00.000Z
             */
            createdAt: string;
            /** @example A signed jersey. */
            description: string;
            /**
             * Format: uuid
             * @example 8e7d6c5b-4a39-4281-9f0e-1d2c3b4a5968
             */
            id: string;
            /** @example null */
            imageUrl: string | null;
            /**
             * @example physical
             * @enum {string}
             */
            kind: "achievement" | "physical" | "digital";
            /** @example Season 1 champion */
            name: string;
            /** @example 7 */
            remainingSupply: number | null;
            /** @example [] */
            requirementIds: string[];
            /**
             * @description null: unlimited.
             * @example 10
             */
            totalSupply: number | null;
        };
        PrizeOwnerDto: {
            /**
             * Format: date-time
             * @example 2025-01-01T12:00:00.000Z
             */
            firstAwardedAt: string;
            /** @example alice */
            handle: string;
            /** @example 1 */
            quantity: number;
            /**
             * Format: uuid
             * @example 3b241101-e2bb-4255-8caf-4136c566a962
             */
            userId: string;
        };
        PrizeSupplyDto: {
            /** @example 3 */
            awarded: number;
            /**
             * Format: uuid
             * @example 8e7d6c5b-4a39-4281-9f0e-1d2c3b4a5968
             */
            prizeId: string;
            /** @example 7 */
            remainingSupply: number | null;
            /** @example 10 */
            totalSupply: number | null;
        };
        ProfileDto: {
            address?: components["schemas"]["AddressDto"] | null;
            /** @example First programmer. Plays support. */
            biography?: string | null;
            /**
             * Format: date-time
             * @description When the account was created.
             * @example 2026-04-01T08:30:00.000Z
             */
            createdAt?: string;
            dateOfBirth?: components["schemas"]["DateOfBirthDto"] | null;
            /** @example Ada Lovelace */
            displayName?: string | null;
            /** @example ada_l */
            handle?: string;
            /**
             * Format: uuid
             * @example 3b241101-e2bb-4255-8caf-4136c566a962
             */
            id?: string;
            /** @description All linked social accounts (public or not), as in `GET /v1/user/socials`. */
            socials?: components["schemas"]["SocialDto"][];
            /**
             * @description Login name of a password account; null for accounts made by other logins.
             * @example ada_lovelace
             */
            username?: string | null;
        };
        PublicAvatarPartDto: {
            /** @example https://cdn.example.com/items/crown.png */
            imageUrl: string | null;
            /**
             * Format: uuid
             * @example 7d9f2b1a-3c4e-4f5a-8b6c-9d0e1f2a3b4c
             */
            itemId: string;
            /** @example Golden crown */
            name: string;
            /** @example legendary */
            rarity: string;
            /** @example head */
            slotKey: string;
            /** @example Head */
            slotName: string;
        };
        PublicProfileDto: {
            /** @description The user's avatar in this community: the item equipped in each slot (empty when none). */
            avatar: components["schemas"]["PublicAvatarPartDto"][];
            /**
             * Format: uuid
             * @example 9a1f6c2e-5b7d-4f3a-8e21-0c4d5b6a7f88
             */
            communityId: string;
            /** @example Ada Lovelace */
            displayName: string | null;
            /** @example ada_l */
            handle: string;
            /**
             * @description Whether the user is a member of the community.
             * @example true
             */
            member: boolean;
            /**
             * @description Position on the community's XP leaderboard (1 = first, ties share a rank); null when the user has no XP.
             * @example 7
             */
            rank: number | null;
            /** @description Linked accounts the user marked public. */
            socials: components["schemas"]["PublicSocialDto"][];
            /**
             * Format: uuid
             * @example 3b241101-e2bb-4255-8caf-4136c566a962
             */
            userId: string;
            /**
             * @description XP the user earned in the community (what its leaderboard ranks; spending does not lower it); 0 when none.
             * @example 1250
             */
            xp: number;
            /**
             * @description Slug of the resource counted as XP: the community's global resource type (the oldest if several); null when it has none.
             * @example xp
             */
            xpResource: string | null;
        };
        PublicSocialDto: {
            /** @example discord */
            accountType: string;
            /** @example ada_plays */
            handle: string | null;
            /** @example eu-west */
            server: string | null;
            /** @example 80351110224678912 */
            subjectId: string;
        };
        PurchaseBodyDto: {
            /**
             * @description One-use id chosen by the client (idempotency key per user): a retry with the same nonce and request returns the first purchase and charges nothing.
             * @example 5f1d7c1c-4b7e-4d43-a3a4-2f6f0f9c0b7e
             */
            nonce: string;
            /** @description Data for the listing's `data` requirements (a requirement with saved data may be left out: the saved data is used). */
            requirementData?: components["schemas"]["RequirementDataItemDto"][];
        };
        PurchaseDto: {
            /**
             * Format: uuid
             * @example 5e0c3c1e-2f7e-4f4a-9b7d-0f5e1a9d3c21
             */
            communityId: string;
            /**
             * Format: date-time
             * @example 2025-01-01T12:00:00.000Z
             */
            createdAt: string;
            /**
             * Format: uuid
             * @example 2d3e4f50-6172-4839-a4b5-c6d7e8f90a1b
             */
            id: string;
            /**
             * Format: uuid
             * @example 7d0c1b3e-2f4a-4b5c-8d6e-9f0a1b2c3d4e
             */
            itemId: string | null;
            /**
             * @example item
             * @enum {string}
             */
            kind: "item" | "prize" | "resource";
            /**
             * Format: uuid
             * @example 1c9a3c56-8f0b-4b1e-9c0e-5d6f7a8b9c01
             */
            listingId: string;
            /** @example Golden sword */
            listingName: string;
            /** @example 5f1d7c1c-4b7e-4d43-a3a4-2f6f0f9c0b7e */
            nonce: string;
            /** @description What was paid. */
            price: components["schemas"]["PriceComponentDto"][];
            /**
             * Format: uuid
             * @example null
             */
            prizeId: string | null;
            /** @example 1 */
            quantity: number;
            /**
             * Format: uuid
             * @example null
             */
            resourceTypeId: string | null;
        };
        PurchaseRequirementDataDto: {
            /**
             * @example {
             *       "addressLine1": "1 Main St",
             *       "city": "Lyon",
             *       "country": "FR"
             *     }
             */
            data: {
                [key: string]: unknown;
            };
            /**
             * Format: uuid
             * @example 6a8e1d1e-7a55-4a8a-9b43-3d2f0b9b1e11
             */
            requirementId: string;
        };
        PurchaseResultDto: {
            /**
             * Format: uuid
             * @example 5e0c3c1e-2f7e-4f4a-9b7d-0f5e1a9d3c21
             */
            communityId: string;
            /**
             * Format: date-time
             * @example 2025-01-01T12:00:00.000Z
             */
            createdAt: string;
            /**
             * Format: uuid
             * @example 2d3e4f50-6172-4839-a4b5-c6d7e8f90a1b
             */
            id: string;
            /**
             * Format: uuid
             * @example 7d0c1b3e-2f4a-4b5c-8d6e-9f0a1b2c3d4e
             */
            itemId: string | null;
            /**
             * @example item
             * @enum {string}
             */
            kind: "item" | "prize" | "resource";
            /**
             * Format: uuid
             * @example 1c9a3c56-8f0b-4b1e-9c0e-5d6f7a8b9c01
             */
            listingId: string;
            /** @example Golden sword */
            listingName: string;
            /** @example 5f1d7c1c-4b7e-4d43-a3a4-2f6f0f9c0b7e */
            nonce: string;
            /** @description What was paid. */
            price: components["schemas"]["PriceComponentDto"][];
            /**
             * Format: uuid
             * @example null
             */
            prizeId: string | null;
            /** @example 1 */
            quantity: number;
            /**
             * @description true: this nonce had already bought with the same request; this is that purchase and nothing was charged now.
             * @example false
             */
            replayed: boolean;
            /**
             * Format: uuid
             * @example null
             */
            resourceTypeId: string | null;
        };
        QuestCompletionDto: {
            /**
             * Format: date-time
             * @example 2025-06-12T12:00:00.000Z
             */
            completedAt: string;
            /**
             * @description false when the user had already completed the quest: nothing was credited this time.
             * @example true
             */
            created: boolean;
            /**
             * Format: uuid
             * @example 4e3d2c1b-0a9f-4e8d-8c7b-6a5f4e3d2c1b
             */
            questId: string;
            rewards: components["schemas"]["QuestRewardDto"][];
            /**
             * Format: uuid
             * @example 3b241101-e2bb-4255-8caf-4136c566a962
             */
            userId: string;
        };
        QuestDto: {
            /**
             * Format: uuid
             * @example 2f1e7c3a-8b4d-4c6e-9f0a-1b2c3d4e5f60
             */
            communityId: string;
            /**
             * @description Whether the current user completed it (user routes; false on management routes).
             * @example false
             */
            completed: boolean;
            /**
             * Format: date-time
             * @example 2025-06-12T12:00:00.000Z
             */
            createdAt: string;
            /** @example  */
            description: string;
            /** @example false */
            featured: boolean;
            /**
             * Format: uuid
             * @example 6c1f3e0a-2b7e-4a55-9a0c-2f9d1a4e5b11
             */
            id: string;
            /** @example Follow us on X */
            name: string;
            /**
             * Format: uuid
             * @example null
             */
            questEventId: string | null;
            rewards: components["schemas"]["QuestRewardDto"][];
            /**
             * @example active
             * @enum {string}
             */
            status: "draft" | "active" | "archived";
            /**
             * @example [
             *       "twitter",
             *       "onboarding"
             *     ]
             */
            tags: string[];
            /** @example false */
            template: boolean;
            /** @example social */
            type: string;
        };
        QuestEventDto: {
            /** @example 50 */
            capacity: number | null;
            /**
             * Format: uuid
             * @example 2f1e7c3a-8b4d-4c6e-9f0a-1b2c3d4e5f60
             */
            communityId: string;
            /**
             * Format: date-time
             * @example 2025-06-12T12:00:00.000Z
             */
            completedAt: string | null;
            completionRule: components["schemas"]["CompletionRuleDto"];
            /** @example  */
            description: string;
            /**
             * Format: date-time
             * @example 2025-06-12T12:00:00.000Z
             */
            endsAt: string;
            /**
             * @example [
             *       "score-based"
             *     ]
             */
            features: string[];
            /**
             * Format: uuid
             * @example 9d6b1f0e-1c2d-4e3f-8a9b-0c1d2e3f4a5b
             */
            id: string;
            /** @example null */
            imageUrl: string | null;
            /** @example Spring Cup */
            name: string;
            /**
             * @description The current user's ParticipantStatus (1 REGISTERED, 2 UNREGISTERED, 3 DROPPED, 4 CANCELLED); null: never registered or no session.
             * @example 1
             * @enum {number|null}
             */
            participantStatus: 1 | 2 | 3 | 4 | null;
            /**
             * @description REGISTERED participants now.
             * @example 12
             */
            registeredCount: number;
            /**
             * Format: date-time
             * @example 2025-06-07T12:00:00.000Z
             */
            registrationEndsAt: string;
            /**
             * @description Whether a user may register now (the registration window can overlap the active period).
             * @example true
             */
            registrationOpen: boolean;
            /**
             * Format: date-time
             * @example 2025-06-01T12:00:00.000Z
             */
            registrationStartsAt: string;
            /**
             * Format: uuid
             * @description The scoped resource type whose earned amount is the score; null: the event has no score.
             * @example 7c5d4e3f-2a1b-4c0d-9e8f-7a6b5c4d3e2f
             */
            scoreResourceTypeId: string | null;
            /** @example spring-cup */
            slug: string;
            /**
             * Format: date-time
             * @example 2025-06-05T12:00:00.000Z
             */
            startsAt: string;
            /**
             * @description Derived from the explicit state and the times on the server clock (see the decisions).
             * @example registration_open
             * @enum {string}
             */
            status: "draft" | "upcoming" | "registration_open" | "active" | "ended" | "completed" | "cancelled";
        };
        QuestEventFilterDto: {
            /**
             * @description The community (id or slug).
             * @example space-pirates
             */
            containerId?: string;
            /**
             * @description Events having ALL these features (comma-separated).
             * @example score-based
             */
            features?: string;
            /**
             * @description Events in ANY of these statuses.
             * @example [
             *       "active",
             *       "completed"
             *     ]
             */
            status?: ("draft" | "upcoming" | "registration_open" | "active" | "ended" | "completed" | "cancelled")[];
        };
        QuestRewardDto: {
            /** @example 50 */
            amount?: number;
            /**
             * Format: uuid
             * @description `item` rewards: the inventory item granted.
             * @example 0f9e8d7c-6b5a-4c3d-9e2f-1a0b9c8d7e6f
             */
            itemId?: string;
            /** @example 1 */
            quantity?: number;
            /**
             * Format: uuid
             * @description `resource` rewards: the resource type credited (global XP or the event's scoped resource).
             * @example 0b8f6f57-5a53-4d4c-9d3e-6f1c1b2f7a10
             */
            resourceTypeId?: string;
            /**
             * @example resource
             * @enum {string}
             */
            type: "resource" | "item";
        };
        QuestTagDto: {
            /**
             * @description Of all active quests with this tag, how many the user has not completed.
             * @example 3
             */
            availableCount: number;
            /**
             * @description Of all active quests with this tag, how many the user completed.
             * @example 1
             */
            completedCount: number;
            /**
             * @description Quests with this tag (after `excludeTemplateTags` / `userAvailableQuests`).
             * @example 4
             */
            questCount: number;
            /** @description With `includeRewards=true`: the rewards of the counted quests, summed per resource type and item. */
            rewards?: components["schemas"]["QuestRewardDto"][];
            /** @example twitter */
            tag: string;
        };
        RankingDto: {
            /** @description The users just above, in leaderboard order (nearest last). */
            above: components["schemas"]["LeaderboardEntryDto"][];
            /**
             * @description Earned total (what is ranked).
             * @example 1500
             */
            amount: number;
            /**
             * @description Spendable balance (the earned total minus what was spent).
             * @example 900
             */
            balance: number;
            /** @description The users just below, in leaderboard order (nearest first). */
            below: components["schemas"]["LeaderboardEntryDto"][];
            /**
             * @description null while the user has earned none of this resource (unranked).
             * @example 42
             */
            rank: number | null;
            /**
             * Format: uuid
             * @example 0b8f6f57-5a53-4d4c-9d3e-6f1c1b2f7a10
             */
            resourceTypeId: string;
            /** @example xp */
            slug: string;
            /**
             * @description Number of ranked users (earned > 0).
             * @example 1280
             */
            totalRanked: number;
            /**
             * Format: uuid
             * @example 3b241101-e2bb-4255-8caf-4136c566a962
             */
            userId: string;
        };
        RedeliveredDto: {
            /**
             * @description How many deliveries were queued again (now, with a new retry schedule).
             * @example 12
             */
            requeued: number;
        };
        RedeliverWindowDto: {
            /**
             * Format: date-time
             * @description Failed deliveries created at or after.
             */
            from: string;
            /**
             * Format: date-time
             * @description Failed deliveries created before.
             */
            to: string;
        };
        ReferralDto: {
            /**
             * Format: uuid
             * @description The community they were referred into; null for a sign-up referral.
             * @example null
             */
            communityId: string | null;
            /**
             * @description Current handle of the referred user.
             * @example grace_h
             */
            handle: string;
            /**
             * Format: date-time
             * @example 2026-04-01T08:30:00.000Z
             */
            referredAt: string;
            /**
             * Format: uuid
             * @example 5c8e2a41-9d3b-4f7e-a6c1-2b0d9e8f7a65
             */
            userId: string;
        };
        RefreshResultDto: {
            /**
             * @description A new session token, valid 10 minutes.
             * @example eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ0aWQiOiIuLi4ifQ.c2lnbmF0dXJl
             */
            sessionToken: string;
        };
        RefreshSessionDto: {
            /**
             * @description The refresh token of an earlier login.
             * @example rt_Zb3k9y0Qf1m2wq8d6r4t5y7u8i9o0p1a2s3d4f5g6h7
             */
            refreshToken: string;
        };
        RegisterPasswordDto: {
            /**
             * Format: password
             * @description 8–128 characters, any characters.
             * @example correct horse battery staple
             */
            password: string;
            /**
             * @description 3–32 characters: letters, digits, `_`, `.`, `-`, starting with a letter or digit. Unique per tenant, case-insensitively.
             * @example ada_lovelace
             */
            username: string;
        };
        RequirementDataDto: {
            address?: components["schemas"]["AddressDto"];
            /** @example ada@example.com */
            email?: string;
            /** @example 0x52908400098527886E0F7030069857D2E4169EE7 */
            walletAddress?: string;
        };
        RequirementDataItemDto: {
            /**
             * @description Must match the requirement's JSON schema (at most 4 KB).
             * @example {
             *       "addressLine1": "1 Main St",
             *       "city": "Lyon",
             *       "country": "FR"
             *     }
             */
            data: {
                [key: string]: unknown;
            };
            /** @example 6a8e1d1e-7a55-4a8a-9b43-3d2f0b9b1e11 */
            requirementId: string;
            /**
             * @description Keep this data for the next purchases (offered back by `enrichRequirements`). Default false.
             * @example true
             */
            shouldSave?: boolean;
        };
        RequirementDto: {
            /**
             * Format: date-time
             * @example 2025-01-01T12:00:00.000Z
             */
            createdAt: string;
            /** @example Where we send the prize. */
            description: string;
            /**
             * Format: uuid
             * @example 6a8e1d1e-7a55-4a8a-9b43-3d2f0b9b1e11
             */
            id: string;
            /**
             * Format: uuid
             * @example null
             */
            itemId: string | null;
            /** @example shipping-address */
            key: string;
            /**
             * @example data
             * @enum {string}
             */
            kind: "data" | "owns_item" | "min_resource";
            /** @example null */
            minAmount: number | null;
            /** @example Shipping address */
            name: string;
            /** @example true */
            personalData: boolean;
            /**
             * Format: uuid
             * @example null
             */
            resourceTypeId: string | null;
            /**
             * @description The JSON schema the data must match (`data` requirements), else null.
             * @example {
             *       "additionalProperties": false,
             *       "properties": {
             *         "addressLine1": {
             *           "maxLength": 200,
             *           "type": "string"
             *         },
             *         "city": {
             *           "maxLength": 100,
             *           "type": "string"
             *         },
             *         "country": {
             *           "maxLength": 64,
             *           "type": "string"
             *         }
             *       },
             *       "required": [
             *         "addressLine1",
             *         "city",
             *         "country"
             *       ],
             *       "type": "object"
             *     }
             */
            schema: {
                [key: string]: unknown;
            } | null;
        };
        ResourceTypeDto: {
            /**
             * Format: uuid
             * @example 5e0c3c1e-2f7e-4f4a-9b7d-0f5e1a9d3c21
             */
            communityId: string;
            /**
             * Format: date-time
             * @example 2025-01-01T12:00:00.000Z
             */
            createdAt: string;
            /** @example Earned by completing quests. */
            description: string;
            /**
             * Format: uuid
             * @example 0b8f6f57-5a53-4d4c-9d3e-6f1c1b2f7a10
             */
            id: string;
            /** @example https://cdn.example.com/xp.png */
            imageUrl: string | null;
            /**
             * @description `global`: the community currency (XP) ranked on the leaderboard. `scoped`: belongs to one quest event.
             * @example global
             * @enum {string}
             */
            kind: "global" | "scoped";
            /** @example Experience points */
            name: string;
            /**
             * Format: uuid
             * @description The quest event of a scoped resource; null for global ones.
             * @example null
             */
            questEventId: string | null;
            /**
             * @description Unique in the community; the `{slug}` of the ranking and leaderboard routes.
             * @example xp
             */
            slug: string;
        };
        RewardAllocationDto: {
            /**
             * Format: date-time
             * @example 2025-06-12T12:00:00.000Z
             */
            createdAt: string;
            /**
             * Format: uuid
             * @example 9d6b1f0e-1c2d-4e3f-8a9b-0c1d2e3f4a5b
             */
            eventId: string;
            /**
             * Format: uuid
             * @example 9d6b1f0e-1c2d-4e3f-8a9b-0c1d2e3f4a5b
             */
            id: string;
            /**
             * @description The participant's rank and score at completion.
             * @example 3
             */
            rank: number | null;
            /** @description The data submitted with the last claim; null before any claim. */
            requirementData: components["schemas"]["RequirementDataDto"] | null;
            reward: components["schemas"]["RewardDto"];
            /** @example 420 */
            score: number;
            /**
             * @description Tickets allocated at completion.
             * @example 2
             */
            tickets: number;
            /** @example 1 */
            ticketsRemaining: number;
            /** @example 1 */
            ticketsSpent: number;
        };
        RewardClaimDto: {
            allocation: components["schemas"]["RewardAllocationDto"];
            /**
             * Format: uuid
             * @example 8a7b6c5d-4e3f-4a2b-9c1d-0e9f8a7b6c5d
             */
            claimId: string;
            /**
             * @description `processed`: the resource was credited or the item granted; `pending_fulfilment`: a manual reward the operator delivers.
             * @example processed
             * @enum {string}
             */
            status: "processed" | "pending_fulfilment";
            /** @example 1 */
            ticketsSpent: number;
        };
        RewardDto: {
            /** @example 1 */
            amount: number;
            /** @example 3 */
            claimed: number;
            /** @example  */
            description: string;
            /**
             * Format: uuid
             * @example 9d6b1f0e-1c2d-4e3f-8a9b-0c1d2e3f4a5b
             */
            eventId: string;
            /**
             * Format: uuid
             * @example 9d6b1f0e-1c2d-4e3f-8a9b-0c1d2e3f4a5b
             */
            id: string;
            /**
             * Format: uuid
             * @example 0f9e8d7c-6b5a-4c3d-9e2f-1a0b9c8d7e6f
             */
            itemId: string | null;
            /**
             * @example resource
             * @enum {string}
             */
            kind: "resource" | "item" | "manual";
            /** @example Golden ticket */
            name: string;
            /** @example 1 */
            rankFrom: number | null;
            /** @example 10 */
            rankTo: number | null;
            /** @example false */
            requiresAddress: boolean;
            /** @example false */
            requiresEmail: boolean;
            /** @example true */
            requiresWalletAddress: boolean;
            /**
             * Format: uuid
             * @example 0b8f6f57-5a53-4d4c-9d3e-6f1c1b2f7a10
             */
            resourceTypeId: string | null;
            /** @example 10 */
            supply: number | null;
            /** @example 1 */
            ticketCost: number;
            /** @example 1 */
            tickets: number;
        };
        RotateSecretDto: {
            /**
             * @description How long the previous secret still signs, in seconds (both signatures are sent meanwhile). 0: at once.
             * @default 86400
             */
            overlapSeconds: number;
        };
        SeasonDto: {
            /**
             * Format: date-time
             * @example null
             */
            closedAt: string | null;
            /**
             * Format: uuid
             * @example 5e0c3c1e-2f7e-4f4a-9b7d-0f5e1a9d3c21
             */
            communityId: string;
            /**
             * Format: date-time
             * @description Exclusive: what is earned from this instant on counts for the next season.
             * @example 2026-12-07T00:00:00.000Z
             */
            endsAt: string;
            /**
             * Format: uuid
             * @example 7d0c2f1e-4d3b-4a59-8b8e-2f4b9b1f0c11
             */
            id: string;
            /** @example Weekly XP #12 */
            name: string;
            /**
             * @description 1, 2, 3... within its schedule.
             * @example 12
             */
            number: number;
            /** @example null */
            questIds: string[] | null;
            /**
             * @description Players in the final standings (null until they are frozen).
             * @example null
             */
            ranked: number | null;
            /** @example null */
            reasons: string[] | null;
            /** @example xp */
            resourceSlug: string;
            /**
             * Format: uuid
             * @example 0b8f6f57-5a53-4d4c-9d3e-6f1c1b2f7a10
             */
            resourceTypeId: string;
            rewards: components["schemas"]["SeasonRewardViewDto"][];
            /**
             * Format: uuid
             * @example null
             */
            scheduleId: string | null;
            /**
             * Format: date-time
             * @example 2026-11-30T00:00:00.000Z
             */
            startsAt: string;
            /**
             * @description `closing`: ended, its standings being frozen and its rewards paid.
             * @example live
             * @enum {string}
             */
            status: "upcoming" | "live" | "closing" | "closed";
        };
        SeasonPayoutDto: {
            /** @example 500 */
            amount: number;
            /**
             * Format: date-time
             * @example 2026-12-07T00:00:05.000Z
             */
            createdAt: string;
            /** @example null */
            error: string | null;
            /**
             * @description The player's final place.
             * @example 1
             */
            position: number;
            /**
             * Format: uuid
             * @example 0b8f6f57-5a53-4d4c-9d3e-6f1c1b2f7a10
             */
            refId: string;
            /**
             * @description Index of the reward in the season's `rewards`.
             * @example 0
             */
            reward: number;
            /**
             * @description `failed`: the grant was refused (e.g. the item's supply ran out); `error` says why.
             * @example paid
             * @enum {string}
             */
            status: "paid" | "failed";
            /**
             * @example resource
             * @enum {string}
             */
            type: "resource" | "item" | "prize";
            /**
             * Format: uuid
             * @example 3b241101-e2bb-4255-8caf-4136c566a962
             */
            userId: string;
        };
        SeasonRewardDto: {
            /**
             * @description Amount of the resource, or units of the item or prize (default 1).
             * @default 1
             * @example 500
             */
            amount: number;
            /**
             * @description First final place rewarded (with `toRank`).
             * @example 1
             */
            fromRank?: number;
            /**
             * Format: uuid
             * @description The resource type (`resource`), item (`item`) or prize (`prize`) of the season's community.
             * @example 0b8f6f57-5a53-4d4c-9d3e-6f1c1b2f7a10
             */
            refId: string;
            /**
             * @description Instead of a rank range: the top p % (rounded up).
             * @example 10
             */
            topPercent?: number;
            /**
             * @description Last final place rewarded (with `fromRank`).
             * @example 1
             */
            toRank?: number;
            /**
             * @example resource
             * @enum {string}
             */
            type: "resource" | "item" | "prize";
        };
        SeasonRewardViewDto: {
            /** @example 500 */
            amount: number;
            /** @example 1 */
            fromRank: number | null;
            /**
             * Format: uuid
             * @example 0b8f6f57-5a53-4d4c-9d3e-6f1c1b2f7a10
             */
            refId: string;
            /** @example null */
            topPercent: number | null;
            /** @example 1 */
            toRank: number | null;
            /**
             * @example resource
             * @enum {string}
             */
            type: "resource" | "item" | "prize";
        };
        SeasonScheduleDto: {
            /** @example true */
            active: boolean;
            /**
             * Format: uuid
             * @example 5e0c3c1e-2f7e-4f4a-9b7d-0f5e1a9d3c21
             */
            communityId: string;
            /** @example 0 0 * * 1 */
            cron: string;
            /**
             * Format: uuid
             * @example 2c6f0d1e-8a4b-4f6e-9c3d-5b7a1e0f9d22
             */
            id: string;
            /** @example Weekly XP */
            name: string;
            /**
             * Format: date-time
             * @description When the next season opens (null when inactive).
             * @example 2026-11-30T23:00:00.000Z
             */
            nextStartsAt: string | null;
            /** @example null */
            questIds: string[] | null;
            /** @example null */
            reasons: string[] | null;
            /**
             * Format: uuid
             * @example 0b8f6f57-5a53-4d4c-9d3e-6f1c1b2f7a10
             */
            resourceTypeId: string;
            rewards: components["schemas"]["SeasonRewardViewDto"][];
            /** @example Europe/Berlin */
            timeZone: string;
        };
        SessionResultDto: {
            /**
             * @description Opaque, valid 30 days. Exchange it for a new session token at `POST /v1/user/auth/refresh-session`.
             * @example rt_Zb3k9y0Qf1m2wq8d6r4t5y7u8i9o0p1a2s3d4f5g6h7
             */
            refreshToken: string;
            /**
             * @description Signed JWT, valid 10 minutes. Send it as `Authorization: Bearer <sessionToken>`.
             * @example eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ0aWQiOiIuLi4ifQ.c2lnbmF0dXJl
             */
            sessionToken: string;
            /**
             * Format: uuid
             * @example 3b241101-e2bb-4255-8caf-4136c566a962
             */
            userId: string;
        };
        SetTenantDomainsDto: {
            /**
             * @description The tenant's whole list of domains (it replaces the current one; `[]` removes all). Each is a
             *     host name (`play.acme.gg`, `bücher.example`); case, a port and a trailing dot are normalised
             *     away. A domain of another tenant is 409 and nothing changes.
             * @example [
             *       "play.acme.gg"
             *     ]
             */
            domains: string[];
        };
        SiweLoginDto: {
            /**
             * @description The EIP-4361 message, exactly as signed.
             * @example game.example.com wants you to sign in with your Ethereum account:
             *     0x71C7656EC7ab88b098defB751B7401B5f6d8976F
             *
             *     Sign in
             *
             *     URI: https://game.example.com
             *     Version: 1
             *     Chain ID: 1
             *     Nonce: k3Jd8fL2pQ9sT4vX
             *     Issued At: 2025-01-31T12:00:00.000Z
             */
            message: string;
            /**
             * @description Handle of the user who referred this one. Used only when this login creates the user; an
             *     unknown handle is ignored, the user's own handle is refused (400 self_referral).
             * @example ada_lovelace
             */
            referrerHandle?: string;
            /**
             * @description The EIP-191 `personal_sign` signature of `message` (0x + 130 hex).
             * @example 0x5f2c…1b
             */
            signature: string;
        };
        SiweNonceDto: {
            /**
             * @description A fresh random nonce (alphanumeric) to put in a SIWE message. Any unused nonce of at least 8 alphanumeric characters works too.
             * @example k3Jd8fL2pQ9sT4vX
             */
            nonce: string;
        };
        SlotAllocationDto: {
            /**
             * Format: uuid
             * @description The item to put in the slot (an id); `null` or `""` empties the slot.
             * @example 0f9e8d7c-6b5a-4c3d-9e2f-1a0b9c8d7e6f
             */
            itemId: string | null;
            /**
             * @description Slot id or key.
             * @example head
             */
            slotId: string;
        };
        SlotDto: {
            /** @example Hats, helmets and crowns. */
            description: string;
            /**
             * Format: uuid
             * @example 7c1f0e4a-1b2c-4d3e-8f9a-0b1c2d3e4f50
             */
            id: string;
            /**
             * @description Lowercase key, unique in the community; accepted wherever a slotId is.
             * @example head
             */
            key: string;
            /** @example Head */
            name: string;
            /**
             * @description Display and layering order, ascending.
             * @example 10
             */
            position: number;
        };
        SocialDto: {
            /** @example discord */
            accountType: string;
            /**
             * @description The `createdAt` object given when linking (not a timestamp of this service; see `linkedAt`).
             * @example {
             *       "at": "2019-03-02T10:00:00Z"
             *     }
             */
            createdAt: {
                [key: string]: unknown;
            } | null;
            /**
             * Format: date-time
             * @description When the stored tokens expire (UTC).
             * @example 2026-05-01T12:00:00.000Z
             */
            expiryDate: string | null;
            /**
             * @example {
             *       "scopes": [
             *         "identify"
             *       ]
             *     }
             */
            extraArgs: {
                [key: string]: unknown;
            } | null;
            /** @example ada_plays */
            handle: string | null;
            /**
             * @description Whether a refresh token is stored (the token itself is never returned).
             * @example false
             */
            hasRefreshToken: boolean;
            /**
             * @description Whether a user token is stored (the token itself is never returned).
             * @example true
             */
            hasUserToken: boolean;
            /**
             * Format: uuid
             * @example 6f1d2c3b-4a59-4e68-9d7c-8b9a0f1e2d3c
             */
            id: string;
            /**
             * Format: date-time
             * @example 2026-04-01T08:30:00.000Z
             */
            linkedAt: string;
            /** @example true */
            public: boolean;
            /** @example eu-west */
            server: string | null;
            /** @example 80351110224678912 */
            subjectId: string;
            /**
             * Format: date-time
             * @example 2026-04-02T08:30:00.000Z
             */
            updatedAt: string;
        };
        StoreBalanceDto: {
            /**
             * Format: uuid
             * @example 5e0c3c1e-2f7e-4f4a-9b7d-0f5e1a9d3c21
             */
            communityId: string;
            /** @description Every resource type of the community (global first, then by slug), 0 when never credited. */
            resources: components["schemas"]["BalanceItemDto"][];
        };
        StreamTicketDto: {
            /**
             * Format: date-time
             * @example 2026-05-01T12:01:00.000Z
             */
            expiresAt: string;
            /**
             * @description Put it in the stream URL as `?ticket=`; valid once, for `expiresAt`.
             * @example st_Xq2vJ0c1m4b1y1GQ0gWcI6wq1n0d6Yk3c5mR2xV8pLA
             */
            ticket: string;
        };
        SubscriptionDto: {
            /** @example true */
            active: boolean;
            /**
             * Format: date-time
             * @example 2026-11-25T12:00:00.000Z
             */
            createdAt: string;
            /** @example Game server (production) */
            description: string | null;
            /**
             * @example [
             *       "store.purchase_completed",
             *       "quest.completed"
             *     ]
             */
            eventTypes: string[];
            /**
             * Format: uuid
             * @example 3f2b8c1e-6d4a-4e5f-9a7b-1c2d3e4f5a6b
             */
            id: string;
            /**
             * Format: date-time
             * @description Until when the previous secret (before a rotation) also signs.
             * @example 2026-11-25T12:00:00.000Z
             */
            previousSecretExpiresAt: string | null;
            /**
             * Format: date-time
             * @example 2026-11-25T12:00:00.000Z
             */
            updatedAt: string;
            /** @example https://game.example.com/hooks/cgs */
            url: string;
        };
        SubscriptionListDto: {
            items: components["schemas"]["SubscriptionDto"][];
        };
        SubscriptionWithSecretDto: {
            /** @example true */
            active: boolean;
            /**
             * Format: date-time
             * @example 2026-11-25T12:00:00.000Z
             */
            createdAt: string;
            /** @example Game server (production) */
            description: string | null;
            /**
             * @example [
             *       "store.purchase_completed",
             *       "quest.completed"
             *     ]
             */
            eventTypes: string[];
            /**
             * Format: uuid
             * @example 3f2b8c1e-6d4a-4e5f-9a7b-1c2d3e4f5a6b
             */
            id: string;
            /**
             * Format: date-time
             * @description Until when the previous secret (before a rotation) also signs.
             * @example 2026-11-25T12:00:00.000Z
             */
            previousSecretExpiresAt: string | null;
            /**
             * @description The signing secret: shown only in this answer (it is stored encrypted). Verify with it: docs/integrations.md.
             * @example whsec_2Jq0mV0y0o3o6sY1pZb9mF1nS0aH8cQ4rT7uW2xE5kA
             */
            secret: string;
            /**
             * Format: date-time
             * @example 2026-11-25T12:00:00.000Z
             */
            updatedAt: string;
            /** @example https://game.example.com/hooks/cgs */
            url: string;
        };
        TenantDto: {
            /**
             * @description Host names on which a request without a session token or `X-Tenant-Id` runs in this tenant,
             *     normalised: lower case, no port, no trailing dot, internationalised names as punycode.
             * @example [
             *       "play.acme.gg"
             *     ]
             */
            domains: string[];
            /**
             * Format: uuid
             * @example 1d95aa9a-5c43-4f4e-9a55-2f0f3c6f5e10
             */
            id: string;
            /** @example Acme Games */
            name: string;
            /** @example acme */
            slug: string;
        };
        TokenLoginDto: {
            /**
             * @description The provider access token; when given it replaces the token's `accessToken` claim (stored encrypted, never returned).
             * @example ya29.a0AfH6SMB...
             */
            accessToken?: string;
            /**
             * @description Handle of the user who referred this one. Used only when this login creates the user; an
             *     unknown handle is ignored, the user's own handle is refused (400 self_referral).
             * @example ada_lovelace
             */
            referrerHandle?: string;
            /**
             * @description The encrypted OAuth token: a compact JWE (`alg: dir`, `enc: A256GCM`) made with the tenant
             *     shared secret, holding `_nonce`, `subjectId`, `handle`, `idToken`, `accessToken`,
             *     `refreshToken`, `referrerHandle`, `iat`, `exp` (at most 300 s after `iat`). Usable once.
             * @example eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..bXlpdi1ub25jZTEy.Y2lwaGVydGV4dA.dGFnLXRhZy10YWctdGFn
             */
            token: string;
        };
        UpdateCommunityDto: {
            /** Format: uri */
            bannerUrl?: string | null;
            description?: string;
            /** Format: uri */
            imageUrl?: string | null;
            links?: components["schemas"]["CommunityLinkDto"][];
            name?: string;
            /** @example space-pirates */
            slug?: string;
        };
        UpdateItemDto: {
            attributes?: components["schemas"]["ItemAttributeDto"][];
            description?: string;
            /** Format: uri */
            imageUrl?: string | null;
            name?: string;
            rarity?: string;
            /** @description New cap (at least the units already granted); null makes it unlimited. */
            supply?: number | null;
        };
        UpdateListingDto: {
            active?: boolean;
            description?: string;
            endsAt?: string | null;
            /** Format: uri */
            imageUrl?: string | null;
            name?: string;
            perUserLimit?: number | null;
            price?: components["schemas"]["PriceComponentDto"][];
            requirementIds?: string[];
            startsAt?: string | null;
            /** @description null: unlimited. Cannot go below the number sold. */
            totalSupply?: number | null;
        };
        UpdatePrizeDto: {
            description?: string;
            /** Format: uri */
            imageUrl?: string | null;
            name?: string;
            requirementIds?: string[];
            /** @description null: unlimited. Cannot go below the number awarded (409). */
            totalSupply?: number | null;
        };
        UpdateProfileDto: {
            address?: components["schemas"]["AddressDto"] | null;
            /** @example First programmer. Plays support. */
            biography?: string | null;
            dateOfBirth?: components["schemas"]["DateOfBirthDto"] | null;
            /** @example Ada Lovelace */
            displayName?: string | null;
            /**
             * @description 3–32 characters: letters, digits, `_`, `.`, `-`, starting with a letter or digit. Unique per tenant, case-insensitively (409 otherwise).
             * @example ada_l
             */
            handle?: string;
        };
        UpdateQuestDto: {
            description?: string;
            featured?: boolean;
            name?: string;
            rewards?: components["schemas"]["QuestRewardDto"][];
            /** @enum {string} */
            status?: "draft" | "active" | "archived";
            tags?: string[];
            template?: boolean;
            type?: string;
        };
        UpdateQuestEventDto: {
            /** @description Not below the current number of REGISTERED participants. */
            capacity?: number | null;
            description?: string;
            /**
             * Format: date-time
             * @example 2025-06-12T12:00:00.000Z
             */
            endsAt?: string;
            features?: string[];
            /** Format: uri */
            imageUrl?: string | null;
            maxRank?: number | null;
            minScore?: number;
            name?: string;
            /** @description true publishes a draft. */
            publish?: boolean;
            /**
             * Format: date-time
             * @example 2025-06-07T12:00:00.000Z
             */
            registrationEndsAt?: string;
            /**
             * Format: date-time
             * @example 2025-06-01T12:00:00.000Z
             */
            registrationStartsAt?: string;
            /** Format: uuid */
            scoreResourceTypeId?: string;
            /**
             * Format: date-time
             * @example 2025-06-05T12:00:00.000Z
             */
            startsAt?: string;
        };
        UpdateResourceTypeDto: {
            description?: string;
            /** Format: uri */
            imageUrl?: string | null;
            name?: string;
        };
        UpdateSeasonScheduleDto: {
            /**
             * @description false: no further season is opened (the running one ends as planned).
             * @example false
             */
            active?: boolean;
            /** @example Weekly XP */
            name?: string;
            /** @description The rewards of the seasons it opens from now on. */
            rewards?: components["schemas"]["SeasonRewardDto"][];
        };
        UpdateSlotDto: {
            description?: string;
            name?: string;
            position?: number;
        };
        UpdateSocialDto: {
            /**
             * @description The provider's account-creation information: a JSON object, at most 4 KB and 5 levels deep.
             * @example {
             *       "at": "2019-03-02T10:00:00Z",
             *       "source": "discord"
             *     }
             */
            createdAt?: {
                [key: string]: unknown;
            } | null;
            /**
             * Format: date-time
             * @description When the stored tokens expire: ISO 8601 date-time with `Z` or an offset, or a date (midnight UTC).
             * @example 2026-05-01T12:00:00Z
             */
            expiryDate?: string | null;
            /**
             * @description Provider-specific data: a JSON object, at most 4 KB and 5 levels deep.
             * @example {
             *       "scopes": [
             *         "identify"
             *       ]
             *     }
             */
            extraArgs?: {
                [key: string]: unknown;
            } | null;
            /**
             * @description The name shown for the account (e.g. `ada#1234`).
             * @example ada_plays
             */
            handle?: string | null;
            /** @example false */
            public?: boolean;
            /**
             * @description Refresh token for the provider. Stored encrypted; never returned.
             * @example 1//0g...
             */
            refreshToken?: string | null;
            /**
             * @description A server, guild or region the account belongs to.
             * @example eu-west
             */
            server?: string | null;
            /**
             * Format: uuid
             * @example 6f1d2c3b-4a59-4e68-9d7c-8b9a0f1e2d3c
             */
            socialId: string;
            /**
             * @description Access token for the provider. Stored encrypted; never returned.
             * @example ya29.a0Af...
             */
            userToken?: string | null;
        };
        UpdateSubscriptionDto: {
            active?: boolean;
            description?: string;
            /** @description Event types to deliver (`*`: every type): `avatar.minted`, `community.joined`, `inventory.item_granted`, `participant.status_changed`, `prize.awarded`, `quest.completed`, `quest_event.status_changed`, `resource.credited`, `resource.debited`, `reward.allocated`, `reward.claimed`, `season.closed`, `season.created`, `season.rewarded`, `social.linked`, `store.purchase_completed`, `user.logged_in`, `user.registered`. */
            eventTypes?: string[];
            /**
             * Format: uri
             * @example https://game.example.com/hooks/cgs
             */
            url?: string;
        };
        UserItemDto: {
            /**
             * @description Whether the item is in one of the user's avatar slots.
             * @example true
             */
            allocated: boolean;
            attributes: components["schemas"]["ItemAttributeDto"][];
            /**
             * Format: uuid
             * @example 5e0c3c1e-2f7e-4f4a-9b7d-0f5e1a9d3c21
             */
            communityId: string;
            /** @example Worn by the season champion. */
            description: string;
            /**
             * @description Units granted so far.
             * @example 12
             */
            granted: number;
            /**
             * Format: uuid
             * @example 0f9e8d7c-6b5a-4c3d-9e2f-1a0b9c8d7e6f
             */
            id: string;
            /** @example https://cdn.example.com/items/crown.png */
            imageUrl: string | null;
            /** @example Golden crown */
            name: string;
            /**
             * @description Units the user owns (0 when not owned).
             * @example 1
             */
            ownedQuantity: number;
            /** @example legendary */
            rarity: string;
            /**
             * @description Units left (`supply - granted`); null when unlimited.
             * @example 88
             */
            remaining: number | null;
            /**
             * Format: uuid
             * @description The slot the item fits.
             * @example 7c1f0e4a-1b2c-4d3e-8f9a-0b1c2d3e4f50
             */
            slotId: string;
            /** @example head */
            slotKey: string;
            /**
             * @description Units that can ever be granted; null means unlimited.
             * @example 100
             */
            supply: number | null;
        };
        UserPrizeDto: {
            /**
             * @description Units awarded so far. totalSupply = remainingSupply + awarded.
             * @example 3
             */
            awarded: number;
            /**
             * Format: uuid
             * @example null
             */
            communityId: string | null;
            /**
             * Format: date-time
             * @example 2025-01-01T12:00:00.000Z
             */
            createdAt: string;
            /** @example A signed jersey. */
            description: string;
            /**
             * Format: uuid
             * @example 8e7d6c5b-4a39-4281-9f0e-1d2c3b4a5968
             */
            id: string;
            /** @example null */
            imageUrl: string | null;
            /**
             * @example physical
             * @enum {string}
             */
            kind: "achievement" | "physical" | "digital";
            /** @example Season 1 champion */
            name: string;
            /**
             * @description Units the current user owns (0: not owned).
             * @example 1
             */
            ownedQuantity: number;
            /** @example 7 */
            remainingSupply: number | null;
            /** @example [] */
            requirementIds: string[];
            /**
             * @description null: unlimited.
             * @example 10
             */
            totalSupply: number | null;
        };
        UserRequirementDto: {
            /**
             * Format: date-time
             * @example 2025-01-01T12:00:00.000Z
             */
            createdAt: string;
            /** @example Where we send the prize. */
            description: string;
            /**
             * Format: uuid
             * @example 6a8e1d1e-7a55-4a8a-9b43-3d2f0b9b1e11
             */
            id: string;
            /**
             * Format: uuid
             * @example null
             */
            itemId: string | null;
            /** @example shipping-address */
            key: string;
            /**
             * @example data
             * @enum {string}
             */
            kind: "data" | "owns_item" | "min_resource";
            /** @example null */
            minAmount: number | null;
            /** @example Shipping address */
            name: string;
            /** @example true */
            personalData: boolean;
            /**
             * Format: uuid
             * @example null
             */
            resourceTypeId: string | null;
            /**
             * @description The data the user saved (`shouldSave`) for this requirement, or null.
             * @example {
             *       "addressLine1": "1 Main St",
             *       "city": "Lyon",
             *       "country": "FR"
             *     }
             */
            savedData: {
                [key: string]: unknown;
            } | null;
            /**
             * @description The JSON schema the data must match (`data` requirements), else null.
             * @example {
             *       "additionalProperties": false,
             *       "properties": {
             *         "addressLine1": {
             *           "maxLength": 200,
             *           "type": "string"
             *         },
             *         "city": {
             *           "maxLength": 100,
             *           "type": "string"
             *         },
             *         "country": {
             *           "maxLength": 64,
             *           "type": "string"
             *         }
             *       },
             *       "required": [
             *         "addressLine1",
             *         "city",
             *         "country"
             *       ],
             *       "type": "object"
             *     }
             */
            schema: {
                [key: string]: unknown;
            } | null;
        };
        UserSlotDto: {
            /** @example Hats, helmets and crowns. */
            description: string;
            /**
             * Format: uuid
             * @example 7c1f0e4a-1b2c-4d3e-8f9a-0b1c2d3e4f50
             */
            id: string;
            /** @description The allocated item, or null when the slot is empty. */
            item: components["schemas"]["ItemDto"] | null;
            /**
             * @description Lowercase key, unique in the community; accepted wherever a slotId is.
             * @example head
             */
            key: string;
            /** @example Head */
            name: string;
            /**
             * @description Display and layering order, ascending.
             * @example 10
             */
            position: number;
        };
        UserSlotsDto: {
            /**
             * Format: uuid
             * @example 5e0c3c1e-2f7e-4f4a-9b7d-0f5e1a9d3c21
             */
            communityId: string;
            slots: components["schemas"]["UserSlotDto"][];
            /**
             * Format: uuid
             * @example 3b241101-e2bb-4255-8caf-4136c566a962
             */
            userId: string;
        };
        WalletDto: {
            /**
             * @description The address: a Sui zkLogin address (`0x` + 64 hex) or a checksummed EVM address.
             * @example 0x8f3a6c1b2d4e5f60718293a4b5c6d7e8f90112233445566778899aabbccddeeff
             */
            address: string;
            /**
             * @description `sui` for zkLogin wallets, `evm:<chainId>` for SIWE wallets.
             * @example sui
             */
            chain: string;
            /**
             * Format: date-time
             * @example 2025-01-31T12:00:00.000Z
             */
            createdAt: string;
            /**
             * @description The login the wallet is linked to: `providerA` or `providerD` (zkLogin) or `siwe`.
             * @example providerA
             */
            provider: string;
        };
        /** @description What every webhook delivery POSTs and the NATS sink publishes (docs/integrations.md). At least once: dedupe by `id`. Order is not promised, not even per subscription. */
        WebhookEnvelope: {
            /** @description The payload of the type (`WebhookEvent_<type>` schemas). */
            data: Record<string, never>;
            /**
             * Format: uuid
             * @description The event id: the idempotency key of a receiver (deliveries of one event share it).
             */
            id: string;
            /**
             * Format: date-time
             * @description When the change committed its transaction (the service clock).
             */
            occurredAt: string;
            /** Format: uuid */
            tenantId: string;
            /** @enum {string} */
            type: "avatar.minted" | "community.joined" | "inventory.item_granted" | "participant.status_changed" | "prize.awarded" | "quest.completed" | "quest_event.status_changed" | "resource.credited" | "resource.debited" | "reward.allocated" | "reward.claimed" | "season.closed" | "season.created" | "season.rewarded" | "social.linked" | "store.purchase_completed" | "user.logged_in" | "user.registered";
            version: number;
        };
        /** @description `avatar.minted` version 1: A user's avatar was minted as an NFT (the transaction's receipt was confirmed). */
        "WebhookEvent_avatar.minted": {
            blockchain: string;
            /** Format: uuid */
            communityId: string;
            /** Format: uuid */
            mintId: string;
            tokenId: string;
            txHash: string | null;
            /** Format: uuid */
            userId: string;
        };
        /** @description `community.joined` version 1: A user joined a community. */
        "WebhookEvent_community.joined": {
            /** Format: uuid */
            communityId: string;
            /** Format: uuid */
            userId: string;
        };
        /** @description `inventory.item_granted` version 1: Units of an inventory item were granted to a user. */
        "WebhookEvent_inventory.item_granted": {
            /** Format: uuid */
            communityId: string;
            /** Format: uuid */
            grantId: string;
            /** Format: uuid */
            itemId: string;
            quantity: number;
            reason: string;
            reference: string | null;
            /** Format: uuid */
            userId: string;
        };
        /** @description `participant.status_changed` version 1: A user's participation in a quest event changed status (`from` null: the first registration). */
        "WebhookEvent_participant.status_changed": {
            /** @enum {string} */
            action: "register" | "unregister" | "cancel" | "drop";
            /** Format: uuid */
            communityId: string;
            /** Format: uuid */
            eventId: string;
            /** @enum {string|null} */
            from: "REGISTERED" | "UNREGISTERED" | "DROPPED" | "CANCELLED" | null;
            /** @enum {string} */
            to: "REGISTERED" | "UNREGISTERED" | "DROPPED" | "CANCELLED";
            /** Format: uuid */
            userId: string;
        };
        /** @description `prize.awarded` version 1: A prize was awarded to a user (by the store, an event or the management API). */
        "WebhookEvent_prize.awarded": {
            /** Format: uuid */
            awardId: string;
            /** Format: uuid */
            prizeId: string;
            quantity: number;
            reason: string;
            reference: string | null;
            source: string;
            /** Format: uuid */
            userId: string;
        };
        /** @description `quest_event.status_changed` version 1: A quest event was created, published, cancelled or completed (`from` null: created). The statuses that follow from time alone (registration_open, active, ended) are not events. */
        "WebhookEvent_quest_event.status_changed": {
            /** Format: uuid */
            communityId: string;
            /** Format: uuid */
            eventId: string;
            /** @enum {string|null} */
            from: "draft" | "upcoming" | "registration_open" | "active" | "ended" | "completed" | "cancelled" | null;
            /** @enum {string} */
            to: "draft" | "upcoming" | "registration_open" | "active" | "ended" | "completed" | "cancelled";
        };
        /** @description `quest.completed` version 1: A user completed a quest (once per user and quest); its rewards were granted in the same transaction. */
        "WebhookEvent_quest.completed": {
            /** Format: uuid */
            communityId: string;
            /** Format: uuid */
            completionId: string;
            /** Format: uuid */
            questEventId: string | null;
            /** Format: uuid */
            questId: string;
            /** Format: uuid */
            userId: string;
        };
        /** @description `resource.credited` version 1: An amount was added to a user's balance (never for a replayed idempotency key). */
        "WebhookEvent_resource.credited": {
            /** @description The amount added (positive). */
            amount: number;
            /** @description The spendable balance after the change. */
            balance: number;
            /**
             * @description `global`: a community currency (XP); `scoped`: the points of one quest event.
             * @enum {string}
             */
            kind: "global" | "scoped";
            /** @description `quest_completion`, `store_purchase`, `event_reward`, an operator’s own reason... */
            reason: string;
            /** @description What caused it (a quest, purchase or claim id...). */
            reference: string | null;
            /** Format: uuid */
            resourceTypeId: string;
            /** Format: uuid */
            userId: string;
        };
        /** @description `resource.debited` version 1: An amount was taken from a user's balance (a purchase's price, a revoked score...). */
        "WebhookEvent_resource.debited": {
            /** @description The amount taken (positive). */
            amount: number;
            /** @description The spendable balance after the change. */
            balance: number;
            /**
             * @description `global`: a community currency (XP); `scoped`: the points of one quest event.
             * @enum {string}
             */
            kind: "global" | "scoped";
            /** @description `quest_completion`, `store_purchase`, `event_reward`, an operator’s own reason... */
            reason: string;
            /** @description What caused it (a quest, purchase or claim id...). */
            reference: string | null;
            /** Format: uuid */
            resourceTypeId: string;
            /** Format: uuid */
            userId: string;
        };
        /** @description `reward.allocated` version 1: Tickets of a quest event's reward were allocated to a participant when the event completed. */
        "WebhookEvent_reward.allocated": {
            /** Format: uuid */
            allocationId: string;
            /** Format: uuid */
            eventId: string;
            /** Format: uuid */
            rewardId: string;
            tickets: number;
            /** Format: uuid */
            userId: string;
        };
        /** @description `reward.claimed` version 1: A participant spent tickets on a reward. */
        "WebhookEvent_reward.claimed": {
            /** Format: uuid */
            allocationId: string;
            /** Format: uuid */
            claimId: string;
            /** Format: uuid */
            eventId: string;
            /** Format: uuid */
            rewardId: string;
            /** @enum {string} */
            status: "processed" | "pending_fulfilment";
            ticketsSpent: number;
            /** Format: uuid */
            userId: string;
        };
        /** @description `season.closed` version 1: A season ended: its standings are frozen and its rank rewards paid. */
        "WebhookEvent_season.closed": {
            /** Format: uuid */
            communityId: string;
            /** @description The last place whose rewards were paid. */
            paidThrough: number;
            /** @description Players in the final standings. */
            ranked: number;
            /** Format: uuid */
            resourceTypeId: string;
            /** Format: uuid */
            seasonId: string;
        };
        /** @description `season.created` version 1: A season was defined through the management API, or opened by its schedule (before it starts). */
        "WebhookEvent_season.created": {
            /** Format: uuid */
            communityId: string;
            /** Format: date-time */
            endsAt: string;
            name: string;
            number: number;
            /** Format: uuid */
            resourceTypeId: string;
            /**
             * Format: uuid
             * @description The schedule that opened it; null for a one-off season.
             */
            scheduleId: string | null;
            /** Format: uuid */
            seasonId: string;
            /** Format: date-time */
            startsAt: string;
        };
        /** @description `season.rewarded` version 1: A winner's rank rewards were paid when the season closed (once per player and season). */
        "WebhookEvent_season.rewarded": {
            /** @description The final place. */
            rank: number;
            /** @description The rewards of the place, in the season’s reward order; `failed`: refused (e.g. no supply left). */
            rewards: {
                amount: number;
                /** Format: uuid */
                refId: string;
                /** @enum {string} */
                status: "paid" | "failed";
                /** @enum {string} */
                type: "resource" | "item" | "prize";
            }[];
            score: number;
            /** Format: uuid */
            seasonId: string;
            /** Format: uuid */
            userId: string;
        };
        /** @description `social.linked` version 1: A user linked a social account (or linked again one they hold). */
        "WebhookEvent_social.linked": {
            accountType: string;
            /** Format: uuid */
            socialId: string;
            subjectId: string;
            /** Format: uuid */
            userId: string;
        };
        /** @description `store.purchase_completed` version 1: A store purchase committed (its price paid and its grant made in the same transaction). Never for a replayed nonce. */
        "WebhookEvent_store.purchase_completed": {
            /** Format: uuid */
            communityId: string;
            /** Format: uuid */
            itemId: string | null;
            /** @enum {string} */
            kind: "item" | "prize" | "resource";
            /** Format: uuid */
            listingId: string;
            price: {
                amount: number;
                /** Format: uuid */
                resourceTypeId: string;
            }[];
            /** Format: uuid */
            prizeId: string | null;
            /** Format: uuid */
            purchaseId: string;
            quantity: number;
            /** Format: uuid */
            resourceTypeId: string | null;
            /** Format: uuid */
            userId: string;
        };
        /** @description `user.logged_in` version 1: A session was started (every login and registration). */
        "WebhookEvent_user.logged_in": {
            /** @description `password`, `siwe`, `providerA`, `providerB`, `zklogin_providerA`... */
            method: string;
            /** Format: uuid */
            userId: string;
        };
        /** @description `user.registered` version 1: A user was created (password registration, or the first login of an identity). */
        "WebhookEvent_user.registered": {
            handle: string;
            /** Format: uuid */
            userId: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    live: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example ok */
                        status?: string;
                    };
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `unsafe_input` (10002, message `generic_client_error`): The request holds what the service never accepts from a client: a reserved key (`__proto__`, `constructor`, `prototype`) anywhere in the body, query or settings, nesting deeper than 32 levels, a NUL character, a lone surrogate (half a character, e.g. `\ud800`), percent-encoding that does not decode as UTF-8, or a query string beyond its limits (depth, array size, parameter count).
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    ready: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example ok */
                        status?: string;
                    };
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `unsafe_input` (10002, message `generic_client_error`): The request holds what the service never accepts from a client: a reserved key (`__proto__`, `constructor`, `prototype`) anywhere in the body, query or settings, nesting deeper than 32 levels, a NUL character, a lone surrogate (half a character, e.g. `\ud800`), percent-encoding that does not decode as UTF-8, or a query string beyond its limits (depth, array size, parameter count).
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `service_unavailable` (10503): the database does not answer, or `Object.prototype` was written to. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listAdminAuditLog: {
        parameters: {
            query?: {
                /** @description The caller, as entries name it. */
                actor?: string;
                /** @description Entries at or after this time. */
                from?: string;
                /** @description Items per page (default 20, at most 100). */
                limit?: number;
                method?: "POST" | "PUT" | "PATCH" | "DELETE";
                /** @description Page number, starting at 1. */
                page?: number;
                /** @description Entries whose route template starts with this (`/v1/admin/communities` matches its sub-routes too). */
                route?: string;
                /** @description Entries before this time. */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditLogPageDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listAdminCommunities: {
        parameters: {
            query?: {
                /** @description Items per page (default 20, at most 100). */
                limit?: number;
                /** @description Page number, starting at 1. */
                page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedCommunity"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    createCommunity: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateCommunityDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CommunityDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `invalid_community_slug` (10002, message `generic_client_error`): A slug is 1-64 lowercase letters, digits and dashes, not uuid-shaped and not reserved.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `community_slug_taken` (20002): Another community of this tenant already uses this slug. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20002,
                     *       "detail": "Another community of this tenant already uses this slug.",
                     *       "error": "community_slug_taken",
                     *       "message": "community_slug_taken"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    getAdminCommunity: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                communityId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CommunityDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `community_not_found` (20001): No community with this id or slug in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    updateCommunity: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                communityId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateCommunityDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CommunityDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `invalid_community_slug` (10002, message `generic_client_error`): A slug is 1-64 lowercase letters, digits and dashes, not uuid-shaped and not reserved.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `community_not_found` (20001): No community with this id or slug in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `community_slug_taken` (20002): Another community of this tenant already uses this slug. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20002,
                     *       "detail": "Another community of this tenant already uses this slug.",
                     *       "error": "community_slug_taken",
                     *       "message": "community_slug_taken"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listCommunityMembers: {
        parameters: {
            query?: {
                /** @description Items per page (default 20, at most 100). */
                limit?: number;
                /** @description Page number, starting at 1. */
                page?: number;
                /** @description A part of the handle or display name, any case (empty: every member). */
                query?: string;
            };
            header?: never;
            path: {
                communityId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedCommunityMember"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `community_not_found` (20001): No community with this id or slug in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    grantInventoryItem: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GrantItemDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ItemGrantResultDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `user_not_found` (11004): No such user in this tenant.
             *
             *     `item_not_found` (50002): No item with this id in this community.
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 11004,
                     *       "detail": "No such user in this tenant.",
                     *       "error": "user_not_found",
                     *       "message": "user_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `supply_exhausted` (50003): The item has no supply left for this grant; nothing was granted.
             *
             *     `grant_idempotency_key_reused` (50007): The idempotency key was already used for a different grant (another user, item or quantity).
             */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 50003,
                     *       "detail": "The item has no supply left for this grant; nothing was granted.",
                     *       "error": "supply_exhausted",
                     *       "message": "supply_exhausted"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listAdminInventoryItems: {
        parameters: {
            query: {
                /** @description Community id or slug. */
                communityId: string;
                /** @description Items per page (default 20, at most 100). */
                limit?: number;
                /** @description Page number, starting at 1. */
                page?: number;
                /** @description Only the items of this slot (id or key). */
                slotId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedItem"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `community_not_found` (20001): No community with this id or slug in this tenant.
             *
             *     `slot_not_found` (50001): No slot with this id or key in this community.
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    createInventoryItem: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateItemDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ItemDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `community_not_found` (20001): No community with this id or slug in this tenant.
             *
             *     `slot_not_found` (50001): No slot with this id or key in this community.
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    updateInventoryItem: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                itemId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateItemDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ItemDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `supply_below_granted` (10002, message `generic_client_error`): An item supply cannot be lowered below the units already granted.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `item_not_found` (50002): No item with this id in this community. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 50002,
                     *       "detail": "No item with this id in this community.",
                     *       "error": "item_not_found",
                     *       "message": "item_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listAdminInventorySlots: {
        parameters: {
            query: {
                /** @description Community id or slug. */
                communityId: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SlotDto"][];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `community_not_found` (20001): No community with this id or slug in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    createInventorySlot: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateSlotDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SlotDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `invalid_slot_key` (10002, message `generic_client_error`): A slot key cannot look like a uuid.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `community_not_found` (20001): No community with this id or slug in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `slot_key_taken` (50004): The community already has a slot with this key. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 50004,
                     *       "detail": "The community already has a slot with this key.",
                     *       "error": "slot_key_taken",
                     *       "message": "slot_key_taken"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    updateInventorySlot: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                slotId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateSlotDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SlotDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `slot_not_found` (50001): No slot with this id or key in this community. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 50001,
                     *       "detail": "No slot with this id or key in this community.",
                     *       "error": "slot_not_found",
                     *       "message": "slot_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listAdminPrizes: {
        parameters: {
            query?: {
                /** @description Items per page (default 20, at most 100). */
                limit?: number;
                /** @description Page number, starting at 1. */
                page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedPrize"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    createPrize: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreatePrizeDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PrizeDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `invalid_prize` (10002, message `generic_client_error`): The prize is inconsistent (unknown community or requirement).
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `community_not_found` (20001): No community with this id or slug in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    getAdminPrize: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                prizeId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PrizeDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `prize_not_found` (40101): No such prize in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 40101,
                     *       "detail": "No such prize in this tenant.",
                     *       "error": "prize_not_found",
                     *       "message": "prize_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    updatePrize: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                prizeId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdatePrizeDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PrizeDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `invalid_prize` (10002, message `generic_client_error`): The prize is inconsistent (unknown community or requirement).
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `prize_not_found` (40101): No such prize in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 40101,
                     *       "detail": "No such prize in this tenant.",
                     *       "error": "prize_not_found",
                     *       "message": "prize_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `prize_supply_below_awarded` (40104): The total supply cannot be set below the number already awarded. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 40104,
                     *       "detail": "The total supply cannot be set below the number already awarded.",
                     *       "error": "prize_supply_below_awarded",
                     *       "message": "prize_supply_below_awarded"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    awardPrize: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                prizeId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AwardPrizeDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PrizeAwardResultDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `prize_not_found` (40101): No such prize in this tenant.
             *
             *     `user_not_found` (11004): No such user in this tenant.
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 40101,
                     *       "detail": "No such prize in this tenant.",
                     *       "error": "prize_not_found",
                     *       "message": "prize_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `prize_supply_exhausted` (40102): Not enough of the prize is left; nothing was awarded.
             *
             *     `prize_award_key_reused` (40103): The idempotency key was already used for another award (another prize, user or quantity).
             */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 40102,
                     *       "detail": "Not enough of the prize is left; nothing was awarded.",
                     *       "error": "prize_supply_exhausted",
                     *       "message": "prize_supply_exhausted"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listPrizeOwners: {
        parameters: {
            query?: {
                /** @description Items per page (default 20, at most 100). */
                limit?: number;
                /** @description Page number, starting at 1. */
                page?: number;
            };
            header?: never;
            path: {
                prizeId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedPrizeOwner"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `prize_not_found` (40101): No such prize in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 40101,
                     *       "detail": "No such prize in this tenant.",
                     *       "error": "prize_not_found",
                     *       "message": "prize_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listAdminQuestEvents: {
        parameters: {
            query?: {
                /** @description The community (id or slug). */
                communityId?: string;
                /** @description Items per page (default 20, at most 100). */
                limit?: number;
                /** @description Page number, starting at 1. */
                page?: number;
                status?: "draft" | "upcoming" | "registration_open" | "active" | "ended" | "completed" | "cancelled";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedQuestEvent"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `community_not_found` (20001): No community with this id or slug in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    createQuestEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateQuestEventDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuestEventDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `invalid_quest_event` (10002, message `generic_client_error`): The event is inconsistent: unordered times, a score resource that is not a scoped type of its community, or an invalid slug.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `community_not_found` (20001): No community with this id or slug in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `quest_event_slug_taken` (30502): Another quest event of this tenant already uses this slug. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 30502,
                     *       "detail": "Another quest event of this tenant already uses this slug.",
                     *       "error": "quest_event_slug_taken",
                     *       "message": "quest_event_slug_taken"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    getAdminQuestEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                eventId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuestEventDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `quest_event_not_found` (30501): No quest event with this id or slug in this tenant (drafts are invisible to users). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 30501,
                     *       "detail": "No quest event with this id or slug in this tenant (drafts are invisible to users).",
                     *       "error": "quest_event_not_found",
                     *       "message": "quest_event_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    updateQuestEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                eventId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateQuestEventDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuestEventDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `invalid_quest_event` (10002, message `generic_client_error`): The event is inconsistent: unordered times, a score resource that is not a scoped type of its community, or an invalid slug.
             *
             *     `quest_event_state` (10002, message `generic_client_error`): The event is not in a status that allows this operation (e.g. updating a completed event, closing a draft).
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `quest_event_not_found` (30501): No quest event with this id or slug in this tenant (drafts are invisible to users). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 30501,
                     *       "detail": "No quest event with this id or slug in this tenant (drafts are invisible to users).",
                     *       "error": "quest_event_not_found",
                     *       "message": "quest_event_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listQuestEventAllocations: {
        parameters: {
            query?: {
                /** @description Items per page (default 20, at most 100). */
                limit?: number;
                /** @description Page number, starting at 1. */
                page?: number;
            };
            header?: never;
            path: {
                eventId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedAdminRewardAllocation"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `quest_event_not_found` (30501): No quest event with this id or slug in this tenant (drafts are invisible to users). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 30501,
                     *       "detail": "No quest event with this id or slug in this tenant (drafts are invisible to users).",
                     *       "error": "quest_event_not_found",
                     *       "message": "quest_event_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    cancelQuestEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                eventId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuestEventDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `quest_event_state` (10002, message `generic_client_error`): The event is not in a status that allows this operation (e.g. updating a completed event, closing a draft).
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `quest_event_not_found` (30501): No quest event with this id or slug in this tenant (drafts are invisible to users). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 30501,
                     *       "detail": "No quest event with this id or slug in this tenant (drafts are invisible to users).",
                     *       "error": "quest_event_not_found",
                     *       "message": "quest_event_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    closeQuestEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                eventId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CloseQuestEventResultDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `quest_event_state` (10002, message `generic_client_error`): The event is not in a status that allows this operation (e.g. updating a completed event, closing a draft).
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `quest_event_not_found` (30501): No quest event with this id or slug in this tenant (drafts are invisible to users). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 30501,
                     *       "detail": "No quest event with this id or slug in this tenant (drafts are invisible to users).",
                     *       "error": "quest_event_not_found",
                     *       "message": "quest_event_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listAdminParticipants: {
        parameters: {
            query?: {
                /** @description Items per page (default 20, at most 100). */
                limit?: number;
                /** @description Page number, starting at 1. */
                page?: number;
                /** @description Only participants in this status (1 REGISTERED, 2 UNREGISTERED, 3 DROPPED, 4 CANCELLED); all by default. */
                status?: 1 | 2 | 3 | 4;
            };
            header?: never;
            path: {
                eventId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedAdminParticipant"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `quest_event_not_found` (30501): No quest event with this id or slug in this tenant (drafts are invisible to users). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 30501,
                     *       "detail": "No quest event with this id or slug in this tenant (drafts are invisible to users).",
                     *       "error": "quest_event_not_found",
                     *       "message": "quest_event_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    dropParticipant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                eventId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DropParticipantDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ParticipantDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `participant_transition` (10002, message `generic_client_error`): The participant transition table forbids this action from the current status; the message names it.
             *
             *     `event_already_ended` (10002, message `generic_client_error`): The event has ended (or was completed or cancelled): participation cannot change any more.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `quest_event_not_found` (30501): No quest event with this id or slug in this tenant (drafts are invisible to users). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 30501,
                     *       "detail": "No quest event with this id or slug in this tenant (drafts are invisible to users).",
                     *       "error": "quest_event_not_found",
                     *       "message": "quest_event_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listQuestEventRewards: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                eventId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RewardDto"][];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `quest_event_not_found` (30501): No quest event with this id or slug in this tenant (drafts are invisible to users). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 30501,
                     *       "detail": "No quest event with this id or slug in this tenant (drafts are invisible to users).",
                     *       "error": "quest_event_not_found",
                     *       "message": "quest_event_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    createQuestEventReward: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                eventId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateRewardDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RewardDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `quest_event_state` (10002, message `generic_client_error`): The event is not in a status that allows this operation (e.g. updating a completed event, closing a draft).
             *
             *     `invalid_reward` (10002, message `generic_client_error`): The reward is inconsistent: an unknown resource type or item, or a missing payload for its kind.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `quest_event_not_found` (30501): No quest event with this id or slug in this tenant (drafts are invisible to users). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 30501,
                     *       "detail": "No quest event with this id or slug in this tenant (drafts are invisible to users).",
                     *       "error": "quest_event_not_found",
                     *       "message": "quest_event_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listAdminQuests: {
        parameters: {
            query: {
                communityId: string;
                limit?: number;
                page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedQuest"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `community_not_found` (20001): No community with this id or slug in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    createQuest: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateQuestDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuestDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `invalid_quest` (10002, message `generic_client_error`): The quest is inconsistent: an unknown reward resource type or item, or an event of another community.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `community_not_found` (20001): No community with this id or slug in this tenant.
             *
             *     `quest_event_not_found` (30501): No quest event with this id or slug in this tenant (drafts are invisible to users).
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    getAdminQuest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                questId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuestDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `quest_not_found` (30001): No quest with this id in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 30001,
                     *       "detail": "No quest with this id in this tenant.",
                     *       "error": "quest_not_found",
                     *       "message": "quest_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    updateQuest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                questId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateQuestDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuestDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `invalid_quest` (10002, message `generic_client_error`): The quest is inconsistent: an unknown reward resource type or item, or an event of another community.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `quest_not_found` (30001): No quest with this id in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 30001,
                     *       "detail": "No quest with this id in this tenant.",
                     *       "error": "quest_not_found",
                     *       "message": "quest_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    completeQuest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                questId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CompleteQuestDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuestCompletionDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `quest_not_completable` (10002, message `generic_client_error`): The quest cannot be completed now: it is not active, or it belongs to an event that is not active or in which the user is not REGISTERED.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `quest_not_found` (30001): No quest with this id in this tenant.
             *
             *     `user_not_found` (11004): No such user in this tenant.
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 30001,
                     *       "detail": "No quest with this id in this tenant.",
                     *       "error": "quest_not_found",
                     *       "message": "quest_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `supply_exhausted` (50003): The item has no supply left for this grant; nothing was granted. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 50003,
                     *       "detail": "The item has no supply left for this grant; nothing was granted.",
                     *       "error": "supply_exhausted",
                     *       "message": "supply_exhausted"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listUserBalances: {
        parameters: {
            query: {
                userId: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BalanceDto"][];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `user_not_found` (11004): No such user in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 11004,
                     *       "detail": "No such user in this tenant.",
                     *       "error": "user_not_found",
                     *       "message": "user_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    deductResource: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DeductResourceDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LedgerResultDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `user_not_found` (11004): No such user in this tenant.
             *
             *     `resource_type_not_found` (20101): No resource type with this id (or slug in this community) in this tenant.
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 11004,
                     *       "detail": "No such user in this tenant.",
                     *       "error": "user_not_found",
                     *       "message": "user_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `insufficient_balance` (20103): The user does not hold enough of the resource; nothing was changed.
             *
             *     `idempotency_key_reused` (20104): The idempotency key was already used for a different operation (another user, resource type or amount).
             */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20103,
                     *       "detail": "The user does not hold enough of the resource; nothing was changed.",
                     *       "error": "insufficient_balance",
                     *       "message": "insufficient_balance"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    getEarnedPerDay: {
        parameters: {
            query: {
                /** @description The community (id or slug). */
                communityId: string;
                /** @description How many days, today (UTC) included. */
                days?: number;
                /** @description The resource type (slug or id) of the community. */
                resourceType: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EarnedPerDayDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `community_not_found` (20001): No community with this id or slug in this tenant.
             *
             *     `resource_type_not_found` (20101): No resource type with this id (or slug in this community) in this tenant.
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    grantResource: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GrantResourceDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LedgerResultDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `amount_too_large` (10002, message `generic_client_error`): The resulting amount would exceed the largest supported value (2^53 - 1).
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `user_not_found` (11004): No such user in this tenant.
             *
             *     `resource_type_not_found` (20101): No resource type with this id (or slug in this community) in this tenant.
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 11004,
                     *       "detail": "No such user in this tenant.",
                     *       "error": "user_not_found",
                     *       "message": "user_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `idempotency_key_reused` (20104): The idempotency key was already used for a different operation (another user, resource type or amount). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20104,
                     *       "detail": "The idempotency key was already used for a different operation (another user, resource type or amount).",
                     *       "error": "idempotency_key_reused",
                     *       "message": "idempotency_key_reused"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    getAdminLeaderboard: {
        parameters: {
            query: {
                /** @description The community (id or slug). */
                communityId: string;
                /** @description Items per page (default 20, at most 100). */
                limit?: number;
                /** @description Page number, starting at 1. */
                page?: number;
                /** @description The resource type (slug or id) of the community. */
                resourceType: string;
                /** @description Extension: `current` (the running season of this resource that ends first) or a season id. Absent: the all-time board, as before. A live season ranks what was earned inside its window (equal amounts share a rank); a closed one shows its frozen final standings, where `rank` is the final place (ties went to who reached the score first). */
                season?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedLeaderboardEntry"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `community_not_found` (20001): No community with this id or slug in this tenant.
             *
             *     `resource_type_not_found` (20101): No resource type with this id (or slug in this community) in this tenant.
             *
             *     `season_not_found` (20105): No such season of this resource in this community (or, for `current`, none is running now).
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listLedgerEntries: {
        parameters: {
            query: {
                /** @description Items per page (default 20, at most 100). */
                limit?: number;
                /** @description Page number, starting at 1. */
                page?: number;
                resourceTypeId?: string;
                userId: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedLedgerEntry"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `user_not_found` (11004): No such user in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 11004,
                     *       "detail": "No such user in this tenant.",
                     *       "error": "user_not_found",
                     *       "message": "user_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    getAdminRanking: {
        parameters: {
            query: {
                communityId: string;
                /** @description Neighbours shown on each side of the user (default 2, at most 10). */
                neighbours?: number;
                resourceType: string;
                userId: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RankingDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `community_not_found` (20001): No community with this id or slug in this tenant.
             *
             *     `resource_type_not_found` (20101): No resource type with this id (or slug in this community) in this tenant.
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listAdminResourceTypes: {
        parameters: {
            query: {
                /** @description The community (id or slug). */
                communityId: string;
                /** @description Items per page (default 20, at most 100). */
                limit?: number;
                /** @description Page number, starting at 1. */
                page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedResourceType"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `community_not_found` (20001): No community with this id or slug in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    createResourceType: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateResourceTypeDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ResourceTypeDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `invalid_resource_type` (10002, message `generic_client_error`): A global resource type cannot name a quest event.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `community_not_found` (20001): No community with this id or slug in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `resource_type_slug_taken` (20102): The community already has a resource type with this slug. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20102,
                     *       "detail": "The community already has a resource type with this slug.",
                     *       "error": "resource_type_slug_taken",
                     *       "message": "resource_type_slug_taken"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    updateResourceType: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                resourceTypeId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateResourceTypeDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ResourceTypeDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `resource_type_not_found` (20101): No resource type with this id (or slug in this community) in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20101,
                     *       "detail": "No resource type with this id (or slug in this community) in this tenant.",
                     *       "error": "resource_type_not_found",
                     *       "message": "resource_type_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listSchedules: {
        parameters: {
            query: {
                communityId: string;
                /** @description Items per page (default 20, at most 100). */
                limit?: number;
                /** @description Page number, starting at 1. */
                page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedSeasonSchedule"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `community_not_found` (20001): No community with this id or slug in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    createSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateSeasonScheduleDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SeasonScheduleDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `invalid_season` (10002, message `generic_client_error`): The season is inconsistent: a window that starts in the past or ends before it starts, a reward without a rank range, an unknown resource, item, prize or quest, an invalid cron expression or time zone.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `community_not_found` (20001): No community with this id or slug in this tenant.
             *
             *     `resource_type_not_found` (20101): No resource type with this id (or slug in this community) in this tenant.
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    updateSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                scheduleId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateSeasonScheduleDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SeasonScheduleDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `invalid_season` (10002, message `generic_client_error`): The season is inconsistent: a window that starts in the past or ends before it starts, a reward without a rank range, an unknown resource, item, prize or quest, an invalid cron expression or time zone.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `season_schedule_not_found` (20202): No such season schedule in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20202,
                     *       "detail": "No such season schedule in this tenant.",
                     *       "error": "season_schedule_not_found",
                     *       "message": "season_schedule_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    adminListSeasons: {
        parameters: {
            query: {
                /** @description The community (id or slug). */
                communityId: string;
                /** @description Items per page (default 20, at most 100). */
                limit?: number;
                /** @description Page number, starting at 1. */
                page?: number;
                /** @description Only seasons of this resource type (slug or id). */
                resource?: string;
                /** @description Only seasons in this status (absent: all, latest first). */
                status?: "upcoming" | "live" | "closing" | "closed";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedSeason"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `community_not_found` (20001): No community with this id or slug in this tenant.
             *
             *     `resource_type_not_found` (20101): No resource type with this id (or slug in this community) in this tenant.
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    createSeason: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateSeasonDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminSeasonDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `invalid_season` (10002, message `generic_client_error`): The season is inconsistent: a window that starts in the past or ends before it starts, a reward without a rank range, an unknown resource, item, prize or quest, an invalid cron expression or time zone.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `community_not_found` (20001): No community with this id or slug in this tenant.
             *
             *     `resource_type_not_found` (20101): No resource type with this id (or slug in this community) in this tenant.
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    adminGetSeason: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                seasonId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminSeasonDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `season_not_found` (20105): No such season of this resource in this community (or, for `current`, none is running now). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20105,
                     *       "detail": "No such season of this resource in this community (or, for `current`, none is running now).",
                     *       "error": "season_not_found",
                     *       "message": "season_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listSeasonPayouts: {
        parameters: {
            query?: {
                /** @description Items per page (default 20, at most 100). */
                limit?: number;
                /** @description Page number, starting at 1. */
                page?: number;
            };
            header?: never;
            path: {
                seasonId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedSeasonPayout"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `season_not_found` (20105): No such season of this resource in this community (or, for `current`, none is running now). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20105,
                     *       "detail": "No such season of this resource in this community (or, for `current`, none is running now).",
                     *       "error": "season_not_found",
                     *       "message": "season_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listAdminStoreListings: {
        parameters: {
            query?: {
                /** @description Community id or slug; absent: every community. */
                containerId?: string;
                /** @description Items per page (default 20, at most 100). */
                limit?: number;
                /** @description Page number, starting at 1. */
                page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedListing"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `community_not_found` (20001): No community with this id or slug in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    createStoreListing: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateListingDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListingDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `invalid_listing` (10002, message `generic_client_error`): The listing is inconsistent: what it grants, its price or requirements are unknown or belong to another community, or its window is empty.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `community_not_found` (20001): No community with this id or slug in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    getAdminStoreListing: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                listingId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListingDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `listing_not_found` (40001): No such store listing in this tenant (or in the community named by containerId), or it is not on sale. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 40001,
                     *       "detail": "No such store listing in this tenant (or in the community named by containerId), or it is not on sale.",
                     *       "error": "listing_not_found",
                     *       "message": "listing_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    updateStoreListing: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                listingId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateListingDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListingDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `invalid_listing` (10002, message `generic_client_error`): The listing is inconsistent: what it grants, its price or requirements are unknown or belong to another community, or its window is empty.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `listing_not_found` (40001): No such store listing in this tenant (or in the community named by containerId), or it is not on sale. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 40001,
                     *       "detail": "No such store listing in this tenant (or in the community named by containerId), or it is not on sale.",
                     *       "error": "listing_not_found",
                     *       "message": "listing_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listAdminStorePurchases: {
        parameters: {
            query?: {
                /** @description Items per page (default 20, at most 100). */
                limit?: number;
                listingId?: string;
                /** @description Page number, starting at 1. */
                page?: number;
                userId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedAdminPurchase"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listStoreRequirements: {
        parameters: {
            query?: {
                /** @description Items per page (default 20, at most 100). */
                limit?: number;
                /** @description Page number, starting at 1. */
                page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedRequirement"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    createStoreRequirement: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateRequirementDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RequirementDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `invalid_requirement` (10002, message `generic_client_error`): The requirement definition is inconsistent (bad JSON schema, missing item or resource type for its kind).
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `requirement_key_taken` (40008): The tenant already has a requirement with this key. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 40008,
                     *       "detail": "The tenant already has a requirement with this key.",
                     *       "error": "requirement_key_taken",
                     *       "message": "requirement_key_taken"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    getStoreRequirement: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                requirementId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RequirementDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `requirement_not_found` (40007): No such requirement definition in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 40007,
                     *       "detail": "No such requirement definition in this tenant.",
                     *       "error": "requirement_not_found",
                     *       "message": "requirement_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    getAdminTenant: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenantDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    setTenantDomains: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SetTenantDomainsDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenantDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `invalid_domain` (10002, message `generic_client_error`): A domain is not a host name (letters, digits, "-" and "."; an IDN is accepted); `detail` says which and why.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `domain_taken` (13001): A domain is already assigned to another tenant; nothing changed. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 13001,
                     *       "detail": "A domain is already assigned to another tenant; nothing changed.",
                     *       "error": "domain_taken",
                     *       "message": "domain_taken"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    getAdminUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminUserDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `user_not_found` (11004): No such user in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 11004,
                     *       "detail": "No such user in this tenant.",
                     *       "error": "user_not_found",
                     *       "message": "user_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listAdminUserInventory: {
        parameters: {
            query?: {
                /** @description Items per page (default 20, at most 100). */
                limit?: number;
                /** @description Page number, starting at 1. */
                page?: number;
            };
            header?: never;
            path: {
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedAdminHolding"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `user_not_found` (11004): No such user in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 11004,
                     *       "detail": "No such user in this tenant.",
                     *       "error": "user_not_found",
                     *       "message": "user_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listAdminUserNotifications: {
        parameters: {
            query?: {
                /** @description Items per page (default 20, at most 100). */
                limit?: number;
                /** @description Page number, starting at 1. */
                page?: number;
            };
            header?: never;
            path: {
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationPageDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `user_not_found` (11004): No such user in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 11004,
                     *       "detail": "No such user in this tenant.",
                     *       "error": "user_not_found",
                     *       "message": "user_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listAdminUserParticipations: {
        parameters: {
            query?: {
                /** @description Items per page (default 20, at most 100). */
                limit?: number;
                /** @description Page number, starting at 1. */
                page?: number;
            };
            header?: never;
            path: {
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedAdminUserParticipation"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `user_not_found` (11004): No such user in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 11004,
                     *       "detail": "No such user in this tenant.",
                     *       "error": "user_not_found",
                     *       "message": "user_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listAdminUserSocials: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminSocialDto"][];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `user_not_found` (11004): No such user in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 11004,
                     *       "detail": "No such user in this tenant.",
                     *       "error": "user_not_found",
                     *       "message": "user_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listAdminUserWallets: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WalletDto"][];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `user_not_found` (11004): No such user in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 11004,
                     *       "detail": "No such user in this tenant.",
                     *       "error": "user_not_found",
                     *       "message": "user_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                eventId?: string;
                /** @description Deliveries created at or after. */
                from?: string;
                /** @description Items per page (default 20, at most 100). */
                limit?: number;
                /** @description Page number, starting at 1. */
                page?: number;
                status?: "pending" | "delivering" | "delivered" | "dead";
                subscriptionId?: string;
                /** @description Deliveries created before. */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedDelivery"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    redeliverWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RedeliveredDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `delivery_not_found` (70002): No webhook delivery with this id in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 70002,
                     *       "detail": "No webhook delivery with this id in this tenant.",
                     *       "error": "delivery_not_found",
                     *       "message": "delivery_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listWebhookEventTypes: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventTypeListDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `unsafe_input` (10002, message `generic_client_error`): The request holds what the service never accepts from a client: a reserved key (`__proto__`, `constructor`, `prototype`) anywhere in the body, query or settings, nesting deeper than 32 levels, a NUL character, a lone surrogate (half a character, e.g. `\ud800`), percent-encoding that does not decode as UTF-8, or a query string beyond its limits (depth, array size, parameter count).
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listWebhookSubscriptions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriptionListDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `unsafe_input` (10002, message `generic_client_error`): The request holds what the service never accepts from a client: a reserved key (`__proto__`, `constructor`, `prototype`) anywhere in the body, query or settings, nesting deeper than 32 levels, a NUL character, a lone surrogate (half a character, e.g. `\ud800`), percent-encoding that does not decode as UTF-8, or a query string beyond its limits (depth, array size, parameter count).
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    createWebhookSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateSubscriptionDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriptionWithSecretDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `webhook_url_refused` (10002, message `generic_client_error`): The webhook URL is not an absolute http(s) URL without credentials, or its host resolves to a private, loopback, link-local or otherwise non-public address (refused against server-side request forgery).
             *
             *     `unknown_event_type` (10002, message `generic_client_error`): An event type is not in the catalogue (GET /v1/admin/webhooks/event-types).
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `too_many_subscriptions` (70003): The tenant has the most webhook subscriptions allowed (50). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 70003,
                     *       "detail": "The tenant has the most webhook subscriptions allowed (50).",
                     *       "error": "too_many_subscriptions",
                     *       "message": "too_many_subscriptions"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    getWebhookSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                subscriptionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriptionDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `subscription_not_found` (70001): No webhook subscription with this id in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 70001,
                     *       "detail": "No webhook subscription with this id in this tenant.",
                     *       "error": "subscription_not_found",
                     *       "message": "subscription_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    deleteWebhookSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                subscriptionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `subscription_not_found` (70001): No webhook subscription with this id in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 70001,
                     *       "detail": "No webhook subscription with this id in this tenant.",
                     *       "error": "subscription_not_found",
                     *       "message": "subscription_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    updateWebhookSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                subscriptionId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateSubscriptionDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriptionDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `webhook_url_refused` (10002, message `generic_client_error`): The webhook URL is not an absolute http(s) URL without credentials, or its host resolves to a private, loopback, link-local or otherwise non-public address (refused against server-side request forgery).
             *
             *     `unknown_event_type` (10002, message `generic_client_error`): An event type is not in the catalogue (GET /v1/admin/webhooks/event-types).
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `subscription_not_found` (70001): No webhook subscription with this id in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 70001,
                     *       "detail": "No webhook subscription with this id in this tenant.",
                     *       "error": "subscription_not_found",
                     *       "message": "subscription_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    redeliverFailedWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                subscriptionId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RedeliverWindowDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RedeliveredDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `subscription_not_found` (70001): No webhook subscription with this id in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 70001,
                     *       "detail": "No webhook subscription with this id in this tenant.",
                     *       "error": "subscription_not_found",
                     *       "message": "subscription_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                subscriptionId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RotateSecretDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriptionWithSecretDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `api_key_missing` (10413, message `GENERIC_UNAUTHORIZED`): The management route needs the tenant API key in `X-Api-Key`.
             *
             *     `api_key_invalid` (10414, message `GENERIC_UNAUTHORIZED`): The API key is not the key of any tenant (or was rotated).
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10413,
                     *       "detail": "The management route needs the tenant API key in `X-Api-Key`.",
                     *       "error": "api_key_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `subscription_not_found` (70001): No webhook subscription with this id in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 70001,
                     *       "detail": "No webhook subscription with this id in this tenant.",
                     *       "error": "subscription_not_found",
                     *       "message": "subscription_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `secret_rotated_concurrently` (70004): Another rotation of this subscription's secret was applied at the same time; this one changed nothing (the secret in effect is the other answer's). Rotate again if a newer secret is still wanted. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 70004,
                     *       "detail": "Another rotation of this subscription's secret was applied at the same time; this one changed nothing (the secret in effect is the other answer's). Rotate again if a newer secret is still wanted.",
                     *       "error": "secret_rotated_concurrently",
                     *       "message": "secret_rotated_concurrently"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    getInventory: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Community id or slug. */
                ckey: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InventoryDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `session_token_missing` (10411, message `GENERIC_UNAUTHORIZED`): The route needs a session token: send `Authorization: Bearer <sessionToken>`.
             *
             *     `session_token_invalid` (10412, message `GENERIC_UNAUTHORIZED`): The session token is malformed, tampered with, signed with another key or revoked.
             *
             *     `session_ended` (10416, message `GENERIC_UNAUTHORIZED`): The session was ended: logged out, or its user no longer exists. Log in again.
             *
             *     `SESSION_TOKEN_EXPIRED` (10402): The session token has expired; obtain a new one with POST /v1/user/auth/refresh-session.
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10411,
                     *       "detail": "The route needs a session token: send `Authorization: Bearer <sessionToken>`.",
                     *       "error": "session_token_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `community_not_found` (20001): No community with this id or slug in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    getUserAvatar: {
        parameters: {
            query: {
                userId: string;
            };
            header?: {
                /** @description Tenant id or slug. Needed only when nothing else names the tenant. The tenant of a request is, in this order: the session token's (when one is sent; this header naming another tenant is then 401), this header, the tenant an operator assigned the host name to, the DEFAULT_TENANT setting, the only tenant. */
                "X-Tenant-Id"?: string;
            };
            path: {
                /** @description Community id or slug. */
                ckey: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AvatarDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `tenant_required` (10002, message `generic_client_error`): Nothing names the tenant of this request: several tenants exist, and there is no session token, no X-Tenant-Id, no domain of a tenant in the host name and no DEFAULT_TENANT.
             *
             *     `unknown_tenant` (10002, message `generic_client_error`): X-Tenant-Id (or the tenant in the path) names no tenant.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `community_not_found` (20001): No community with this id or slug in this tenant.
             *
             *     `user_not_found` (11004): No such user in this tenant.
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    mintUserAvatar: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Community id or slug. */
                ckey: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MintAvatarDto"];
            };
        };
        responses: {
            /** @description Mint queued; no content. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `unknown_blockchain` (10002, message `generic_client_error`): The blockchain is not configured, or is disabled.
             *
             *     `no_suitable_wallet` (10002, message `generic_client_error`): The user has no wallet that can hold a token on this blockchain (an EVM address from a SIWE login is needed; a zkLogin wallet is a Sui address).
             *
             *     `avatar_empty` (10002, message `generic_client_error`): The avatar has no allocated item, so there is nothing to mint.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `session_token_missing` (10411, message `GENERIC_UNAUTHORIZED`): The route needs a session token: send `Authorization: Bearer <sessionToken>`.
             *
             *     `session_token_invalid` (10412, message `GENERIC_UNAUTHORIZED`): The session token is malformed, tampered with, signed with another key or revoked.
             *
             *     `session_ended` (10416, message `GENERIC_UNAUTHORIZED`): The session was ended: logged out, or its user no longer exists. Log in again.
             *
             *     `SESSION_TOKEN_EXPIRED` (10402): The session token has expired; obtain a new one with POST /v1/user/auth/refresh-session.
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10411,
                     *       "detail": "The route needs a session token: send `Authorization: Bearer <sessionToken>`.",
                     *       "error": "session_token_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `community_not_found` (20001): No community with this id or slug in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `avatar_already_minted` (50005): This version of the avatar already has a mint on this blockchain (pending or done). Change the avatar to mint again. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 50005,
                     *       "detail": "This version of the avatar already has a mint on this blockchain (pending or done). Change the avatar to mint again.",
                     *       "error": "avatar_already_minted",
                     *       "message": "avatar_already_minted"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listInventoryItems: {
        parameters: {
            query: {
                /** @description Items per page (default 20, at most 100). */
                limit?: number;
                /** @description `true`: only items the user owns; `false`: every item, with the user's quantity. Required; `true` or `false` in any case, or `1`/`0`. */
                onlyOwned: "true" | "false";
                /** @description Page number, starting at 1. */
                page?: number;
                userId: string;
            };
            header?: {
                /** @description Tenant id or slug. Needed only when nothing else names the tenant. The tenant of a request is, in this order: the session token's (when one is sent; this header naming another tenant is then 401), this header, the tenant an operator assigned the host name to, the DEFAULT_TENANT setting, the only tenant. */
                "X-Tenant-Id"?: string;
            };
            path: {
                /** @description Community id or slug. */
                ckey: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedUserItem"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `tenant_required` (10002, message `generic_client_error`): Nothing names the tenant of this request: several tenants exist, and there is no session token, no X-Tenant-Id, no domain of a tenant in the host name and no DEFAULT_TENANT.
             *
             *     `unknown_tenant` (10002, message `generic_client_error`): X-Tenant-Id (or the tenant in the path) names no tenant.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `community_not_found` (20001): No community with this id or slug in this tenant.
             *
             *     `user_not_found` (11004): No such user in this tenant.
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    getInventoryItem: {
        parameters: {
            query?: never;
            header?: {
                /** @description Tenant id or slug. Needed only when nothing else names the tenant. The tenant of a request is, in this order: the session token's (when one is sent; this header naming another tenant is then 401), this header, the tenant an operator assigned the host name to, the DEFAULT_TENANT setting, the only tenant. */
                "X-Tenant-Id"?: string;
            };
            path: {
                /** @description Community id or slug. */
                ckey: string;
                itemId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ItemDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `tenant_required` (10002, message `generic_client_error`): Nothing names the tenant of this request: several tenants exist, and there is no session token, no X-Tenant-Id, no domain of a tenant in the host name and no DEFAULT_TENANT.
             *
             *     `unknown_tenant` (10002, message `generic_client_error`): X-Tenant-Id (or the tenant in the path) names no tenant.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `community_not_found` (20001): No community with this id or slug in this tenant.
             *
             *     `item_not_found` (50002): No item with this id in this community.
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    getAvatarNftMetadata: {
        parameters: {
            query?: never;
            header?: {
                /** @description Tenant id or slug. Needed only when nothing else names the tenant. The tenant of a request is, in this order: the session token's (when one is sent; this header naming another tenant is then 401), this header, the tenant an operator assigned the host name to, the DEFAULT_TENANT setting, the only tenant. */
                "X-Tenant-Id"?: string;
            };
            path: {
                /** @description Community id or slug. */
                ckey: string;
                mintId: string;
                /** @description Tenant id or slug (the guard reads it; no header needed). */
                tenantId: unknown;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NftMetadataDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `tenant_required` (10002, message `generic_client_error`): Nothing names the tenant of this request: several tenants exist, and there is no session token, no X-Tenant-Id, no domain of a tenant in the host name and no DEFAULT_TENANT.
             *
             *     `unknown_tenant` (10002, message `generic_client_error`): X-Tenant-Id (or the tenant in the path) names no tenant.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `community_not_found` (20001): No community with this id or slug in this tenant.
             *
             *     `mint_not_found` (50006): No avatar mint with this id.
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listInventorySlots: {
        parameters: {
            query: {
                userId: string;
            };
            header?: {
                /** @description Tenant id or slug. Needed only when nothing else names the tenant. The tenant of a request is, in this order: the session token's (when one is sent; this header naming another tenant is then 401), this header, the tenant an operator assigned the host name to, the DEFAULT_TENANT setting, the only tenant. */
                "X-Tenant-Id"?: string;
            };
            path: {
                /** @description Community id or slug. */
                ckey: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserSlotsDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `tenant_required` (10002, message `generic_client_error`): Nothing names the tenant of this request: several tenants exist, and there is no session token, no X-Tenant-Id, no domain of a tenant in the host name and no DEFAULT_TENANT.
             *
             *     `unknown_tenant` (10002, message `generic_client_error`): X-Tenant-Id (or the tenant in the path) names no tenant.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `community_not_found` (20001): No community with this id or slug in this tenant.
             *
             *     `user_not_found` (11004): No such user in this tenant.
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listSlotItems: {
        parameters: {
            query: {
                /** @description Items per page (default 20, at most 100). */
                limit?: number;
                /** @description `true`: only items the user owns; `false`: every item, with the user's quantity. Required; `true` or `false` in any case, or `1`/`0`. */
                onlyOwned: "true" | "false";
                /** @description Page number, starting at 1. */
                page?: number;
            };
            header?: never;
            path: {
                /** @description Community id or slug. */
                ckey: string;
                slotId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedUserItem"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `session_token_missing` (10411, message `GENERIC_UNAUTHORIZED`): The route needs a session token: send `Authorization: Bearer <sessionToken>`.
             *
             *     `session_token_invalid` (10412, message `GENERIC_UNAUTHORIZED`): The session token is malformed, tampered with, signed with another key or revoked.
             *
             *     `session_ended` (10416, message `GENERIC_UNAUTHORIZED`): The session was ended: logged out, or its user no longer exists. Log in again.
             *
             *     `SESSION_TOKEN_EXPIRED` (10402): The session token has expired; obtain a new one with POST /v1/user/auth/refresh-session.
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10411,
                     *       "detail": "The route needs a session token: send `Authorization: Bearer <sessionToken>`.",
                     *       "error": "session_token_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `community_not_found` (20001): No community with this id or slug in this tenant.
             *
             *     `slot_not_found` (50001): No slot with this id or key in this community.
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    allocateInventorySlots: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Community id or slug. */
                ckey: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AllocateSlotsDto"];
            };
        };
        responses: {
            /** @description Allocated; no content. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `item_not_owned` (10002, message `generic_client_error`): An allocated item is not owned by the user; nothing was allocated.
             *
             *     `item_slot_mismatch` (10002, message `generic_client_error`): An allocated item does not fit the slot it was put in; nothing was allocated.
             *
             *     `duplicate_slot` (10002, message `generic_client_error`): The same slot appears twice in one allocation.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `session_token_missing` (10411, message `GENERIC_UNAUTHORIZED`): The route needs a session token: send `Authorization: Bearer <sessionToken>`.
             *
             *     `session_token_invalid` (10412, message `GENERIC_UNAUTHORIZED`): The session token is malformed, tampered with, signed with another key or revoked.
             *
             *     `session_ended` (10416, message `GENERIC_UNAUTHORIZED`): The session was ended: logged out, or its user no longer exists. Log in again.
             *
             *     `SESSION_TOKEN_EXPIRED` (10402): The session token has expired; obtain a new one with POST /v1/user/auth/refresh-session.
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10411,
                     *       "detail": "The route needs a session token: send `Authorization: Bearer <sessionToken>`.",
                     *       "error": "session_token_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `community_not_found` (20001): No community with this id or slug in this tenant.
             *
             *     `slot_not_found` (50001): No slot with this id or key in this community.
             *
             *     `item_not_found` (50002): No item with this id in this community.
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    getCommunity: {
        parameters: {
            query?: never;
            header?: {
                /** @description Tenant id or slug. Needed only when nothing else names the tenant. The tenant of a request is, in this order: the session token's (when one is sent; this header naming another tenant is then 401), this header, the tenant an operator assigned the host name to, the DEFAULT_TENANT setting, the only tenant. */
                "X-Tenant-Id"?: string;
            };
            path: {
                communityId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CommunityDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `tenant_required` (10002, message `generic_client_error`): Nothing names the tenant of this request: several tenants exist, and there is no session token, no X-Tenant-Id, no domain of a tenant in the host name and no DEFAULT_TENANT.
             *
             *     `unknown_tenant` (10002, message `generic_client_error`): X-Tenant-Id (or the tenant in the path) names no tenant.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `community_not_found` (20001): No community with this id or slug in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `internal_error` (10001): An unexpected error. Details are logged under the request id, never returned. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10001,
                     *       "detail": "An unexpected error. Details are logged under the request id, never returned.",
                     *       "error": "internal_error",
                     *       "message": "internal_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    joinCommunity: {
        parameters: {
            query: {
                /** @description Handle of the referring member; empty for none. */
                referrerHandle: string;
            };
            header?: never;
            path: {
                communityId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Already a member; nothing changed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MembershipDto"];
                };
            };
            /** @description Joined. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MembershipDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `self_referral` (10002, message `generic_client_error`): A user cannot refer themselves.
             *
             *     `unknown_referrer` (10002, message `generic_client_error`): referrerHandle names no user of this tenant (or, for a community, no member of it).
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `session_token_missing` (10411, message `GENERIC_UNAUTHORIZED`): The route needs a session token: send `Authorization: Bearer <sessionToken>`.
             *
             *     `session_token_invalid` (10412, message `GENERIC_UNAUTHORIZED`): The session token is malformed, tampered with, signed with another key or revoked.
             *
             *     `session_ended` (10416, message `GENERIC_UNAUTHORIZED`): The session was ended: logged out, or its user no longer exists. Log in again.
             *
             *     `SESSION_TOKEN_EXPIRED` (10402): The session token has expired; obtain a new one with POST /v1/user/auth/refresh-session.
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10411,
                     *       "detail": "The route needs a session token: send `Authorization: Bearer <sessionToken>`.",
                     *       "error": "session_token_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `community_not_found` (20001): No community with this id or slug in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `internal_error` (10001): An unexpected error. Details are logged under the request id, never returned. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10001,
                     *       "detail": "An unexpected error. Details are logged under the request id, never returned.",
                     *       "error": "internal_error",
                     *       "message": "internal_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listCommunityQuests: {
        parameters: {
            query: {
                /** @description `true`: featured quests only; `false`: non-featured only; empty: both. `true`/`false` in any case, or `1`/`0`. */
                featured: "" | "true" | "false";
                limit: number;
                page: number;
                /** @description Case-insensitive text searched in name and description. Empty: no text filter. */
                query: string;
                /** @description Quests of ANY of these types. Empty: any type. */
                questTypes: string[];
                /** @description Quests having ANY of these tags (repeat or comma-separate). Empty: any tag. */
                tags: string[];
            };
            header?: never;
            path: {
                communityId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedQuest"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `session_token_missing` (10411, message `GENERIC_UNAUTHORIZED`): The route needs a session token: send `Authorization: Bearer <sessionToken>`.
             *
             *     `session_token_invalid` (10412, message `GENERIC_UNAUTHORIZED`): The session token is malformed, tampered with, signed with another key or revoked.
             *
             *     `session_ended` (10416, message `GENERIC_UNAUTHORIZED`): The session was ended: logged out, or its user no longer exists. Log in again.
             *
             *     `SESSION_TOKEN_EXPIRED` (10402): The session token has expired; obtain a new one with POST /v1/user/auth/refresh-session.
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10411,
                     *       "detail": "The route needs a session token: send `Authorization: Bearer <sessionToken>`.",
                     *       "error": "session_token_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `community_not_found` (20001): No community with this id or slug in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `internal_error` (10001): An unexpected error. Details are logged under the request id, never returned. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10001,
                     *       "detail": "An unexpected error. Details are logged under the request id, never returned.",
                     *       "error": "internal_error",
                     *       "message": "internal_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listCommunityQuestTags: {
        parameters: {
            query: {
                /** @description `true`: template quests are left out of the statistics (tags only templates use disappear). */
                excludeTemplateTags: boolean;
                /** @description `true`: each tag carries the sum of its quests' rewards; `false` or empty: it does not. `true`/`false` in any case, or `1`/`0`. */
                includeRewards: "" | "true" | "false";
                /** @description `true`: count only quests the user has not completed yet (tags with none disappear). */
                userAvailableQuests: boolean;
                /** @description Whose completions to count: a user id of the tenant; empty: the current user. */
                userId: string;
            };
            header?: never;
            path: {
                communityId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuestTagDto"][];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `session_token_missing` (10411, message `GENERIC_UNAUTHORIZED`): The route needs a session token: send `Authorization: Bearer <sessionToken>`.
             *
             *     `session_token_invalid` (10412, message `GENERIC_UNAUTHORIZED`): The session token is malformed, tampered with, signed with another key or revoked.
             *
             *     `session_ended` (10416, message `GENERIC_UNAUTHORIZED`): The session was ended: logged out, or its user no longer exists. Log in again.
             *
             *     `SESSION_TOKEN_EXPIRED` (10402): The session token has expired; obtain a new one with POST /v1/user/auth/refresh-session.
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10411,
                     *       "detail": "The route needs a session token: send `Authorization: Bearer <sessionToken>`.",
                     *       "error": "session_token_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `community_not_found` (20001): No community with this id or slug in this tenant.
             *
             *     `user_not_found` (11004): No such user in this tenant.
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `internal_error` (10001): An unexpected error. Details are logged under the request id, never returned. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10001,
                     *       "detail": "An unexpected error. Details are logged under the request id, never returned.",
                     *       "error": "internal_error",
                     *       "message": "internal_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listCommunityReferrals: {
        parameters: {
            query?: {
                /** @description Items per page (default 20, at most 100). */
                limit?: number;
                /** @description Page number, starting at 1. */
                page?: number;
            };
            header?: never;
            path: {
                communityId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedCommunityReferral"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `session_token_missing` (10411, message `GENERIC_UNAUTHORIZED`): The route needs a session token: send `Authorization: Bearer <sessionToken>`.
             *
             *     `session_token_invalid` (10412, message `GENERIC_UNAUTHORIZED`): The session token is malformed, tampered with, signed with another key or revoked.
             *
             *     `session_ended` (10416, message `GENERIC_UNAUTHORIZED`): The session was ended: logged out, or its user no longer exists. Log in again.
             *
             *     `SESSION_TOKEN_EXPIRED` (10402): The session token has expired; obtain a new one with POST /v1/user/auth/refresh-session.
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10411,
                     *       "detail": "The route needs a session token: send `Authorization: Bearer <sessionToken>`.",
                     *       "error": "session_token_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `community_not_found` (20001): No community with this id or slug in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `internal_error` (10001): An unexpected error. Details are logged under the request id, never returned. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10001,
                     *       "detail": "An unexpected error. Details are logged under the request id, never returned.",
                     *       "error": "internal_error",
                     *       "message": "internal_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listCommunityResourceTypes: {
        parameters: {
            query?: {
                /** @description Items per page (default 20, at most 100). */
                limit?: number;
                /** @description Page number, starting at 1. */
                page?: number;
            };
            header?: {
                /** @description Tenant id or slug. Needed only when nothing else names the tenant. The tenant of a request is, in this order: the session token's (when one is sent; this header naming another tenant is then 401), this header, the tenant an operator assigned the host name to, the DEFAULT_TENANT setting, the only tenant. */
                "X-Tenant-Id"?: string;
            };
            path: {
                communityId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedResourceType"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `tenant_required` (10002, message `generic_client_error`): Nothing names the tenant of this request: several tenants exist, and there is no session token, no X-Tenant-Id, no domain of a tenant in the host name and no DEFAULT_TENANT.
             *
             *     `unknown_tenant` (10002, message `generic_client_error`): X-Tenant-Id (or the tenant in the path) names no tenant.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `community_not_found` (20001): No community with this id or slug in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `internal_error` (10001): An unexpected error. Details are logged under the request id, never returned. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10001,
                     *       "detail": "An unexpected error. Details are logged under the request id, never returned.",
                     *       "error": "internal_error",
                     *       "message": "internal_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    getCommunityLeaderboard: {
        parameters: {
            query?: {
                /** @description Items per page (default 20, at most 100). */
                limit?: number;
                /** @description Page number, starting at 1. */
                page?: number;
                /** @description Extension: `current` (the running season of this resource that ends first) or a season id. Absent: the all-time board, as before. A live season ranks what was earned inside its window (equal amounts share a rank); a closed one shows its frozen final standings, where `rank` is the final place (ties went to who reached the score first). */
                season?: string;
            };
            header?: {
                /** @description Tenant id or slug. Needed only when nothing else names the tenant. The tenant of a request is, in this order: the session token's (when one is sent; this header naming another tenant is then 401), this header, the tenant an operator assigned the host name to, the DEFAULT_TENANT setting, the only tenant. */
                "X-Tenant-Id"?: string;
            };
            path: {
                id: string;
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedLeaderboardEntry"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `tenant_required` (10002, message `generic_client_error`): Nothing names the tenant of this request: several tenants exist, and there is no session token, no X-Tenant-Id, no domain of a tenant in the host name and no DEFAULT_TENANT.
             *
             *     `unknown_tenant` (10002, message `generic_client_error`): X-Tenant-Id (or the tenant in the path) names no tenant.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `community_not_found` (20001): No community with this id or slug in this tenant.
             *
             *     `resource_type_not_found` (20101): No resource type with this id (or slug in this community) in this tenant.
             *
             *     `season_not_found` (20105): No such season of this resource in this community (or, for `current`, none is running now).
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `internal_error` (10001): An unexpected error. Details are logged under the request id, never returned. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10001,
                     *       "detail": "An unexpected error. Details are logged under the request id, never returned.",
                     *       "error": "internal_error",
                     *       "message": "internal_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    getCommunityRanking: {
        parameters: {
            query?: {
                /** @description Neighbours shown on each side of the user (default 2, at most 10). */
                neighbours?: number;
                /** @description Extension: `current` (the running season of this resource that ends first) or a season id. Absent: the all-time board, as before. A live season ranks what was earned inside its window (equal amounts share a rank); a closed one shows its frozen final standings, where `rank` is the final place (ties went to who reached the score first). */
                season?: string;
            };
            header?: never;
            path: {
                id: string;
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RankingDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `session_token_missing` (10411, message `GENERIC_UNAUTHORIZED`): The route needs a session token: send `Authorization: Bearer <sessionToken>`.
             *
             *     `session_token_invalid` (10412, message `GENERIC_UNAUTHORIZED`): The session token is malformed, tampered with, signed with another key or revoked.
             *
             *     `session_ended` (10416, message `GENERIC_UNAUTHORIZED`): The session was ended: logged out, or its user no longer exists. Log in again.
             *
             *     `SESSION_TOKEN_EXPIRED` (10402): The session token has expired; obtain a new one with POST /v1/user/auth/refresh-session.
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10411,
                     *       "detail": "The route needs a session token: send `Authorization: Bearer <sessionToken>`.",
                     *       "error": "session_token_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `community_not_found` (20001): No community with this id or slug in this tenant.
             *
             *     `resource_type_not_found` (20101): No resource type with this id (or slug in this community) in this tenant.
             *
             *     `season_not_found` (20105): No such season of this resource in this community (or, for `current`, none is running now).
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `internal_error` (10001): An unexpected error. Details are logged under the request id, never returned. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10001,
                     *       "detail": "An unexpected error. Details are logged under the request id, never returned.",
                     *       "error": "internal_error",
                     *       "message": "internal_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listSeasons: {
        parameters: {
            query?: {
                /** @description Items per page (default 20, at most 100). */
                limit?: number;
                /** @description Page number, starting at 1. */
                page?: number;
                /** @description Only seasons of this resource type (slug or id). */
                resource?: string;
                /** @description Only seasons in this status (absent: all, latest first). */
                status?: "upcoming" | "live" | "closing" | "closed";
            };
            header?: {
                /** @description Tenant id or slug. Needed only when nothing else names the tenant. The tenant of a request is, in this order: the session token's (when one is sent; this header naming another tenant is then 401), this header, the tenant an operator assigned the host name to, the DEFAULT_TENANT setting, the only tenant. */
                "X-Tenant-Id"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedSeason"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `tenant_required` (10002, message `generic_client_error`): Nothing names the tenant of this request: several tenants exist, and there is no session token, no X-Tenant-Id, no domain of a tenant in the host name and no DEFAULT_TENANT.
             *
             *     `unknown_tenant` (10002, message `generic_client_error`): X-Tenant-Id (or the tenant in the path) names no tenant.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `community_not_found` (20001): No community with this id or slug in this tenant.
             *
             *     `resource_type_not_found` (20101): No resource type with this id (or slug in this community) in this tenant.
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `internal_error` (10001): An unexpected error. Details are logged under the request id, never returned. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10001,
                     *       "detail": "An unexpected error. Details are logged under the request id, never returned.",
                     *       "error": "internal_error",
                     *       "message": "internal_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    getSeason: {
        parameters: {
            query?: never;
            header?: {
                /** @description Tenant id or slug. Needed only when nothing else names the tenant. The tenant of a request is, in this order: the session token's (when one is sent; this header naming another tenant is then 401), this header, the tenant an operator assigned the host name to, the DEFAULT_TENANT setting, the only tenant. */
                "X-Tenant-Id"?: string;
            };
            path: {
                id: string;
                seasonId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SeasonDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `tenant_required` (10002, message `generic_client_error`): Nothing names the tenant of this request: several tenants exist, and there is no session token, no X-Tenant-Id, no domain of a tenant in the host name and no DEFAULT_TENANT.
             *
             *     `unknown_tenant` (10002, message `generic_client_error`): X-Tenant-Id (or the tenant in the path) names no tenant.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `community_not_found` (20001): No community with this id or slug in this tenant.
             *
             *     `season_not_found` (20105): No such season of this resource in this community (or, for `current`, none is running now).
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `internal_error` (10001): An unexpected error. Details are logged under the request id, never returned. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10001,
                     *       "detail": "An unexpected error. Details are logged under the request id, never returned.",
                     *       "error": "internal_error",
                     *       "message": "internal_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    getResourceType: {
        parameters: {
            query?: never;
            header?: {
                /** @description Tenant id or slug. Needed only when nothing else names the tenant. The tenant of a request is, in this order: the session token's (when one is sent; this header naming another tenant is then 401), this header, the tenant an operator assigned the host name to, the DEFAULT_TENANT setting, the only tenant. */
                "X-Tenant-Id"?: string;
            };
            path: {
                resourceTypeId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ResourceTypeDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `tenant_required` (10002, message `generic_client_error`): Nothing names the tenant of this request: several tenants exist, and there is no session token, no X-Tenant-Id, no domain of a tenant in the host name and no DEFAULT_TENANT.
             *
             *     `unknown_tenant` (10002, message `generic_client_error`): X-Tenant-Id (or the tenant in the path) names no tenant.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `resource_type_not_found` (20101): No resource type with this id (or slug in this community) in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20101,
                     *       "detail": "No resource type with this id (or slug in this community) in this tenant.",
                     *       "error": "resource_type_not_found",
                     *       "message": "resource_type_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `internal_error` (10001): An unexpected error. Details are logged under the request id, never returned. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10001,
                     *       "detail": "An unexpected error. Details are logged under the request id, never returned.",
                     *       "error": "internal_error",
                     *       "message": "internal_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listPrizes: {
        parameters: {
            query: {
                /** @description Items per page (default 20, at most 100). */
                limit?: number;
                /** @description `true`: only prizes the user owns; `false`: every prize of the tenant, with the user's quantity. `true` or `false` in any case, or `1`/`0`. */
                ownedOnly: "true" | "false";
                /** @description Page number, starting at 1. */
                page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedUserPrize"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `session_token_missing` (10411, message `GENERIC_UNAUTHORIZED`): The route needs a session token: send `Authorization: Bearer <sessionToken>`.
             *
             *     `session_token_invalid` (10412, message `GENERIC_UNAUTHORIZED`): The session token is malformed, tampered with, signed with another key or revoked.
             *
             *     `session_ended` (10416, message `GENERIC_UNAUTHORIZED`): The session was ended: logged out, or its user no longer exists. Log in again.
             *
             *     `SESSION_TOKEN_EXPIRED` (10402): The session token has expired; obtain a new one with POST /v1/user/auth/refresh-session.
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10411,
                     *       "detail": "The route needs a session token: send `Authorization: Bearer <sessionToken>`.",
                     *       "error": "session_token_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `internal_error` (10001): An unexpected error. Details are logged under the request id, never returned. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10001,
                     *       "detail": "An unexpected error. Details are logged under the request id, never returned.",
                     *       "error": "internal_error",
                     *       "message": "internal_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    getPrize: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                prizeId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PrizeDetailDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `session_token_missing` (10411, message `GENERIC_UNAUTHORIZED`): The route needs a session token: send `Authorization: Bearer <sessionToken>`.
             *
             *     `session_token_invalid` (10412, message `GENERIC_UNAUTHORIZED`): The session token is malformed, tampered with, signed with another key or revoked.
             *
             *     `session_ended` (10416, message `GENERIC_UNAUTHORIZED`): The session was ended: logged out, or its user no longer exists. Log in again.
             *
             *     `SESSION_TOKEN_EXPIRED` (10402): The session token has expired; obtain a new one with POST /v1/user/auth/refresh-session.
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10411,
                     *       "detail": "The route needs a session token: send `Authorization: Bearer <sessionToken>`.",
                     *       "error": "session_token_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `prize_not_found` (40101): No such prize in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 40101,
                     *       "detail": "No such prize in this tenant.",
                     *       "error": "prize_not_found",
                     *       "message": "prize_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `internal_error` (10001): An unexpected error. Details are logged under the request id, never returned. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10001,
                     *       "detail": "An unexpected error. Details are logged under the request id, never returned.",
                     *       "error": "internal_error",
                     *       "message": "internal_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    getPrizeSupply: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                prizeId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PrizeSupplyDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `session_token_missing` (10411, message `GENERIC_UNAUTHORIZED`): The route needs a session token: send `Authorization: Bearer <sessionToken>`.
             *
             *     `session_token_invalid` (10412, message `GENERIC_UNAUTHORIZED`): The session token is malformed, tampered with, signed with another key or revoked.
             *
             *     `session_ended` (10416, message `GENERIC_UNAUTHORIZED`): The session was ended: logged out, or its user no longer exists. Log in again.
             *
             *     `SESSION_TOKEN_EXPIRED` (10402): The session token has expired; obtain a new one with POST /v1/user/auth/refresh-session.
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10411,
                     *       "detail": "The route needs a session token: send `Authorization: Bearer <sessionToken>`.",
                     *       "error": "session_token_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `prize_not_found` (40101): No such prize in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 40101,
                     *       "detail": "No such prize in this tenant.",
                     *       "error": "prize_not_found",
                     *       "message": "prize_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `internal_error` (10001): An unexpected error. Details are logged under the request id, never returned. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10001,
                     *       "detail": "An unexpected error. Details are logged under the request id, never returned.",
                     *       "error": "internal_error",
                     *       "message": "internal_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listPrizeRequirements: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserRequirementDto"][];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `session_token_missing` (10411, message `GENERIC_UNAUTHORIZED`): The route needs a session token: send `Authorization: Bearer <sessionToken>`.
             *
             *     `session_token_invalid` (10412, message `GENERIC_UNAUTHORIZED`): The session token is malformed, tampered with, signed with another key or revoked.
             *
             *     `session_ended` (10416, message `GENERIC_UNAUTHORIZED`): The session was ended: logged out, or its user no longer exists. Log in again.
             *
             *     `SESSION_TOKEN_EXPIRED` (10402): The session token has expired; obtain a new one with POST /v1/user/auth/refresh-session.
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10411,
                     *       "detail": "The route needs a session token: send `Authorization: Bearer <sessionToken>`.",
                     *       "error": "session_token_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `internal_error` (10001): An unexpected error. Details are logged under the request id, never returned. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10001,
                     *       "detail": "An unexpected error. Details are logged under the request id, never returned.",
                     *       "error": "internal_error",
                     *       "message": "internal_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listQuestEvents: {
        parameters: {
            query?: {
                filter?: components["schemas"]["QuestEventFilterDto"];
                /** @description Events with a reward granting this item. */
                itemId?: string;
                limit?: number;
                page?: number;
                participating?: boolean;
                registrationOpen?: boolean;
                /** @description Events scored with, or rewarding, this resource type. */
                resourceId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedQuestEvent"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `session_token_missing` (10411, message `GENERIC_UNAUTHORIZED`): The route needs a session token: send `Authorization: Bearer <sessionToken>`.
             *
             *     `session_token_invalid` (10412, message `GENERIC_UNAUTHORIZED`): The session token is malformed, tampered with, signed with another key or revoked.
             *
             *     `session_ended` (10416, message `GENERIC_UNAUTHORIZED`): The session was ended: logged out, or its user no longer exists. Log in again.
             *
             *     `SESSION_TOKEN_EXPIRED` (10402): The session token has expired; obtain a new one with POST /v1/user/auth/refresh-session.
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10411,
                     *       "detail": "The route needs a session token: send `Authorization: Bearer <sessionToken>`.",
                     *       "error": "session_token_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `community_not_found` (20001): No community with this id or slug in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `internal_error` (10001): An unexpected error. Details are logged under the request id, never returned. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10001,
                     *       "detail": "An unexpected error. Details are logged under the request id, never returned.",
                     *       "error": "internal_error",
                     *       "message": "internal_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    getQuestEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                eventId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuestEventDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `session_token_missing` (10411, message `GENERIC_UNAUTHORIZED`): The route needs a session token: send `Authorization: Bearer <sessionToken>`.
             *
             *     `session_token_invalid` (10412, message `GENERIC_UNAUTHORIZED`): The session token is malformed, tampered with, signed with another key or revoked.
             *
             *     `session_ended` (10416, message `GENERIC_UNAUTHORIZED`): The session was ended: logged out, or its user no longer exists. Log in again.
             *
             *     `SESSION_TOKEN_EXPIRED` (10402): The session token has expired; obtain a new one with POST /v1/user/auth/refresh-session.
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10411,
                     *       "detail": "The route needs a session token: send `Authorization: Bearer <sessionToken>`.",
                     *       "error": "session_token_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `quest_event_not_found` (30501): No quest event with this id or slug in this tenant (drafts are invisible to users). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 30501,
                     *       "detail": "No quest event with this id or slug in this tenant (drafts are invisible to users).",
                     *       "error": "quest_event_not_found",
                     *       "message": "quest_event_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `internal_error` (10001): An unexpected error. Details are logged under the request id, never returned. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10001,
                     *       "detail": "An unexpected error. Details are logged under the request id, never returned.",
                     *       "error": "internal_error",
                     *       "message": "internal_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    getParticipant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                eventId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ParticipantDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `session_token_missing` (10411, message `GENERIC_UNAUTHORIZED`): The route needs a session token: send `Authorization: Bearer <sessionToken>`.
             *
             *     `session_token_invalid` (10412, message `GENERIC_UNAUTHORIZED`): The session token is malformed, tampered with, signed with another key or revoked.
             *
             *     `session_ended` (10416, message `GENERIC_UNAUTHORIZED`): The session was ended: logged out, or its user no longer exists. Log in again.
             *
             *     `SESSION_TOKEN_EXPIRED` (10402): The session token has expired; obtain a new one with POST /v1/user/auth/refresh-session.
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10411,
                     *       "detail": "The route needs a session token: send `Authorization: Bearer <sessionToken>`.",
                     *       "error": "session_token_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `quest_event_not_found` (30501): No quest event with this id or slug in this tenant (drafts are invisible to users).
             *
             *     `participant_not_found` (30601): The user has never registered for this event.
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 30501,
                     *       "detail": "No quest event with this id or slug in this tenant (drafts are invisible to users).",
                     *       "error": "quest_event_not_found",
                     *       "message": "quest_event_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `internal_error` (10001): An unexpected error. Details are logged under the request id, never returned. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10001,
                     *       "detail": "An unexpected error. Details are logged under the request id, never returned.",
                     *       "error": "internal_error",
                     *       "message": "internal_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    cancelParticipation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                eventId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ParticipantDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `participant_transition` (10002, message `generic_client_error`): The participant transition table forbids this action from the current status; the message names it.
             *
             *     `event_already_ended` (10002, message `generic_client_error`): The event has ended (or was completed or cancelled): participation cannot change any more.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `session_token_missing` (10411, message `GENERIC_UNAUTHORIZED`): The route needs a session token: send `Authorization: Bearer <sessionToken>`.
             *
             *     `session_token_invalid` (10412, message `GENERIC_UNAUTHORIZED`): The session token is malformed, tampered with, signed with another key or revoked.
             *
             *     `session_ended` (10416, message `GENERIC_UNAUTHORIZED`): The session was ended: logged out, or its user no longer exists. Log in again.
             *
             *     `SESSION_TOKEN_EXPIRED` (10402): The session token has expired; obtain a new one with POST /v1/user/auth/refresh-session.
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10411,
                     *       "detail": "The route needs a session token: send `Authorization: Bearer <sessionToken>`.",
                     *       "error": "session_token_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `quest_event_not_found` (30501): No quest event with this id or slug in this tenant (drafts are invisible to users). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 30501,
                     *       "detail": "No quest event with this id or slug in this tenant (drafts are invisible to users).",
                     *       "error": "quest_event_not_found",
                     *       "message": "quest_event_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `internal_error` (10001): An unexpected error. Details are logged under the request id, never returned. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10001,
                     *       "detail": "An unexpected error. Details are logged under the request id, never returned.",
                     *       "error": "internal_error",
                     *       "message": "internal_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listParticipants: {
        parameters: {
            query?: {
                /** @description Items per page (default 20, at most 100). */
                limit?: number;
                /** @description Page number, starting at 1. */
                page?: number;
            };
            header?: never;
            path: {
                eventId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedParticipantListItem"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `session_token_missing` (10411, message `GENERIC_UNAUTHORIZED`): The route needs a session token: send `Authorization: Bearer <sessionToken>`.
             *
             *     `session_token_invalid` (10412, message `GENERIC_UNAUTHORIZED`): The session token is malformed, tampered with, signed with another key or revoked.
             *
             *     `session_ended` (10416, message `GENERIC_UNAUTHORIZED`): The session was ended: logged out, or its user no longer exists. Log in again.
             *
             *     `SESSION_TOKEN_EXPIRED` (10402): The session token has expired; obtain a new one with POST /v1/user/auth/refresh-session.
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10411,
                     *       "detail": "The route needs a session token: send `Authorization: Bearer <sessionToken>`.",
                     *       "error": "session_token_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `quest_event_not_found` (30501): No quest event with this id or slug in this tenant (drafts are invisible to users). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 30501,
                     *       "detail": "No quest event with this id or slug in this tenant (drafts are invisible to users).",
                     *       "error": "quest_event_not_found",
                     *       "message": "quest_event_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `internal_error` (10001): An unexpected error. Details are logged under the request id, never returned. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10001,
                     *       "detail": "An unexpected error. Details are logged under the request id, never returned.",
                     *       "error": "internal_error",
                     *       "message": "internal_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    getParticipantRank: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                eventId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ParticipantRankDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `session_token_missing` (10411, message `GENERIC_UNAUTHORIZED`): The route needs a session token: send `Authorization: Bearer <sessionToken>`.
             *
             *     `session_token_invalid` (10412, message `GENERIC_UNAUTHORIZED`): The session token is malformed, tampered with, signed with another key or revoked.
             *
             *     `session_ended` (10416, message `GENERIC_UNAUTHORIZED`): The session was ended: logged out, or its user no longer exists. Log in again.
             *
             *     `SESSION_TOKEN_EXPIRED` (10402): The session token has expired; obtain a new one with POST /v1/user/auth/refresh-session.
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10411,
                     *       "detail": "The route needs a session token: send `Authorization: Bearer <sessionToken>`.",
                     *       "error": "session_token_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `quest_event_not_found` (30501): No quest event with this id or slug in this tenant (drafts are invisible to users).
             *
             *     `participant_not_found` (30601): The user has never registered for this event.
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 30501,
                     *       "detail": "No quest event with this id or slug in this tenant (drafts are invisible to users).",
                     *       "error": "quest_event_not_found",
                     *       "message": "quest_event_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `internal_error` (10001): An unexpected error. Details are logged under the request id, never returned. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10001,
                     *       "detail": "An unexpected error. Details are logged under the request id, never returned.",
                     *       "error": "internal_error",
                     *       "message": "internal_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    registerParticipant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                eventId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ParticipantDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `participant_transition` (10002, message `generic_client_error`): The participant transition table forbids this action from the current status; the message names it.
             *
             *     `registration_closed` (10002, message `generic_client_error`): Registration is not open for this event (not published, before the window, after it, or the event ended).
             *
             *     `event_full` (10002, message `generic_client_error`): The event has reached its capacity of REGISTERED participants.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `session_token_missing` (10411, message `GENERIC_UNAUTHORIZED`): The route needs a session token: send `Authorization: Bearer <sessionToken>`.
             *
             *     `session_token_invalid` (10412, message `GENERIC_UNAUTHORIZED`): The session token is malformed, tampered with, signed with another key or revoked.
             *
             *     `session_ended` (10416, message `GENERIC_UNAUTHORIZED`): The session was ended: logged out, or its user no longer exists. Log in again.
             *
             *     `SESSION_TOKEN_EXPIRED` (10402): The session token has expired; obtain a new one with POST /v1/user/auth/refresh-session.
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10411,
                     *       "detail": "The route needs a session token: send `Authorization: Bearer <sessionToken>`.",
                     *       "error": "session_token_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `not_a_member` (20003): The current user is not a member of this community. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20003,
                     *       "detail": "The current user is not a member of this community.",
                     *       "error": "not_a_member",
                     *       "message": "not_a_member"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `quest_event_not_found` (30501): No quest event with this id or slug in this tenant (drafts are invisible to users). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 30501,
                     *       "detail": "No quest event with this id or slug in this tenant (drafts are invisible to users).",
                     *       "error": "quest_event_not_found",
                     *       "message": "quest_event_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `internal_error` (10001): An unexpected error. Details are logged under the request id, never returned. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10001,
                     *       "detail": "An unexpected error. Details are logged under the request id, never returned.",
                     *       "error": "internal_error",
                     *       "message": "internal_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    syncParticipant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                eventId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ParticipantDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `participant_transition` (10002, message `generic_client_error`): The participant transition table forbids this action from the current status; the message names it.
             *
             *     `event_already_ended` (10002, message `generic_client_error`): The event has ended (or was completed or cancelled): participation cannot change any more.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `session_token_missing` (10411, message `GENERIC_UNAUTHORIZED`): The route needs a session token: send `Authorization: Bearer <sessionToken>`.
             *
             *     `session_token_invalid` (10412, message `GENERIC_UNAUTHORIZED`): The session token is malformed, tampered with, signed with another key or revoked.
             *
             *     `session_ended` (10416, message `GENERIC_UNAUTHORIZED`): The session was ended: logged out, or its user no longer exists. Log in again.
             *
             *     `SESSION_TOKEN_EXPIRED` (10402): The session token has expired; obtain a new one with POST /v1/user/auth/refresh-session.
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10411,
                     *       "detail": "The route needs a session token: send `Authorization: Bearer <sessionToken>`.",
                     *       "error": "session_token_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `quest_event_not_found` (30501): No quest event with this id or slug in this tenant (drafts are invisible to users).
             *
             *     `participant_not_found` (30601): The user has never registered for this event.
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 30501,
                     *       "detail": "No quest event with this id or slug in this tenant (drafts are invisible to users).",
                     *       "error": "quest_event_not_found",
                     *       "message": "quest_event_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `internal_error` (10001): An unexpected error. Details are logged under the request id, never returned. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10001,
                     *       "detail": "An unexpected error. Details are logged under the request id, never returned.",
                     *       "error": "internal_error",
                     *       "message": "internal_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    unregisterParticipant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                eventId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ParticipantDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `participant_transition` (10002, message `generic_client_error`): The participant transition table forbids this action from the current status; the message names it.
             *
             *     `event_already_started` (10002, message `generic_client_error`): Unregistering is possible only before the event starts (cancel instead).
             *
             *     `event_already_ended` (10002, message `generic_client_error`): The event has ended (or was completed or cancelled): participation cannot change any more.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `session_token_missing` (10411, message `GENERIC_UNAUTHORIZED`): The route needs a session token: send `Authorization: Bearer <sessionToken>`.
             *
             *     `session_token_invalid` (10412, message `GENERIC_UNAUTHORIZED`): The session token is malformed, tampered with, signed with another key or revoked.
             *
             *     `session_ended` (10416, message `GENERIC_UNAUTHORIZED`): The session was ended: logged out, or its user no longer exists. Log in again.
             *
             *     `SESSION_TOKEN_EXPIRED` (10402): The session token has expired; obtain a new one with POST /v1/user/auth/refresh-session.
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10411,
                     *       "detail": "The route needs a session token: send `Authorization: Bearer <sessionToken>`.",
                     *       "error": "session_token_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `quest_event_not_found` (30501): No quest event with this id or slug in this tenant (drafts are invisible to users). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 30501,
                     *       "detail": "No quest event with this id or slug in this tenant (drafts are invisible to users).",
                     *       "error": "quest_event_not_found",
                     *       "message": "quest_event_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `internal_error` (10001): An unexpected error. Details are logged under the request id, never returned. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10001,
                     *       "detail": "An unexpected error. Details are logged under the request id, never returned.",
                     *       "error": "internal_error",
                     *       "message": "internal_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listRewardAllocations: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                eventId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RewardAllocationDto"][];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `session_token_missing` (10411, message `GENERIC_UNAUTHORIZED`): The route needs a session token: send `Authorization: Bearer <sessionToken>`.
             *
             *     `session_token_invalid` (10412, message `GENERIC_UNAUTHORIZED`): The session token is malformed, tampered with, signed with another key or revoked.
             *
             *     `session_ended` (10416, message `GENERIC_UNAUTHORIZED`): The session was ended: logged out, or its user no longer exists. Log in again.
             *
             *     `SESSION_TOKEN_EXPIRED` (10402): The session token has expired; obtain a new one with POST /v1/user/auth/refresh-session.
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10411,
                     *       "detail": "The route needs a session token: send `Authorization: Bearer <sessionToken>`.",
                     *       "error": "session_token_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `quest_event_not_found` (30501): No quest event with this id or slug in this tenant (drafts are invisible to users). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 30501,
                     *       "detail": "No quest event with this id or slug in this tenant (drafts are invisible to users).",
                     *       "error": "quest_event_not_found",
                     *       "message": "quest_event_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `internal_error` (10001): An unexpected error. Details are logged under the request id, never returned. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10001,
                     *       "detail": "An unexpected error. Details are logged under the request id, never returned.",
                     *       "error": "internal_error",
                     *       "message": "internal_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    claimRewardAllocation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                eventId: string;
                rewardAllocationId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ClaimRewardDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RewardClaimDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `not_enough_tickets` (10002, message `generic_client_error`): The allocation has fewer tickets left than the reward costs (e.g. it was already claimed); nothing changed.
             *
             *     `reward_sold_out` (10002, message `generic_client_error`): The reward has no supply left; nothing changed.
             *
             *     `claim_requirements` (10002, message `generic_client_error`): The reward needs data that was not given (email, walletAddress, address); nothing changed.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `session_token_missing` (10411, message `GENERIC_UNAUTHORIZED`): The route needs a session token: send `Authorization: Bearer <sessionToken>`.
             *
             *     `session_token_invalid` (10412, message `GENERIC_UNAUTHORIZED`): The session token is malformed, tampered with, signed with another key or revoked.
             *
             *     `session_ended` (10416, message `GENERIC_UNAUTHORIZED`): The session was ended: logged out, or its user no longer exists. Log in again.
             *
             *     `SESSION_TOKEN_EXPIRED` (10402): The session token has expired; obtain a new one with POST /v1/user/auth/refresh-session.
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10411,
                     *       "detail": "The route needs a session token: send `Authorization: Bearer <sessionToken>`.",
                     *       "error": "session_token_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `quest_event_not_found` (30501): No quest event with this id or slug in this tenant (drafts are invisible to users).
             *
             *     `allocation_not_found` (30504): No reward allocation with this id for this user in this event (another user's allocation included).
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 30501,
                     *       "detail": "No quest event with this id or slug in this tenant (drafts are invisible to users).",
                     *       "error": "quest_event_not_found",
                     *       "message": "quest_event_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `supply_exhausted` (50003): The item has no supply left for this grant; nothing was granted. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 50003,
                     *       "detail": "The item has no supply left for this grant; nothing was granted.",
                     *       "error": "supply_exhausted",
                     *       "message": "supply_exhausted"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `internal_error` (10001): An unexpected error. Details are logged under the request id, never returned. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10001,
                     *       "detail": "An unexpected error. Details are logged under the request id, never returned.",
                     *       "error": "internal_error",
                     *       "message": "internal_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    getQuestEventLeaderboard: {
        parameters: {
            query?: {
                /** @description Items per page (default 20, at most 100). */
                limit?: number;
                /** @description Page number, starting at 1. */
                page?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedLeaderboardEntry"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `session_token_missing` (10411, message `GENERIC_UNAUTHORIZED`): The route needs a session token: send `Authorization: Bearer <sessionToken>`.
             *
             *     `session_token_invalid` (10412, message `GENERIC_UNAUTHORIZED`): The session token is malformed, tampered with, signed with another key or revoked.
             *
             *     `session_ended` (10416, message `GENERIC_UNAUTHORIZED`): The session was ended: logged out, or its user no longer exists. Log in again.
             *
             *     `SESSION_TOKEN_EXPIRED` (10402): The session token has expired; obtain a new one with POST /v1/user/auth/refresh-session.
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10411,
                     *       "detail": "The route needs a session token: send `Authorization: Bearer <sessionToken>`.",
                     *       "error": "session_token_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `quest_event_not_found` (30501): No quest event with this id or slug in this tenant (drafts are invisible to users). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 30501,
                     *       "detail": "No quest event with this id or slug in this tenant (drafts are invisible to users).",
                     *       "error": "quest_event_not_found",
                     *       "message": "quest_event_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `internal_error` (10001): An unexpected error. Details are logged under the request id, never returned. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10001,
                     *       "detail": "An unexpected error. Details are logged under the request id, never returned.",
                     *       "error": "internal_error",
                     *       "message": "internal_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listQuestEventQuests: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuestDto"][];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `session_token_missing` (10411, message `GENERIC_UNAUTHORIZED`): The route needs a session token: send `Authorization: Bearer <sessionToken>`.
             *
             *     `session_token_invalid` (10412, message `GENERIC_UNAUTHORIZED`): The session token is malformed, tampered with, signed with another key or revoked.
             *
             *     `session_ended` (10416, message `GENERIC_UNAUTHORIZED`): The session was ended: logged out, or its user no longer exists. Log in again.
             *
             *     `SESSION_TOKEN_EXPIRED` (10402): The session token has expired; obtain a new one with POST /v1/user/auth/refresh-session.
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10411,
                     *       "detail": "The route needs a session token: send `Authorization: Bearer <sessionToken>`.",
                     *       "error": "session_token_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `quest_event_not_found` (30501): No quest event with this id or slug in this tenant (drafts are invisible to users). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 30501,
                     *       "detail": "No quest event with this id or slug in this tenant (drafts are invisible to users).",
                     *       "error": "quest_event_not_found",
                     *       "message": "quest_event_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `internal_error` (10001): An unexpected error. Details are logged under the request id, never returned. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10001,
                     *       "detail": "An unexpected error. Details are logged under the request id, never returned.",
                     *       "error": "internal_error",
                     *       "message": "internal_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    getStoreBalance: {
        parameters: {
            query: {
                /** @description Community id or slug. */
                containerId: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StoreBalanceDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `session_token_missing` (10411, message `GENERIC_UNAUTHORIZED`): The route needs a session token: send `Authorization: Bearer <sessionToken>`.
             *
             *     `session_token_invalid` (10412, message `GENERIC_UNAUTHORIZED`): The session token is malformed, tampered with, signed with another key or revoked.
             *
             *     `session_ended` (10416, message `GENERIC_UNAUTHORIZED`): The session was ended: logged out, or its user no longer exists. Log in again.
             *
             *     `SESSION_TOKEN_EXPIRED` (10402): The session token has expired; obtain a new one with POST /v1/user/auth/refresh-session.
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10411,
                     *       "detail": "The route needs a session token: send `Authorization: Bearer <sessionToken>`.",
                     *       "error": "session_token_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `community_not_found` (20001): No community with this id or slug in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listStoreListings: {
        parameters: {
            query: {
                /** @description Community id or slug. */
                containerId: string;
                /** @description true: each listing carries its requirements with the user's saved data, and whether the user can buy it now. */
                enrichRequirements: boolean;
                /** @description Items per page (default 20, at most 100). */
                limit?: number;
                /** @description Page number, starting at 1. */
                page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedListing"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `session_token_missing` (10411, message `GENERIC_UNAUTHORIZED`): The route needs a session token: send `Authorization: Bearer <sessionToken>`.
             *
             *     `session_token_invalid` (10412, message `GENERIC_UNAUTHORIZED`): The session token is malformed, tampered with, signed with another key or revoked.
             *
             *     `session_ended` (10416, message `GENERIC_UNAUTHORIZED`): The session was ended: logged out, or its user no longer exists. Log in again.
             *
             *     `SESSION_TOKEN_EXPIRED` (10402): The session token has expired; obtain a new one with POST /v1/user/auth/refresh-session.
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10411,
                     *       "detail": "The route needs a session token: send `Authorization: Bearer <sessionToken>`.",
                     *       "error": "session_token_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `community_not_found` (20001): No community with this id or slug in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listStorePurchases: {
        parameters: {
            query: {
                /** @description Community id or slug. */
                containerId: string;
                /** @description Items per page (default 20, at most 100). */
                limit?: number;
                /** @description Page number, starting at 1. */
                page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedPurchase"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `session_token_missing` (10411, message `GENERIC_UNAUTHORIZED`): The route needs a session token: send `Authorization: Bearer <sessionToken>`.
             *
             *     `session_token_invalid` (10412, message `GENERIC_UNAUTHORIZED`): The session token is malformed, tampered with, signed with another key or revoked.
             *
             *     `session_ended` (10416, message `GENERIC_UNAUTHORIZED`): The session was ended: logged out, or its user no longer exists. Log in again.
             *
             *     `SESSION_TOKEN_EXPIRED` (10402): The session token has expired; obtain a new one with POST /v1/user/auth/refresh-session.
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10411,
                     *       "detail": "The route needs a session token: send `Authorization: Bearer <sessionToken>`.",
                     *       "error": "session_token_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `community_not_found` (20001): No community with this id or slug in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    purchaseStoreListing: {
        parameters: {
            query?: {
                /** @description Extension: the community (id or slug) the client believes the listing is in; another community's listing is then 404. */
                containerId?: string;
            };
            header?: never;
            path: {
                listingId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PurchaseBodyDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PurchaseResultDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `requirement_data_invalid` (10002, message `generic_client_error`): Requirement data is missing, unknown to the listing, repeated, or does not match the requirement's JSON schema; `details` name the requirement and the reasons.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `session_token_missing` (10411, message `GENERIC_UNAUTHORIZED`): The route needs a session token: send `Authorization: Bearer <sessionToken>`.
             *
             *     `session_token_invalid` (10412, message `GENERIC_UNAUTHORIZED`): The session token is malformed, tampered with, signed with another key or revoked.
             *
             *     `session_ended` (10416, message `GENERIC_UNAUTHORIZED`): The session was ended: logged out, or its user no longer exists. Log in again.
             *
             *     `SESSION_TOKEN_EXPIRED` (10402): The session token has expired; obtain a new one with POST /v1/user/auth/refresh-session.
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10411,
                     *       "detail": "The route needs a session token: send `Authorization: Bearer <sessionToken>`.",
                     *       "error": "session_token_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `requirement_not_met` (40006): A condition of the listing is not met (e.g. owning an item, a minimum XP); details name the requirement. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 40006,
                     *       "detail": "A condition of the listing is not met (e.g. owning an item, a minimum XP); details name the requirement.",
                     *       "error": "requirement_not_met",
                     *       "message": "requirement_not_met"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `listing_not_found` (40001): No such store listing in this tenant (or in the community named by containerId), or it is not on sale.
             *
             *     `community_not_found` (20001): No community with this id or slug in this tenant.
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 40001,
                     *       "detail": "No such store listing in this tenant (or in the community named by containerId), or it is not on sale.",
                     *       "error": "listing_not_found",
                     *       "message": "listing_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `insufficient_balance` (20103): The user does not hold enough of the resource; nothing was changed.
             *
             *     `listing_sold_out` (40002): The listing (or what it grants) has no supply left; nothing was charged.
             *
             *     `purchase_limit_reached` (40003): The user already bought this listing as many times as its per-user limit allows; nothing was charged.
             *
             *     `listing_not_available` (40004): The listing is outside its availability window (not started or ended); nothing was charged.
             *
             *     `nonce_reused` (40005): This nonce was already used by this user for a different purchase (another listing or other requirement data); nothing was charged.
             */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20103,
                     *       "detail": "The user does not hold enough of the resource; nothing was changed.",
                     *       "error": "insufficient_balance",
                     *       "message": "insufficient_balance"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    logout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LogoutDto"];
            };
        };
        responses: {
            /** @description Ended (or already ended). */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `session_token_missing` (10411, message `GENERIC_UNAUTHORIZED`): The route needs a session token: send `Authorization: Bearer <sessionToken>`.
             *
             *     `session_token_invalid` (10412, message `GENERIC_UNAUTHORIZED`): The session token is malformed, tampered with, signed with another key or revoked.
             *
             *     `session_ended` (10416, message `GENERIC_UNAUTHORIZED`): The session was ended: logged out, or its user no longer exists. Log in again.
             *
             *     `SESSION_TOKEN_EXPIRED` (10402): The session token has expired; obtain a new one with POST /v1/user/auth/refresh-session.
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10411,
                     *       "detail": "The route needs a session token: send `Authorization: Bearer <sessionToken>`.",
                     *       "error": "session_token_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    passwordLogin: {
        parameters: {
            query?: never;
            header?: {
                /** @description Tenant id or slug. Needed only when nothing else names the tenant. The tenant of a request is, in this order: the session token's (when one is sent; this header naming another tenant is then 401), this header, the tenant an operator assigned the host name to, the DEFAULT_TENANT setting, the only tenant. */
                "X-Tenant-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PasswordLoginDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionResultDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `tenant_required` (10002, message `generic_client_error`): Nothing names the tenant of this request: several tenants exist, and there is no session token, no X-Tenant-Id, no domain of a tenant in the host name and no DEFAULT_TENANT.
             *
             *     `unknown_tenant` (10002, message `generic_client_error`): X-Tenant-Id (or the tenant in the path) names no tenant.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `invalid_credentials` (12050, message `GENERIC_UNAUTHORIZED`): No user with this username in the tenant, or the password is wrong (the two are not told apart).
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 12050,
                     *       "detail": "No user with this username in the tenant, or the password is wrong (the two are not told apart).",
                     *       "error": "invalid_credentials",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `too_many_requests` (10029): Rate limit exceeded; retry after the number of seconds in the Retry-After header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10029,
                     *       "detail": "Rate limit exceeded; retry after the number of seconds in the Retry-After header.",
                     *       "error": "too_many_requests",
                     *       "message": "too_many_requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    providerALogin: {
        parameters: {
            query?: never;
            header?: {
                /** @description Tenant id or slug. Needed only when nothing else names the tenant. The tenant of a request is, in this order: the session token's (when one is sent; this header naming another tenant is then 401), this header, the tenant an operator assigned the host name to, the DEFAULT_TENANT setting, the only tenant. */
                "X-Tenant-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CredentialLoginDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionResultDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `tenant_required` (10002, message `generic_client_error`): Nothing names the tenant of this request: several tenants exist, and there is no session token, no X-Tenant-Id, no domain of a tenant in the host name and no DEFAULT_TENANT.
             *
             *     `unknown_tenant` (10002, message `generic_client_error`): X-Tenant-Id (or the tenant in the path) names no tenant.
             *
             *     `self_referral` (10002, message `generic_client_error`): A user cannot refer themselves.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `credential_invalid` (12010, message `GENERIC_UNAUTHORIZED`): The providerA credential is not a valid ID token: bad signature, unknown key id, wrong issuer or audience, or missing subject.
             *
             *     `credential_expired` (12011, message `GENERIC_UNAUTHORIZED`): The providerA credential has expired.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 12010,
                     *       "detail": "The providerA credential is not a valid ID token: bad signature, unknown key id, wrong issuer or audience, or missing subject.",
                     *       "error": "credential_invalid",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `too_many_requests` (10029): Rate limit exceeded; retry after the number of seconds in the Retry-After header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10029,
                     *       "detail": "Rate limit exceeded; retry after the number of seconds in the Retry-After header.",
                     *       "error": "too_many_requests",
                     *       "message": "too_many_requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `provider_not_configured` (12012): providerA credential login is not configured (PROVIDER_A_JWKS_URL / PROVIDER_A_ISSUER, or the tenant setting providerAClientId).
             *
             *     `jwks_unavailable` (12013): The providerA key set could not be fetched; retry later.
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 12012,
                     *       "detail": "providerA credential login is not configured (PROVIDER_A_JWKS_URL / PROVIDER_A_ISSUER, or the tenant setting providerAClientId).",
                     *       "error": "provider_not_configured",
                     *       "message": "provider_not_configured"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    providerAZkLogin: {
        parameters: {
            query?: never;
            header?: {
                /** @description Tenant id or slug. Needed only when nothing else names the tenant. The tenant of a request is, in this order: the session token's (when one is sent; this header naming another tenant is then 401), this header, the tenant an operator assigned the host name to, the DEFAULT_TENANT setting, the only tenant. */
                "X-Tenant-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TokenLoginDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionResultDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `tenant_required` (10002, message `generic_client_error`): Nothing names the tenant of this request: several tenants exist, and there is no session token, no X-Tenant-Id, no domain of a tenant in the host name and no DEFAULT_TENANT.
             *
             *     `unknown_tenant` (10002, message `generic_client_error`): X-Tenant-Id (or the tenant in the path) names no tenant.
             *
             *     `self_referral` (10002, message `generic_client_error`): A user cannot refer themselves.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `login_token_invalid` (12001, message `GENERIC_UNAUTHORIZED`): The `token` is not a compact JWE that decrypts with the tenant shared secret (malformed, tampered, another key or another tenant).
             *
             *     `login_token_algorithm` (12002, message `GENERIC_UNAUTHORIZED`): The `token` header is not `alg: dir`, `enc: A256GCM` (a JWS, `alg: none` or any other algorithm is refused).
             *
             *     `login_token_expired` (12003, message `GENERIC_UNAUTHORIZED`): The `token` has expired (`exp` passed, beyond the clock tolerance).
             *
             *     `login_token_not_yet_valid` (12004, message `GENERIC_UNAUTHORIZED`): The `token` was issued in the future (`iat` beyond the clock tolerance).
             *
             *     `login_token_claims` (12005, message `GENERIC_UNAUTHORIZED`): The `token` lacks a required claim, has an ill-typed one, or lives longer than 300 seconds.
             *
             *     `login_token_replayed` (12006, message `GENERIC_UNAUTHORIZED`): The `_nonce` of this `token` was already used: every token logs in once.
             *
             *     `login_token_provider` (12008, message `GENERIC_UNAUTHORIZED`): The `token` carries a `provider` claim naming another login endpoint (e.g. a providerC token posted to providerB/login): each token is accepted only where its provider says.
             *
             *     `tenant_secret_unusable` (12007, message `GENERIC_UNAUTHORIZED`): The tenant shared secret does not decode to a 32-byte key (empty, odd length, not hex, or another length), so every token of the tenant is refused.
             *
             *     `id_token_invalid` (12020, message `GENERIC_UNAUTHORIZED`): The `idToken` claim of a zkLogin token is missing or is not a JWT with string `iss`, `aud` and `sub`.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 12001,
                     *       "detail": "The `token` is not a compact JWE that decrypts with the tenant shared secret (malformed, tampered, another key or another tenant).",
                     *       "error": "login_token_invalid",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `primary_account_required` (12021): The tenant enforces primary account login: this user must log in with the provider account they registered with (the wallet address depends on it). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 12021,
                     *       "detail": "The tenant enforces primary account login: this user must log in with the provider account they registered with (the wallet address depends on it).",
                     *       "error": "primary_account_required",
                     *       "message": "primary_account_required"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `too_many_requests` (10029): Rate limit exceeded; retry after the number of seconds in the Retry-After header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10029,
                     *       "detail": "Rate limit exceeded; retry after the number of seconds in the Retry-After header.",
                     *       "error": "too_many_requests",
                     *       "message": "too_many_requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    providerBLogin: {
        parameters: {
            query?: never;
            header?: {
                /** @description Tenant id or slug. Needed only when nothing else names the tenant. The tenant of a request is, in this order: the session token's (when one is sent; this header naming another tenant is then 401), this header, the tenant an operator assigned the host name to, the DEFAULT_TENANT setting, the only tenant. */
                "X-Tenant-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TokenLoginDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionResultDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `tenant_required` (10002, message `generic_client_error`): Nothing names the tenant of this request: several tenants exist, and there is no session token, no X-Tenant-Id, no domain of a tenant in the host name and no DEFAULT_TENANT.
             *
             *     `unknown_tenant` (10002, message `generic_client_error`): X-Tenant-Id (or the tenant in the path) names no tenant.
             *
             *     `self_referral` (10002, message `generic_client_error`): A user cannot refer themselves.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `login_token_invalid` (12001, message `GENERIC_UNAUTHORIZED`): The `token` is not a compact JWE that decrypts with the tenant shared secret (malformed, tampered, another key or another tenant).
             *
             *     `login_token_algorithm` (12002, message `GENERIC_UNAUTHORIZED`): The `token` header is not `alg: dir`, `enc: A256GCM` (a JWS, `alg: none` or any other algorithm is refused).
             *
             *     `login_token_expired` (12003, message `GENERIC_UNAUTHORIZED`): The `token` has expired (`exp` passed, beyond the clock tolerance).
             *
             *     `login_token_not_yet_valid` (12004, message `GENERIC_UNAUTHORIZED`): The `token` was issued in the future (`iat` beyond the clock tolerance).
             *
             *     `login_token_claims` (12005, message `GENERIC_UNAUTHORIZED`): The `token` lacks a required claim, has an ill-typed one, or lives longer than 300 seconds.
             *
             *     `login_token_replayed` (12006, message `GENERIC_UNAUTHORIZED`): The `_nonce` of this `token` was already used: every token logs in once.
             *
             *     `login_token_provider` (12008, message `GENERIC_UNAUTHORIZED`): The `token` carries a `provider` claim naming another login endpoint (e.g. a providerC token posted to providerB/login): each token is accepted only where its provider says.
             *
             *     `tenant_secret_unusable` (12007, message `GENERIC_UNAUTHORIZED`): The tenant shared secret does not decode to a 32-byte key (empty, odd length, not hex, or another length), so every token of the tenant is refused.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 12001,
                     *       "detail": "The `token` is not a compact JWE that decrypts with the tenant shared secret (malformed, tampered, another key or another tenant).",
                     *       "error": "login_token_invalid",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `too_many_requests` (10029): Rate limit exceeded; retry after the number of seconds in the Retry-After header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10029,
                     *       "detail": "Rate limit exceeded; retry after the number of seconds in the Retry-After header.",
                     *       "error": "too_many_requests",
                     *       "message": "too_many_requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    providerCLogin: {
        parameters: {
            query?: never;
            header?: {
                /** @description Tenant id or slug. Needed only when nothing else names the tenant. The tenant of a request is, in this order: the session token's (when one is sent; this header naming another tenant is then 401), this header, the tenant an operator assigned the host name to, the DEFAULT_TENANT setting, the only tenant. */
                "X-Tenant-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TokenLoginDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionResultDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `tenant_required` (10002, message `generic_client_error`): Nothing names the tenant of this request: several tenants exist, and there is no session token, no X-Tenant-Id, no domain of a tenant in the host name and no DEFAULT_TENANT.
             *
             *     `unknown_tenant` (10002, message `generic_client_error`): X-Tenant-Id (or the tenant in the path) names no tenant.
             *
             *     `self_referral` (10002, message `generic_client_error`): A user cannot refer themselves.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `login_token_invalid` (12001, message `GENERIC_UNAUTHORIZED`): The `token` is not a compact JWE that decrypts with the tenant shared secret (malformed, tampered, another key or another tenant).
             *
             *     `login_token_algorithm` (12002, message `GENERIC_UNAUTHORIZED`): The `token` header is not `alg: dir`, `enc: A256GCM` (a JWS, `alg: none` or any other algorithm is refused).
             *
             *     `login_token_expired` (12003, message `GENERIC_UNAUTHORIZED`): The `token` has expired (`exp` passed, beyond the clock tolerance).
             *
             *     `login_token_not_yet_valid` (12004, message `GENERIC_UNAUTHORIZED`): The `token` was issued in the future (`iat` beyond the clock tolerance).
             *
             *     `login_token_claims` (12005, message `GENERIC_UNAUTHORIZED`): The `token` lacks a required claim, has an ill-typed one, or lives longer than 300 seconds.
             *
             *     `login_token_replayed` (12006, message `GENERIC_UNAUTHORIZED`): The `_nonce` of this `token` was already used: every token logs in once.
             *
             *     `login_token_provider` (12008, message `GENERIC_UNAUTHORIZED`): The `token` carries a `provider` claim naming another login endpoint (e.g. a providerC token posted to providerB/login): each token is accepted only where its provider says.
             *
             *     `tenant_secret_unusable` (12007, message `GENERIC_UNAUTHORIZED`): The tenant shared secret does not decode to a 32-byte key (empty, odd length, not hex, or another length), so every token of the tenant is refused.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 12001,
                     *       "detail": "The `token` is not a compact JWE that decrypts with the tenant shared secret (malformed, tampered, another key or another tenant).",
                     *       "error": "login_token_invalid",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `too_many_requests` (10029): Rate limit exceeded; retry after the number of seconds in the Retry-After header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10029,
                     *       "detail": "Rate limit exceeded; retry after the number of seconds in the Retry-After header.",
                     *       "error": "too_many_requests",
                     *       "message": "too_many_requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    providerDZkLogin: {
        parameters: {
            query?: never;
            header?: {
                /** @description Tenant id or slug. Needed only when nothing else names the tenant. The tenant of a request is, in this order: the session token's (when one is sent; this header naming another tenant is then 401), this header, the tenant an operator assigned the host name to, the DEFAULT_TENANT setting, the only tenant. */
                "X-Tenant-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TokenLoginDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionResultDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `tenant_required` (10002, message `generic_client_error`): Nothing names the tenant of this request: several tenants exist, and there is no session token, no X-Tenant-Id, no domain of a tenant in the host name and no DEFAULT_TENANT.
             *
             *     `unknown_tenant` (10002, message `generic_client_error`): X-Tenant-Id (or the tenant in the path) names no tenant.
             *
             *     `self_referral` (10002, message `generic_client_error`): A user cannot refer themselves.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `login_token_invalid` (12001, message `GENERIC_UNAUTHORIZED`): The `token` is not a compact JWE that decrypts with the tenant shared secret (malformed, tampered, another key or another tenant).
             *
             *     `login_token_algorithm` (12002, message `GENERIC_UNAUTHORIZED`): The `token` header is not `alg: dir`, `enc: A256GCM` (a JWS, `alg: none` or any other algorithm is refused).
             *
             *     `login_token_expired` (12003, message `GENERIC_UNAUTHORIZED`): The `token` has expired (`exp` passed, beyond the clock tolerance).
             *
             *     `login_token_not_yet_valid` (12004, message `GENERIC_UNAUTHORIZED`): The `token` was issued in the future (`iat` beyond the clock tolerance).
             *
             *     `login_token_claims` (12005, message `GENERIC_UNAUTHORIZED`): The `token` lacks a required claim, has an ill-typed one, or lives longer than 300 seconds.
             *
             *     `login_token_replayed` (12006, message `GENERIC_UNAUTHORIZED`): The `_nonce` of this `token` was already used: every token logs in once.
             *
             *     `login_token_provider` (12008, message `GENERIC_UNAUTHORIZED`): The `token` carries a `provider` claim naming another login endpoint (e.g. a providerC token posted to providerB/login): each token is accepted only where its provider says.
             *
             *     `tenant_secret_unusable` (12007, message `GENERIC_UNAUTHORIZED`): The tenant shared secret does not decode to a 32-byte key (empty, odd length, not hex, or another length), so every token of the tenant is refused.
             *
             *     `id_token_invalid` (12020, message `GENERIC_UNAUTHORIZED`): The `idToken` claim of a zkLogin token is missing or is not a JWT with string `iss`, `aud` and `sub`.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 12001,
                     *       "detail": "The `token` is not a compact JWE that decrypts with the tenant shared secret (malformed, tampered, another key or another tenant).",
                     *       "error": "login_token_invalid",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `primary_account_required` (12021): The tenant enforces primary account login: this user must log in with the provider account they registered with (the wallet address depends on it). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 12021,
                     *       "detail": "The tenant enforces primary account login: this user must log in with the provider account they registered with (the wallet address depends on it).",
                     *       "error": "primary_account_required",
                     *       "message": "primary_account_required"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `too_many_requests` (10029): Rate limit exceeded; retry after the number of seconds in the Retry-After header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10029,
                     *       "detail": "Rate limit exceeded; retry after the number of seconds in the Retry-After header.",
                     *       "error": "too_many_requests",
                     *       "message": "too_many_requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    refreshSession: {
        parameters: {
            query?: never;
            header?: {
                /** @description Tenant id or slug. Needed only when nothing else names the tenant. The tenant of a request is, in this order: the session token's (when one is sent; this header naming another tenant is then 401), this header, the tenant an operator assigned the host name to, the DEFAULT_TENANT setting, the only tenant. */
                "X-Tenant-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RefreshSessionDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RefreshResultDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `tenant_required` (10002, message `generic_client_error`): Nothing names the tenant of this request: several tenants exist, and there is no session token, no X-Tenant-Id, no domain of a tenant in the host name and no DEFAULT_TENANT.
             *
             *     `unknown_tenant` (10002, message `generic_client_error`): X-Tenant-Id (or the tenant in the path) names no tenant.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `refresh_token_invalid` (12051, message `GENERIC_UNAUTHORIZED`): The refresh token is unknown, revoked, or belongs to another tenant.
             *
             *     `REFRESH_TOKEN_EXPIRED` (10403): The refresh token has expired; log in again.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 12051,
                     *       "detail": "The refresh token is unknown, revoked, or belongs to another tenant.",
                     *       "error": "refresh_token_invalid",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    currentSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CurrentSessionDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `unsafe_input` (10002, message `generic_client_error`): The request holds what the service never accepts from a client: a reserved key (`__proto__`, `constructor`, `prototype`) anywhere in the body, query or settings, nesting deeper than 32 levels, a NUL character, a lone surrogate (half a character, e.g. `\ud800`), percent-encoding that does not decode as UTF-8, or a query string beyond its limits (depth, array size, parameter count).
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `session_token_missing` (10411, message `GENERIC_UNAUTHORIZED`): The route needs a session token: send `Authorization: Bearer <sessionToken>`.
             *
             *     `session_token_invalid` (10412, message `GENERIC_UNAUTHORIZED`): The session token is malformed, tampered with, signed with another key or revoked.
             *
             *     `session_ended` (10416, message `GENERIC_UNAUTHORIZED`): The session was ended: logged out, or its user no longer exists. Log in again.
             *
             *     `SESSION_TOKEN_EXPIRED` (10402): The session token has expired; obtain a new one with POST /v1/user/auth/refresh-session.
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10411,
                     *       "detail": "The route needs a session token: send `Authorization: Bearer <sessionToken>`.",
                     *       "error": "session_token_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    siweLogin: {
        parameters: {
            query?: never;
            header?: {
                /** @description Tenant id or slug. Needed only when nothing else names the tenant. The tenant of a request is, in this order: the session token's (when one is sent; this header naming another tenant is then 401), this header, the tenant an operator assigned the host name to, the DEFAULT_TENANT setting, the only tenant. */
                "X-Tenant-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SiweLoginDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionResultDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `tenant_required` (10002, message `generic_client_error`): Nothing names the tenant of this request: several tenants exist, and there is no session token, no X-Tenant-Id, no domain of a tenant in the host name and no DEFAULT_TENANT.
             *
             *     `unknown_tenant` (10002, message `generic_client_error`): X-Tenant-Id (or the tenant in the path) names no tenant.
             *
             *     `self_referral` (10002, message `generic_client_error`): A user cannot refer themselves.
             *
             *     `siwe_message_malformed` (10002, message `generic_client_error`): The SIWE `message` is not a valid EIP-4361 message.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `siwe_domain_not_allowed` (12031, message `GENERIC_UNAUTHORIZED`): The SIWE message domain or URI is not one of the tenant allowed origins.
             *
             *     `siwe_chain_not_allowed` (12032, message `GENERIC_UNAUTHORIZED`): The SIWE message chain id is not allowed by the tenant.
             *
             *     `siwe_message_expired` (12033, message `GENERIC_UNAUTHORIZED`): The SIWE message has expired (`expirationTime` passed) or was issued too long ago.
             *
             *     `siwe_message_not_yet_valid` (12034, message `GENERIC_UNAUTHORIZED`): The SIWE message is not valid yet (`notBefore` or `issuedAt` in the future).
             *
             *     `siwe_nonce_replayed` (12035, message `GENERIC_UNAUTHORIZED`): The SIWE nonce was already used: choose a fresh nonce for every message.
             *
             *     `siwe_signature_invalid` (12036, message `GENERIC_UNAUTHORIZED`): The signature is not the message signed by its address.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 12031,
                     *       "detail": "The SIWE message domain or URI is not one of the tenant allowed origins.",
                     *       "error": "siwe_domain_not_allowed",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `too_many_requests` (10029): Rate limit exceeded; retry after the number of seconds in the Retry-After header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10029,
                     *       "detail": "Rate limit exceeded; retry after the number of seconds in the Retry-After header.",
                     *       "error": "too_many_requests",
                     *       "message": "too_many_requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    getSiweNonce: {
        parameters: {
            query?: never;
            header?: {
                /** @description Tenant id or slug. Needed only when nothing else names the tenant. The tenant of a request is, in this order: the session token's (when one is sent; this header naming another tenant is then 401), this header, the tenant an operator assigned the host name to, the DEFAULT_TENANT setting, the only tenant. */
                "X-Tenant-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SiweNonceDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `tenant_required` (10002, message `generic_client_error`): Nothing names the tenant of this request: several tenants exist, and there is no session token, no X-Tenant-Id, no domain of a tenant in the host name and no DEFAULT_TENANT.
             *
             *     `unknown_tenant` (10002, message `generic_client_error`): X-Tenant-Id (or the tenant in the path) names no tenant.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "Nothing names the tenant of this request: several tenants exist, and there is no session token, no X-Tenant-Id, no domain of a tenant in the host name and no DEFAULT_TENANT.",
                     *       "error": "tenant_required",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    getPublicProfile: {
        parameters: {
            query: {
                /** @description The community (id or slug) whose XP and rank to show. */
                containerId: string;
            };
            header?: {
                /** @description Tenant id or slug. Needed only when nothing else names the tenant. The tenant of a request is, in this order: the session token's (when one is sent; this header naming another tenant is then 401), this header, the tenant an operator assigned the host name to, the DEFAULT_TENANT setting, the only tenant. */
                "X-Tenant-Id"?: string;
            };
            path: {
                /** @description The user's login username, handle (both case-insensitive) or user id. */
                username: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PublicProfileDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `tenant_required` (10002, message `generic_client_error`): Nothing names the tenant of this request: several tenants exist, and there is no session token, no X-Tenant-Id, no domain of a tenant in the host name and no DEFAULT_TENANT.
             *
             *     `unknown_tenant` (10002, message `generic_client_error`): X-Tenant-Id (or the tenant in the path) names no tenant.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `profile_user_not_found` (60101): No user with this id, handle or username in the tenant.
             *
             *     `community_not_found` (20001): No community with this id or slug in this tenant.
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 60101,
                     *       "detail": "No user with this id, handle or username in the tenant.",
                     *       "error": "profile_user_not_found",
                     *       "message": "profile_user_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listNotifications: {
        parameters: {
            query: {
                /**
                 * @description The community (id or slug). The list holds that community's notifications and the
                 *     account-wide ones (no community, e.g. a sign-up referral).
                 */
                containerId: string;
                /** @description Items per page (default 20, at most 100). */
                limit?: number;
                /** @description Page number, starting at 1. */
                page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationPageDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `session_token_missing` (10411, message `GENERIC_UNAUTHORIZED`): The route needs a session token: send `Authorization: Bearer <sessionToken>`.
             *
             *     `session_token_invalid` (10412, message `GENERIC_UNAUTHORIZED`): The session token is malformed, tampered with, signed with another key or revoked.
             *
             *     `session_ended` (10416, message `GENERIC_UNAUTHORIZED`): The session was ended: logged out, or its user no longer exists. Log in again.
             *
             *     `SESSION_TOKEN_EXPIRED` (10402): The session token has expired; obtain a new one with POST /v1/user/auth/refresh-session.
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10411,
                     *       "detail": "The route needs a session token: send `Authorization: Bearer <sessionToken>`.",
                     *       "error": "session_token_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `community_not_found` (20001): No community with this id or slug in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 20001,
                     *       "detail": "No community with this id or slug in this tenant.",
                     *       "error": "community_not_found",
                     *       "message": "community_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    markNotificationsRead: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Marked read; no content. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `unsafe_input` (10002, message `generic_client_error`): The request holds what the service never accepts from a client: a reserved key (`__proto__`, `constructor`, `prototype`) anywhere in the body, query or settings, nesting deeper than 32 levels, a NUL character, a lone surrogate (half a character, e.g. `\ud800`), percent-encoding that does not decode as UTF-8, or a query string beyond its limits (depth, array size, parameter count).
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `session_token_missing` (10411, message `GENERIC_UNAUTHORIZED`): The route needs a session token: send `Authorization: Bearer <sessionToken>`.
             *
             *     `session_token_invalid` (10412, message `GENERIC_UNAUTHORIZED`): The session token is malformed, tampered with, signed with another key or revoked.
             *
             *     `session_ended` (10416, message `GENERIC_UNAUTHORIZED`): The session was ended: logged out, or its user no longer exists. Log in again.
             *
             *     `SESSION_TOKEN_EXPIRED` (10402): The session token has expired; obtain a new one with POST /v1/user/auth/refresh-session.
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10411,
                     *       "detail": "The route needs a session token: send `Authorization: Bearer <sessionToken>`.",
                     *       "error": "session_token_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    stream: {
        parameters: {
            query?: {
                /**
                 * @description The id of the last event received, when the `Last-Event-ID` header cannot be sent (a new
                 *     `EventSource` after a fresh ticket). The header wins when both are sent.
                 */
                lastEventId?: string;
                /**
                 * @description A stream ticket from `POST /v1/user/notifications/stream-ticket`, for browsers (an
                 *     `EventSource` cannot send `Authorization`). Used once; never put the session token here.
                 */
                ticket?: string;
            };
            header?: {
                /** @description The `id` of the last event received: resume after it. */
                "Last-Event-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An event stream (see above); each `notification` event's `data` is a `NotificationDto`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example event: notification
                     *     id: 1203:1207:1205
                     *     data: {"id":"0d3c1e8a-7c43-4a8e-9a36-2f4f7d6f2b10","type":"purchase_completed","title":"You bought Golden Sword","data":{"purchaseId":"…","listingId":"…"},"communityId":"…","read":false,"readAt":null,"createdAt":"2026-05-01T12:00:00.000Z"}
                     *
                     *     event: ready
                     *     id: 1207:1207:
                     *     retry: 3000
                     *     data: {"replayed":1}
                     *
                     *     : heartbeat
                     */
                    "text/event-stream": string;
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `last_event_id_invalid` (10002, message `generic_client_error`): `Last-Event-ID` (or `lastEventId`) is not an id this service sent on the notification stream (malformed, or from another database); reconnect without it and list what was missed with GET /v1/user/notifications.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `session_token_missing` (10411, message `GENERIC_UNAUTHORIZED`): The route needs a session token: send `Authorization: Bearer <sessionToken>`.
             *
             *     `session_token_invalid` (10412, message `GENERIC_UNAUTHORIZED`): The session token is malformed, tampered with, signed with another key or revoked.
             *
             *     `session_ended` (10416, message `GENERIC_UNAUTHORIZED`): The session was ended: logged out, or its user no longer exists. Log in again.
             *
             *     `SESSION_TOKEN_EXPIRED` (10402): The session token has expired; obtain a new one with POST /v1/user/auth/refresh-session.
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             *
             *     `stream_ticket_invalid` (71001, message `GENERIC_UNAUTHORIZED`): The stream ticket is unknown, already used or expired (a ticket is valid about a minute, once); ask for a new one with POST /v1/user/notifications/stream-ticket.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10411,
                     *       "detail": "The route needs a session token: send `Authorization: Bearer <sessionToken>`.",
                     *       "error": "session_token_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `stream_limit_reached` (71002): The user already has the most notification streams an instance keeps open for one user; close one first. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 71002,
                     *       "detail": "The user already has the most notification streams an instance keeps open for one user; close one first.",
                     *       "error": "stream_limit_reached",
                     *       "message": "stream_limit_reached"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `stream_capacity_reached` (71003): The instance keeps as many notification streams open as it is configured for; retry later (another instance may take it).
             *
             *     `service_unavailable` (10503): A dependency (the database) is unavailable; retry later.
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 71003,
                     *       "detail": "The instance keeps as many notification streams open as it is configured for; retry later (another instance may take it).",
                     *       "error": "stream_capacity_reached",
                     *       "message": "stream_capacity_reached"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    streamTicket: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StreamTicketDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `unsafe_input` (10002, message `generic_client_error`): The request holds what the service never accepts from a client: a reserved key (`__proto__`, `constructor`, `prototype`) anywhere in the body, query or settings, nesting deeper than 32 levels, a NUL character, a lone surrogate (half a character, e.g. `\ud800`), percent-encoding that does not decode as UTF-8, or a query string beyond its limits (depth, array size, parameter count).
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `session_token_missing` (10411, message `GENERIC_UNAUTHORIZED`): The route needs a session token: send `Authorization: Bearer <sessionToken>`.
             *
             *     `session_token_invalid` (10412, message `GENERIC_UNAUTHORIZED`): The session token is malformed, tampered with, signed with another key or revoked.
             *
             *     `session_ended` (10416, message `GENERIC_UNAUTHORIZED`): The session was ended: logged out, or its user no longer exists. Log in again.
             *
             *     `SESSION_TOKEN_EXPIRED` (10402): The session token has expired; obtain a new one with POST /v1/user/auth/refresh-session.
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10411,
                     *       "detail": "The route needs a session token: send `Authorization: Bearer <sessionToken>`.",
                     *       "error": "session_token_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    getProfile: {
        parameters: {
            query: {
                /**
                 * @description The fields to return (repeat the parameter or separate with commas), among: `id`, `username`,
                 *     `handle`, `displayName`, `biography`, `dateOfBirth`, `address`, `socials`, `createdAt`.
                 *     An unknown field is a 400.
                 */
                fields: ("id" | "username" | "handle" | "displayName" | "biography" | "dateOfBirth" | "address" | "socials" | "createdAt")[];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProfileDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `session_token_missing` (10411, message `GENERIC_UNAUTHORIZED`): The route needs a session token: send `Authorization: Bearer <sessionToken>`.
             *
             *     `session_token_invalid` (10412, message `GENERIC_UNAUTHORIZED`): The session token is malformed, tampered with, signed with another key or revoked.
             *
             *     `session_ended` (10416, message `GENERIC_UNAUTHORIZED`): The session was ended: logged out, or its user no longer exists. Log in again.
             *
             *     `SESSION_TOKEN_EXPIRED` (10402): The session token has expired; obtain a new one with POST /v1/user/auth/refresh-session.
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10411,
                     *       "detail": "The route needs a session token: send `Authorization: Bearer <sessionToken>`.",
                     *       "error": "session_token_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    updateProfile: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateProfileDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProfileDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `invalid_date_of_birth` (10002, message `generic_client_error`): dateOfBirth is not a real calendar date before today (UTC), from 1900 on.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `session_token_missing` (10411, message `GENERIC_UNAUTHORIZED`): The route needs a session token: send `Authorization: Bearer <sessionToken>`.
             *
             *     `session_token_invalid` (10412, message `GENERIC_UNAUTHORIZED`): The session token is malformed, tampered with, signed with another key or revoked.
             *
             *     `session_ended` (10416, message `GENERIC_UNAUTHORIZED`): The session was ended: logged out, or its user no longer exists. Log in again.
             *
             *     `SESSION_TOKEN_EXPIRED` (10402): The session token has expired; obtain a new one with POST /v1/user/auth/refresh-session.
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10411,
                     *       "detail": "The route needs a session token: send `Authorization: Bearer <sessionToken>`.",
                     *       "error": "session_token_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `handle_taken` (11002): The handle is already used by another user of this tenant. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 11002,
                     *       "detail": "The handle is already used by another user of this tenant.",
                     *       "error": "handle_taken",
                     *       "message": "handle_taken"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listReferrals: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReferralDto"][];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `unsafe_input` (10002, message `generic_client_error`): The request holds what the service never accepts from a client: a reserved key (`__proto__`, `constructor`, `prototype`) anywhere in the body, query or settings, nesting deeper than 32 levels, a NUL character, a lone surrogate (half a character, e.g. `\ud800`), percent-encoding that does not decode as UTF-8, or a query string beyond its limits (depth, array size, parameter count).
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `session_token_missing` (10411, message `GENERIC_UNAUTHORIZED`): The route needs a session token: send `Authorization: Bearer <sessionToken>`.
             *
             *     `session_token_invalid` (10412, message `GENERIC_UNAUTHORIZED`): The session token is malformed, tampered with, signed with another key or revoked.
             *
             *     `session_ended` (10416, message `GENERIC_UNAUTHORIZED`): The session was ended: logged out, or its user no longer exists. Log in again.
             *
             *     `SESSION_TOKEN_EXPIRED` (10402): The session token has expired; obtain a new one with POST /v1/user/auth/refresh-session.
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10411,
                     *       "detail": "The route needs a session token: send `Authorization: Bearer <sessionToken>`.",
                     *       "error": "session_token_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    registerPassword: {
        parameters: {
            query?: never;
            header?: {
                /** @description Tenant id or slug. Needed only when nothing else names the tenant. The tenant of a request is, in this order: the session token's (when one is sent; this header naming another tenant is then 401), this header, the tenant an operator assigned the host name to, the DEFAULT_TENANT setting, the only tenant. */
                "X-Tenant-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RegisterPasswordDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionResultDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `tenant_required` (10002, message `generic_client_error`): Nothing names the tenant of this request: several tenants exist, and there is no session token, no X-Tenant-Id, no domain of a tenant in the host name and no DEFAULT_TENANT.
             *
             *     `unknown_tenant` (10002, message `generic_client_error`): X-Tenant-Id (or the tenant in the path) names no tenant.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `username_taken` (11001): The username is already registered in this tenant. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 11001,
                     *       "detail": "The username is already registered in this tenant.",
                     *       "error": "username_taken",
                     *       "message": "username_taken"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `too_many_requests` (10029): Rate limit exceeded; retry after the number of seconds in the Retry-After header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10029,
                     *       "detail": "Rate limit exceeded; retry after the number of seconds in the Retry-After header.",
                     *       "error": "too_many_requests",
                     *       "message": "too_many_requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listSocials: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SocialDto"][];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `unsafe_input` (10002, message `generic_client_error`): The request holds what the service never accepts from a client: a reserved key (`__proto__`, `constructor`, `prototype`) anywhere in the body, query or settings, nesting deeper than 32 levels, a NUL character, a lone surrogate (half a character, e.g. `\ud800`), percent-encoding that does not decode as UTF-8, or a query string beyond its limits (depth, array size, parameter count).
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `session_token_missing` (10411, message `GENERIC_UNAUTHORIZED`): The route needs a session token: send `Authorization: Bearer <sessionToken>`.
             *
             *     `session_token_invalid` (10412, message `GENERIC_UNAUTHORIZED`): The session token is malformed, tampered with, signed with another key or revoked.
             *
             *     `session_ended` (10416, message `GENERIC_UNAUTHORIZED`): The session was ended: logged out, or its user no longer exists. Log in again.
             *
             *     `SESSION_TOKEN_EXPIRED` (10402): The session token has expired; obtain a new one with POST /v1/user/auth/refresh-session.
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10411,
                     *       "detail": "The route needs a session token: send `Authorization: Bearer <sessionToken>`.",
                     *       "error": "session_token_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    linkSocial: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LinkSocialDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SocialDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `unsupported_account_type` (10002, message `generic_client_error`): accountType (or the path type) is not one of the supported social account types.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `session_token_missing` (10411, message `GENERIC_UNAUTHORIZED`): The route needs a session token: send `Authorization: Bearer <sessionToken>`.
             *
             *     `session_token_invalid` (10412, message `GENERIC_UNAUTHORIZED`): The session token is malformed, tampered with, signed with another key or revoked.
             *
             *     `session_ended` (10416, message `GENERIC_UNAUTHORIZED`): The session was ended: logged out, or its user no longer exists. Log in again.
             *
             *     `SESSION_TOKEN_EXPIRED` (10402): The session token has expired; obtain a new one with POST /v1/user/auth/refresh-session.
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10411,
                     *       "detail": "The route needs a session token: send `Authorization: Bearer <sessionToken>`.",
                     *       "error": "session_token_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `social_account_taken` (60002): This account (type and subject) is already linked to another user of the tenant. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 60002,
                     *       "detail": "This account (type and subject) is already linked to another user of the tenant.",
                     *       "error": "social_account_taken",
                     *       "message": "social_account_taken"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    deleteSocial: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Unlinked. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `session_token_missing` (10411, message `GENERIC_UNAUTHORIZED`): The route needs a session token: send `Authorization: Bearer <sessionToken>`.
             *
             *     `session_token_invalid` (10412, message `GENERIC_UNAUTHORIZED`): The session token is malformed, tampered with, signed with another key or revoked.
             *
             *     `session_ended` (10416, message `GENERIC_UNAUTHORIZED`): The session was ended: logged out, or its user no longer exists. Log in again.
             *
             *     `SESSION_TOKEN_EXPIRED` (10402): The session token has expired; obtain a new one with POST /v1/user/auth/refresh-session.
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10411,
                     *       "detail": "The route needs a session token: send `Authorization: Bearer <sessionToken>`.",
                     *       "error": "session_token_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `social_not_found` (60001): No linked social account with this id belongs to the current user. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 60001,
                     *       "detail": "No linked social account with this id belongs to the current user.",
                     *       "error": "social_not_found",
                     *       "message": "social_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    listSocialsOfType: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                type: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SocialDto"][];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             *
             *     `unsupported_account_type` (10002, message `generic_client_error`): accountType (or the path type) is not one of the supported social account types.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `session_token_missing` (10411, message `GENERIC_UNAUTHORIZED`): The route needs a session token: send `Authorization: Bearer <sessionToken>`.
             *
             *     `session_token_invalid` (10412, message `GENERIC_UNAUTHORIZED`): The session token is malformed, tampered with, signed with another key or revoked.
             *
             *     `session_ended` (10416, message `GENERIC_UNAUTHORIZED`): The session was ended: logged out, or its user no longer exists. Log in again.
             *
             *     `SESSION_TOKEN_EXPIRED` (10402): The session token has expired; obtain a new one with POST /v1/user/auth/refresh-session.
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10411,
                     *       "detail": "The route needs a session token: send `Authorization: Bearer <sessionToken>`.",
                     *       "error": "session_token_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    updateSocial: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateSocialDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SocialDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `validation_failed` (10002, message `generic_client_error`): A field or parameter is missing, unknown, ill-typed or out of range; `detail` says which and `details.fields` names them.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `session_token_missing` (10411, message `GENERIC_UNAUTHORIZED`): The route needs a session token: send `Authorization: Bearer <sessionToken>`.
             *
             *     `session_token_invalid` (10412, message `GENERIC_UNAUTHORIZED`): The session token is malformed, tampered with, signed with another key or revoked.
             *
             *     `session_ended` (10416, message `GENERIC_UNAUTHORIZED`): The session was ended: logged out, or its user no longer exists. Log in again.
             *
             *     `SESSION_TOKEN_EXPIRED` (10402): The session token has expired; obtain a new one with POST /v1/user/auth/refresh-session.
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10411,
                     *       "detail": "The route needs a session token: send `Authorization: Bearer <sessionToken>`.",
                     *       "error": "session_token_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `social_not_found` (60001): No linked social account with this id belongs to the current user. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 60001,
                     *       "detail": "No linked social account with this id belongs to the current user.",
                     *       "error": "social_not_found",
                     *       "message": "social_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `payload_too_large` (10013): The request body exceeds the size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10013,
                     *       "detail": "The request body exceeds the size limit.",
                     *       "error": "payload_too_large",
                     *       "message": "payload_too_large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `unsupported_media_type` (10015): The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10015,
                     *       "detail": "The request has a body that is not JSON: its `Content-Type` must be `application/json` (or a `+json` type), in UTF-8.",
                     *       "error": "unsupported_media_type",
                     *       "message": "unsupported_media_type"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
    getWallet: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WalletDto"];
                };
            };
            /**
             * @description `message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.
             *
             *     `generic_client_error` (10002): The request is malformed in a way no more precise case names; `detail` says how.
             *
             *     `unsafe_input` (10002, message `generic_client_error`): The request holds what the service never accepts from a client: a reserved key (`__proto__`, `constructor`, `prototype`) anywhere in the body, query or settings, nesting deeper than 32 levels, a NUL character, a lone surrogate (half a character, e.g. `\ud800`), percent-encoding that does not decode as UTF-8, or a query string beyond its limits (depth, array size, parameter count).
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10002,
                     *       "detail": "The request is malformed in a way no more precise case names; `detail` says how.",
                     *       "error": "generic_client_error",
                     *       "message": "generic_client_error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /**
             * @description `message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.
             *
             *     `session_token_missing` (10411, message `GENERIC_UNAUTHORIZED`): The route needs a session token: send `Authorization: Bearer <sessionToken>`.
             *
             *     `session_token_invalid` (10412, message `GENERIC_UNAUTHORIZED`): The session token is malformed, tampered with, signed with another key or revoked.
             *
             *     `session_ended` (10416, message `GENERIC_UNAUTHORIZED`): The session was ended: logged out, or its user no longer exists. Log in again.
             *
             *     `SESSION_TOKEN_EXPIRED` (10402): The session token has expired; obtain a new one with POST /v1/user/auth/refresh-session.
             *
             *     `tenant_mismatch` (10415, message `GENERIC_UNAUTHORIZED`): The credentials belong to another tenant than the one `X-Tenant-Id` names.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 10411,
                     *       "detail": "The route needs a session token: send `Authorization: Bearer <sessionToken>`.",
                     *       "error": "session_token_missing",
                     *       "message": "GENERIC_UNAUTHORIZED"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
            /** @description `wallet_not_found` (12040): The user has no wallet yet: a zkLogin or SIWE login creates one. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 12040,
                     *       "detail": "The user has no wallet yet: a zkLogin or SIWE login creates one.",
                     *       "error": "wallet_not_found",
                     *       "message": "wallet_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBodyDto"];
                };
            };
        };
    };
}
