// Generated from openapi.json by `npm run openapi` (src/cli/csharp-client.ts). Do not edit.
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;

namespace CommunityGaming.Client
{
    /// <summary>The player API, one method per operation (the management API is the server side's).</summary>
    public sealed partial class CgsApi
    {
        /// <summary>
        /// POST /v1/user/auth/password/login: Log in with a username and password
        /// </summary>
        public async Task<SessionResultDto> PasswordLoginAsync(PasswordLoginDto body, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/user/auth/password/login";
            var requestQuery = new CgsQuery();
            var requestAnswer = await Client.SendAsync("POST", requestPath, requestQuery, body, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<SessionResultDto>();
        }

        /// <summary>
        /// POST /v1/user/register/password: Register with a username and password
        /// </summary>
        public async Task<SessionResultDto> RegisterPasswordAsync(RegisterPasswordDto body, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/user/register/password";
            var requestQuery = new CgsQuery();
            var requestAnswer = await Client.SendAsync("POST", requestPath, requestQuery, body, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<SessionResultDto>();
        }

        /// <summary>
        /// POST /v1/user/auth/refresh-session: Exchange a refresh token for a new session token
        /// </summary>
        public async Task<RefreshResultDto> RefreshSessionAsync(RefreshSessionDto body, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/user/auth/refresh-session";
            var requestQuery = new CgsQuery();
            var requestAnswer = await Client.SendAsync("POST", requestPath, requestQuery, body, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<RefreshResultDto>();
        }

        /// <summary>
        /// POST /v1/user/auth/providerA/login: Log in with a providerA credential
        /// </summary>
        public async Task<SessionResultDto> ProviderALoginAsync(CredentialLoginDto body, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/user/auth/providerA/login";
            var requestQuery = new CgsQuery();
            var requestAnswer = await Client.SendAsync("POST", requestPath, requestQuery, body, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<SessionResultDto>();
        }

        /// <summary>
        /// POST /v1/user/auth/providerB/login: Log in with a providerB token
        /// </summary>
        public async Task<SessionResultDto> ProviderBLoginAsync(TokenLoginDto body, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/user/auth/providerB/login";
            var requestQuery = new CgsQuery();
            var requestAnswer = await Client.SendAsync("POST", requestPath, requestQuery, body, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<SessionResultDto>();
        }

        /// <summary>
        /// POST /v1/user/auth/providerC/login: Log in with a providerC token
        /// </summary>
        public async Task<SessionResultDto> ProviderCLoginAsync(TokenLoginDto body, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/user/auth/providerC/login";
            var requestQuery = new CgsQuery();
            var requestAnswer = await Client.SendAsync("POST", requestPath, requestQuery, body, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<SessionResultDto>();
        }

        /// <summary>
        /// POST /v1/user/auth/providerA/zklogin: zkLogin with providerA
        /// </summary>
        public async Task<SessionResultDto> ProviderAZkLoginAsync(TokenLoginDto body, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/user/auth/providerA/zklogin";
            var requestQuery = new CgsQuery();
            var requestAnswer = await Client.SendAsync("POST", requestPath, requestQuery, body, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<SessionResultDto>();
        }

        /// <summary>
        /// POST /v1/user/auth/providerD/zklogin: zkLogin with providerD
        /// </summary>
        public async Task<SessionResultDto> ProviderDZkLoginAsync(TokenLoginDto body, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/user/auth/providerD/zklogin";
            var requestQuery = new CgsQuery();
            var requestAnswer = await Client.SendAsync("POST", requestPath, requestQuery, body, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<SessionResultDto>();
        }

        /// <summary>
        /// POST /v1/user/auth/siwe/login: Sign-In With Ethereum
        /// </summary>
        public async Task<SessionResultDto> SiweLoginAsync(SiweLoginDto body, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/user/auth/siwe/login";
            var requestQuery = new CgsQuery();
            var requestAnswer = await Client.SendAsync("POST", requestPath, requestQuery, body, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<SessionResultDto>();
        }

        /// <summary>
        /// GET /v1/community/resource-types/{resourceTypeId}: A resource type
        /// </summary>
        public async Task<ResourceTypeDto> GetResourceTypeAsync(string resourceTypeId, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/community/resource-types/" + CgsQuery.Escape(resourceTypeId);
            var requestQuery = new CgsQuery();
            var requestAnswer = await Client.SendAsync("GET", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<ResourceTypeDto>();
        }

        /// <summary>
        /// GET /v1/community/{communityId}/resource-types: Resource types of a community
        /// </summary>
        public async Task<PaginatedResourceType> ListCommunityResourceTypesAsync(string communityId, double? page = null, double? limit = null, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/community/" + CgsQuery.Escape(communityId) + "/resource-types";
            var requestQuery = new CgsQuery();
            requestQuery.Add("page", page);
            requestQuery.Add("limit", limit);
            var requestAnswer = await Client.SendAsync("GET", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<PaginatedResourceType>();
        }

        /// <summary>
        /// GET /v1/community/{communityId}: A community
        /// </summary>
        public async Task<CommunityDto> GetCommunityAsync(string communityId, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/community/" + CgsQuery.Escape(communityId);
            var requestQuery = new CgsQuery();
            var requestAnswer = await Client.SendAsync("GET", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<CommunityDto>();
        }

        /// <summary>
        /// GET /v1/community/{id}/ranking/{slug}: The current user's ranking for a resource
        /// </summary>
        public async Task<RankingDto> GetCommunityRankingAsync(string id, string slug, double? neighbours = null, string season = null, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/community/" + CgsQuery.Escape(id) + "/ranking/" + CgsQuery.Escape(slug);
            var requestQuery = new CgsQuery();
            requestQuery.Add("neighbours", neighbours);
            requestQuery.Add("season", season);
            var requestAnswer = await Client.SendAsync("GET", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<RankingDto>();
        }

        /// <summary>
        /// GET /v1/community/{id}/leaderboard/{slug}: The leaderboard of a resource
        /// </summary>
        public async Task<PaginatedLeaderboardEntry> GetCommunityLeaderboardAsync(string id, string slug, double? page = null, double? limit = null, string season = null, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/community/" + CgsQuery.Escape(id) + "/leaderboard/" + CgsQuery.Escape(slug);
            var requestQuery = new CgsQuery();
            requestQuery.Add("page", page);
            requestQuery.Add("limit", limit);
            requestQuery.Add("season", season);
            var requestAnswer = await Client.SendAsync("GET", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<PaginatedLeaderboardEntry>();
        }

        /// <summary>
        /// POST /v1/community/{communityId}/join: Join a community
        /// </summary>
        public async Task<MembershipDto> JoinCommunityAsync(string communityId, string referrerHandle, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/community/" + CgsQuery.Escape(communityId) + "/join";
            var requestQuery = new CgsQuery();
            requestQuery.Add("referrerHandle", referrerHandle);
            var requestAnswer = await Client.SendAsync("POST", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<MembershipDto>();
        }

        /// <summary>
        /// GET /v1/community/{communityId}/referrals: The user's referrals into a community
        /// </summary>
        public async Task<PaginatedCommunityReferral> ListCommunityReferralsAsync(string communityId, double? page = null, double? limit = null, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/community/" + CgsQuery.Escape(communityId) + "/referrals";
            var requestQuery = new CgsQuery();
            requestQuery.Add("page", page);
            requestQuery.Add("limit", limit);
            var requestAnswer = await Client.SendAsync("GET", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<PaginatedCommunityReferral>();
        }

        /// <summary>
        /// GET /v1/community/{communityId}/quests: Quests of a community
        /// </summary>
        public async Task<PaginatedQuest> ListCommunityQuestsAsync(string communityId, IEnumerable<string> tags, IEnumerable<string> questTypes, string featured, string query, double? page, double? limit, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/community/" + CgsQuery.Escape(communityId) + "/quests";
            var requestQuery = new CgsQuery();
            requestQuery.AddAll("tags", tags, true);
            requestQuery.AddAll("questTypes", questTypes, true);
            requestQuery.Add("featured", featured);
            requestQuery.Add("query", query);
            requestQuery.Add("page", page);
            requestQuery.Add("limit", limit);
            var requestAnswer = await Client.SendAsync("GET", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<PaginatedQuest>();
        }

        /// <summary>
        /// GET /v1/community/{communityId}/quests/tags: Quest tags of a community with completion statistics
        /// </summary>
        public async Task<List<QuestTagDto>> ListCommunityQuestTagsAsync(string communityId, bool? excludeTemplateTags, bool? userAvailableQuests, string includeRewards, string userId, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/community/" + CgsQuery.Escape(communityId) + "/quests/tags";
            var requestQuery = new CgsQuery();
            requestQuery.Add("excludeTemplateTags", excludeTemplateTags);
            requestQuery.Add("userAvailableQuests", userAvailableQuests);
            requestQuery.Add("includeRewards", includeRewards);
            requestQuery.Add("userId", userId);
            var requestAnswer = await Client.SendAsync("GET", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<List<QuestTagDto>>();
        }

        /// <summary>
        /// GET /v1/quest-event/{eventId}: A quest event
        /// </summary>
        public async Task<QuestEventDto> GetQuestEventAsync(string eventId, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/quest-event/" + CgsQuery.Escape(eventId);
            var requestQuery = new CgsQuery();
            var requestAnswer = await Client.SendAsync("GET", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<QuestEventDto>();
        }

        /// <summary>
        /// GET /v1/quest-event: Quest events
        /// </summary>
        public async Task<PaginatedQuestEvent> ListQuestEventsAsync(double? page = null, double? limit = null, bool? participating = null, bool? registrationOpen = null, QuestEventFilterDto filter = null, string itemId = null, string resourceId = null, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/quest-event";
            var requestQuery = new CgsQuery();
            requestQuery.Add("page", page);
            requestQuery.Add("limit", limit);
            requestQuery.Add("participating", participating);
            requestQuery.Add("registrationOpen", registrationOpen);
            requestQuery.AddObject("filter", filter);
            requestQuery.Add("itemId", itemId);
            requestQuery.Add("resourceId", resourceId);
            var requestAnswer = await Client.SendAsync("GET", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<PaginatedQuestEvent>();
        }

        /// <summary>
        /// GET /v1/quest-event/{id}/leaderboard: The leaderboard of a quest event
        /// </summary>
        public async Task<PaginatedLeaderboardEntry> GetQuestEventLeaderboardAsync(string id, double? page = null, double? limit = null, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/quest-event/" + CgsQuery.Escape(id) + "/leaderboard";
            var requestQuery = new CgsQuery();
            requestQuery.Add("page", page);
            requestQuery.Add("limit", limit);
            var requestAnswer = await Client.SendAsync("GET", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<PaginatedLeaderboardEntry>();
        }

        /// <summary>
        /// GET /v1/quest-event/{id}/quests: The quests of a quest event
        /// </summary>
        public async Task<List<QuestDto>> ListQuestEventQuestsAsync(string id, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/quest-event/" + CgsQuery.Escape(id) + "/quests";
            var requestQuery = new CgsQuery();
            var requestAnswer = await Client.SendAsync("GET", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<List<QuestDto>>();
        }

        /// <summary>
        /// GET /v1/quest-event/{eventId}/reward/allocations: The user's reward allocations in an event
        /// </summary>
        public async Task<List<RewardAllocationDto>> ListRewardAllocationsAsync(string eventId, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/quest-event/" + CgsQuery.Escape(eventId) + "/reward/allocations";
            var requestQuery = new CgsQuery();
            var requestAnswer = await Client.SendAsync("GET", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<List<RewardAllocationDto>>();
        }

        /// <summary>
        /// POST /v1/quest-event/{eventId}/reward/allocations/claim/{rewardAllocationId}: Claim a reward with allocated tickets
        /// </summary>
        public async Task<RewardClaimDto> ClaimRewardAllocationAsync(string eventId, string rewardAllocationId, ClaimRewardDto body, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/quest-event/" + CgsQuery.Escape(eventId) + "/reward/allocations/claim/" + CgsQuery.Escape(rewardAllocationId);
            var requestQuery = new CgsQuery();
            var requestAnswer = await Client.SendAsync("POST", requestPath, requestQuery, body, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<RewardClaimDto>();
        }

        /// <summary>
        /// GET /v1/quest-event/{eventId}/participant: The user's participation in an event
        /// </summary>
        public async Task<ParticipantDto> GetParticipantAsync(string eventId, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/quest-event/" + CgsQuery.Escape(eventId) + "/participant";
            var requestQuery = new CgsQuery();
            var requestAnswer = await Client.SendAsync("GET", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<ParticipantDto>();
        }

        /// <summary>
        /// GET /v1/quest-event/{eventId}/participant/list: REGISTERED participants of an event
        /// </summary>
        public async Task<PaginatedParticipantListItem> ListParticipantsAsync(string eventId, double? page = null, double? limit = null, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/quest-event/" + CgsQuery.Escape(eventId) + "/participant/list";
            var requestQuery = new CgsQuery();
            requestQuery.Add("page", page);
            requestQuery.Add("limit", limit);
            var requestAnswer = await Client.SendAsync("GET", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<PaginatedParticipantListItem>();
        }

        /// <summary>
        /// GET /v1/quest-event/{eventId}/participant/rank: The user's rank in an event
        /// </summary>
        public async Task<ParticipantRankDto> GetParticipantRankAsync(string eventId, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/quest-event/" + CgsQuery.Escape(eventId) + "/participant/rank";
            var requestQuery = new CgsQuery();
            var requestAnswer = await Client.SendAsync("GET", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<ParticipantRankDto>();
        }

        /// <summary>
        /// POST /v1/quest-event/{eventId}/participant/register: Register for an event
        /// </summary>
        public async Task<ParticipantDto> RegisterParticipantAsync(string eventId, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/quest-event/" + CgsQuery.Escape(eventId) + "/participant/register";
            var requestQuery = new CgsQuery();
            var requestAnswer = await Client.SendAsync("POST", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<ParticipantDto>();
        }

        /// <summary>
        /// PUT /v1/quest-event/{eventId}/participant/unregister: Unregister from an event
        /// </summary>
        public async Task<ParticipantDto> UnregisterParticipantAsync(string eventId, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/quest-event/" + CgsQuery.Escape(eventId) + "/participant/unregister";
            var requestQuery = new CgsQuery();
            var requestAnswer = await Client.SendAsync("PUT", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<ParticipantDto>();
        }

        /// <summary>
        /// PUT /v1/quest-event/{eventId}/participant/cancel: Cancel participation
        /// </summary>
        public async Task<ParticipantDto> CancelParticipationAsync(string eventId, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/quest-event/" + CgsQuery.Escape(eventId) + "/participant/cancel";
            var requestQuery = new CgsQuery();
            var requestAnswer = await Client.SendAsync("PUT", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<ParticipantDto>();
        }

        /// <summary>
        /// GET /v1/quest-event/{eventId}/participant/sync: Sync the user's score
        /// </summary>
        public async Task<ParticipantDto> SyncParticipantAsync(string eventId, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/quest-event/" + CgsQuery.Escape(eventId) + "/participant/sync";
            var requestQuery = new CgsQuery();
            var requestAnswer = await Client.SendAsync("GET", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<ParticipantDto>();
        }

        /// <summary>
        /// GET /v1/community/{ckey}/inventory: The inventory of a community
        /// </summary>
        public async Task<InventoryDto> GetInventoryAsync(string ckey, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/community/" + CgsQuery.Escape(ckey) + "/inventory";
            var requestQuery = new CgsQuery();
            var requestAnswer = await Client.SendAsync("GET", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<InventoryDto>();
        }

        /// <summary>
        /// GET /v1/community/{ckey}/inventory/slots: Slots of a user's inventory
        /// </summary>
        public async Task<UserSlotsDto> ListInventorySlotsAsync(string ckey, string userId, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/community/" + CgsQuery.Escape(ckey) + "/inventory/slots";
            var requestQuery = new CgsQuery();
            requestQuery.Add("userId", userId);
            var requestAnswer = await Client.SendAsync("GET", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<UserSlotsDto>();
        }

        /// <summary>
        /// GET /v1/community/{ckey}/inventory/slots/{slotId}/items: Items of a slot
        /// </summary>
        public async Task<PaginatedUserItem> ListSlotItemsAsync(string ckey, string slotId, string onlyOwned, double? page = null, double? limit = null, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/community/" + CgsQuery.Escape(ckey) + "/inventory/slots/" + CgsQuery.Escape(slotId) + "/items";
            var requestQuery = new CgsQuery();
            requestQuery.Add("page", page);
            requestQuery.Add("limit", limit);
            requestQuery.Add("onlyOwned", onlyOwned);
            var requestAnswer = await Client.SendAsync("GET", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<PaginatedUserItem>();
        }

        /// <summary>
        /// GET /v1/community/{ckey}/inventory/items/{itemId}: One item
        /// </summary>
        public async Task<ItemDto> GetInventoryItemAsync(string ckey, string itemId, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/community/" + CgsQuery.Escape(ckey) + "/inventory/items/" + CgsQuery.Escape(itemId);
            var requestQuery = new CgsQuery();
            var requestAnswer = await Client.SendAsync("GET", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<ItemDto>();
        }

        /// <summary>
        /// POST /v1/community/{ckey}/inventory/slots/allocate: Allocate items to slots
        /// </summary>
        public async Task AllocateInventorySlotsAsync(string ckey, AllocateSlotsDto body, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/community/" + CgsQuery.Escape(ckey) + "/inventory/slots/allocate";
            var requestQuery = new CgsQuery();
            await Client.SendAsync("POST", requestPath, requestQuery, body, cancellationToken).ConfigureAwait(false);
        }

        /// <summary>
        /// GET /v1/community/{ckey}/inventory/avatar: Avatar of a user
        /// </summary>
        public async Task<AvatarDto> GetUserAvatarAsync(string ckey, string userId, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/community/" + CgsQuery.Escape(ckey) + "/inventory/avatar";
            var requestQuery = new CgsQuery();
            requestQuery.Add("userId", userId);
            var requestAnswer = await Client.SendAsync("GET", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<AvatarDto>();
        }

        /// <summary>
        /// GET /v1/community/{ckey}/inventory/items: Inventory items of a user
        /// </summary>
        public async Task<PaginatedUserItem> ListInventoryItemsAsync(string ckey, string onlyOwned, string userId, double? page = null, double? limit = null, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/community/" + CgsQuery.Escape(ckey) + "/inventory/items";
            var requestQuery = new CgsQuery();
            requestQuery.Add("page", page);
            requestQuery.Add("limit", limit);
            requestQuery.Add("onlyOwned", onlyOwned);
            requestQuery.Add("userId", userId);
            var requestAnswer = await Client.SendAsync("GET", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<PaginatedUserItem>();
        }

        /// <summary>
        /// POST /v1/community/{ckey}/inventory/avatar/mint: Mint the avatar as an NFT
        /// </summary>
        public async Task MintUserAvatarAsync(string ckey, MintAvatarDto body, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/community/" + CgsQuery.Escape(ckey) + "/inventory/avatar/mint";
            var requestQuery = new CgsQuery();
            await Client.SendAsync("POST", requestPath, requestQuery, body, cancellationToken).ConfigureAwait(false);
        }

        /// <summary>
        /// GET /v1/inventory/prizes: Prizes and achievements
        /// </summary>
        public async Task<PaginatedUserPrize> ListPrizesAsync(string ownedOnly, double? page = null, double? limit = null, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/inventory/prizes";
            var requestQuery = new CgsQuery();
            requestQuery.Add("page", page);
            requestQuery.Add("limit", limit);
            requestQuery.Add("ownedOnly", ownedOnly);
            var requestAnswer = await Client.SendAsync("GET", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<PaginatedUserPrize>();
        }

        /// <summary>
        /// GET /v1/inventory/prizes/requirements: Requirements of prizes
        /// </summary>
        public async Task<List<UserRequirementDto>> ListPrizeRequirementsAsync(CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/inventory/prizes/requirements";
            var requestQuery = new CgsQuery();
            var requestAnswer = await Client.SendAsync("GET", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<List<UserRequirementDto>>();
        }

        /// <summary>
        /// GET /v1/inventory/prizes/{prizeId}: A prize
        /// </summary>
        public async Task<PrizeDetailDto> GetPrizeAsync(string prizeId, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/inventory/prizes/" + CgsQuery.Escape(prizeId);
            var requestQuery = new CgsQuery();
            var requestAnswer = await Client.SendAsync("GET", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<PrizeDetailDto>();
        }

        /// <summary>
        /// GET /v1/inventory/prizes/{prizeId}/supply: Supply of a prize
        /// </summary>
        public async Task<PrizeSupplyDto> GetPrizeSupplyAsync(string prizeId, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/inventory/prizes/" + CgsQuery.Escape(prizeId) + "/supply";
            var requestQuery = new CgsQuery();
            var requestAnswer = await Client.SendAsync("GET", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<PrizeSupplyDto>();
        }

        /// <summary>
        /// GET /v1/store/balance: Spendable resources
        /// </summary>
        public async Task<StoreBalanceDto> GetStoreBalanceAsync(string containerId, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/store/balance";
            var requestQuery = new CgsQuery();
            requestQuery.Add("containerId", containerId);
            var requestAnswer = await Client.SendAsync("GET", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<StoreBalanceDto>();
        }

        /// <summary>
        /// GET /v1/store/listings: Listings of a community store
        /// </summary>
        public async Task<PaginatedListing> ListStoreListingsAsync(string containerId, bool? enrichRequirements, double? page = null, double? limit = null, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/store/listings";
            var requestQuery = new CgsQuery();
            requestQuery.Add("page", page);
            requestQuery.Add("limit", limit);
            requestQuery.Add("containerId", containerId);
            requestQuery.Add("enrichRequirements", enrichRequirements);
            var requestAnswer = await Client.SendAsync("GET", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<PaginatedListing>();
        }

        /// <summary>
        /// GET /v1/store/purchase: Purchases of the current user
        /// </summary>
        public async Task<PaginatedPurchase> ListStorePurchasesAsync(string containerId, double? page = null, double? limit = null, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/store/purchase";
            var requestQuery = new CgsQuery();
            requestQuery.Add("page", page);
            requestQuery.Add("limit", limit);
            requestQuery.Add("containerId", containerId);
            var requestAnswer = await Client.SendAsync("GET", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<PaginatedPurchase>();
        }

        /// <summary>
        /// POST /v1/store/purchase/{listingId}: Buy a listing
        /// </summary>
        public async Task<PurchaseResultDto> PurchaseStoreListingAsync(string listingId, PurchaseBodyDto body, string containerId = null, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/store/purchase/" + CgsQuery.Escape(listingId);
            var requestQuery = new CgsQuery();
            requestQuery.Add("containerId", containerId);
            var requestAnswer = await Client.SendAsync("POST", requestPath, requestQuery, body, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<PurchaseResultDto>();
        }

        /// <summary>
        /// GET /v1/user/socials: The current user's linked social accounts
        /// </summary>
        public async Task<List<SocialDto>> ListSocialsAsync(CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/user/socials";
            var requestQuery = new CgsQuery();
            var requestAnswer = await Client.SendAsync("GET", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<List<SocialDto>>();
        }

        /// <summary>
        /// POST /v1/user/socials: Link a social account
        /// </summary>
        public async Task<SocialDto> LinkSocialAsync(LinkSocialDto body, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/user/socials";
            var requestQuery = new CgsQuery();
            var requestAnswer = await Client.SendAsync("POST", requestPath, requestQuery, body, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<SocialDto>();
        }

        /// <summary>
        /// GET /v1/user/socials/{type}: The current user's linked accounts of one type
        /// </summary>
        public async Task<List<SocialDto>> ListSocialsOfTypeAsync(string type, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/user/socials/" + CgsQuery.Escape(type);
            var requestQuery = new CgsQuery();
            var requestAnswer = await Client.SendAsync("GET", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<List<SocialDto>>();
        }

        /// <summary>
        /// POST /v1/user/socials/update: Update a linked social account
        /// </summary>
        public async Task<SocialDto> UpdateSocialAsync(UpdateSocialDto body, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/user/socials/update";
            var requestQuery = new CgsQuery();
            var requestAnswer = await Client.SendAsync("POST", requestPath, requestQuery, body, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<SocialDto>();
        }

        /// <summary>
        /// DELETE /v1/user/socials/{id}: Unlink a social account
        /// </summary>
        public async Task DeleteSocialAsync(string id, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/user/socials/" + CgsQuery.Escape(id);
            var requestQuery = new CgsQuery();
            await Client.SendAsync("DELETE", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
        }

        /// <summary>
        /// GET /v1/user/wallet: The user wallet
        /// </summary>
        public async Task<WalletDto> GetWalletAsync(CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/user/wallet";
            var requestQuery = new CgsQuery();
            var requestAnswer = await Client.SendAsync("GET", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<WalletDto>();
        }

        /// <summary>
        /// GET /v1/user/profile: The current user's profile, limited to the requested fields
        /// </summary>
        public async Task<ProfileDto> GetProfileAsync(IEnumerable<string> fields, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/user/profile";
            var requestQuery = new CgsQuery();
            requestQuery.AddAll("fields", fields, true);
            var requestAnswer = await Client.SendAsync("GET", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<ProfileDto>();
        }

        /// <summary>
        /// POST /v1/user/profile: Update the current user's profile
        /// </summary>
        public async Task<ProfileDto> UpdateProfileAsync(UpdateProfileDto body, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/user/profile";
            var requestQuery = new CgsQuery();
            var requestAnswer = await Client.SendAsync("POST", requestPath, requestQuery, body, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<ProfileDto>();
        }

        /// <summary>
        /// GET /v1/user/by-id/{username}/public: A user's public profile in a community
        /// </summary>
        public async Task<PublicProfileDto> GetPublicProfileAsync(string username, string containerId, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/user/by-id/" + CgsQuery.Escape(username) + "/public";
            var requestQuery = new CgsQuery();
            requestQuery.Add("containerId", containerId);
            var requestAnswer = await Client.SendAsync("GET", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<PublicProfileDto>();
        }

        /// <summary>
        /// GET /v1/user/referrals: Users the current user referred
        /// </summary>
        public async Task<List<ReferralDto>> ListReferralsAsync(CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/user/referrals";
            var requestQuery = new CgsQuery();
            var requestAnswer = await Client.SendAsync("GET", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<List<ReferralDto>>();
        }

        /// <summary>
        /// GET /v1/user/notifications: The current user's notifications in a community
        /// </summary>
        public async Task<NotificationPageDto> ListNotificationsAsync(string containerId, double? page = null, double? limit = null, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/user/notifications";
            var requestQuery = new CgsQuery();
            requestQuery.Add("page", page);
            requestQuery.Add("limit", limit);
            requestQuery.Add("containerId", containerId);
            var requestAnswer = await Client.SendAsync("GET", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<NotificationPageDto>();
        }

        /// <summary>
        /// POST /v1/user/notifications/read: Mark all of the current user's notifications read
        /// </summary>
        public async Task MarkNotificationsReadAsync(CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/user/notifications/read";
            var requestQuery = new CgsQuery();
            await Client.SendAsync("POST", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
        }

        /// <summary>
        /// GET /v1/community/{ckey}/inventory/nft/{tenantId}/{mintId}: NFT metadata of a minted avatar
        /// </summary>
        public async Task<NftMetadataDto> GetAvatarNftMetadataAsync(string ckey, string mintId, string tenantId, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/community/" + CgsQuery.Escape(ckey) + "/inventory/nft/" + CgsQuery.Escape(tenantId) + "/" + CgsQuery.Escape(mintId);
            var requestQuery = new CgsQuery();
            var requestAnswer = await Client.SendAsync("GET", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<NftMetadataDto>();
        }

        /// <summary>
        /// GET /v1/community/{id}/seasons: A community's seasons (extension)
        /// </summary>
        public async Task<PaginatedSeason> ListSeasonsAsync(string id, double? page = null, double? limit = null, string status = null, string resource = null, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/community/" + CgsQuery.Escape(id) + "/seasons";
            var requestQuery = new CgsQuery();
            requestQuery.Add("page", page);
            requestQuery.Add("limit", limit);
            requestQuery.Add("status", status);
            requestQuery.Add("resource", resource);
            var requestAnswer = await Client.SendAsync("GET", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<PaginatedSeason>();
        }

        /// <summary>
        /// GET /v1/community/{id}/seasons/{seasonId}: One season of a community (extension)
        /// </summary>
        public async Task<SeasonDto> GetSeasonAsync(string id, string seasonId, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/community/" + CgsQuery.Escape(id) + "/seasons/" + CgsQuery.Escape(seasonId);
            var requestQuery = new CgsQuery();
            var requestAnswer = await Client.SendAsync("GET", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<SeasonDto>();
        }

        /// <summary>
        /// GET /v1/quests/{questId}: A quest and where the player stands on it
        /// </summary>
        public async Task<QuestProgressDto> GetQuestProgressAsync(string questId, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/quests/" + CgsQuery.Escape(questId);
            var requestQuery = new CgsQuery();
            var requestAnswer = await Client.SendAsync("GET", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<QuestProgressDto>();
        }

        /// <summary>
        /// POST /v1/quests/{questId}/claim: Claim a quest: check its tasks now, complete it when all are done
        /// </summary>
        public async Task<QuestProgressDto> ClaimQuestAsync(string questId, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/quests/" + CgsQuery.Escape(questId) + "/claim";
            var requestQuery = new CgsQuery();
            var requestAnswer = await Client.SendAsync("POST", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<QuestProgressDto>();
        }

        /// <summary>
        /// POST /v1/quests/{questId}/tasks/{taskId}/answer: Answer an answer task
        /// </summary>
        public async Task<QuestProgressDto> AnswerQuestTaskAsync(string questId, string taskId, AnswerTaskDto body, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/quests/" + CgsQuery.Escape(questId) + "/tasks/" + CgsQuery.Escape(taskId) + "/answer";
            var requestQuery = new CgsQuery();
            var requestAnswer = await Client.SendAsync("POST", requestPath, requestQuery, body, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<QuestProgressDto>();
        }

        /// <summary>
        /// POST /v1/quests/{questId}/tasks/{taskId}/submission: Submit to a submission task
        /// </summary>
        public async Task<QuestProgressDto> SubmitQuestTaskAsync(string questId, string taskId, SubmitTaskDto body, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/quests/" + CgsQuery.Escape(questId) + "/tasks/" + CgsQuery.Escape(taskId) + "/submission";
            var requestQuery = new CgsQuery();
            var requestAnswer = await Client.SendAsync("POST", requestPath, requestQuery, body, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<QuestProgressDto>();
        }

        /// <summary>
        /// POST /v1/user/auth/logout: Log out: end a session (extension)
        /// </summary>
        public async Task LogoutAsync(LogoutDto body, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/user/auth/logout";
            var requestQuery = new CgsQuery();
            await Client.SendAsync("POST", requestPath, requestQuery, body, cancellationToken).ConfigureAwait(false);
        }

        /// <summary>
        /// GET /v1/user/auth/session: The current session (extension)
        /// </summary>
        public async Task<CurrentSessionDto> CurrentSessionAsync(CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/user/auth/session";
            var requestQuery = new CgsQuery();
            var requestAnswer = await Client.SendAsync("GET", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<CurrentSessionDto>();
        }

        /// <summary>
        /// GET /v1/user/auth/siwe/nonce: A fresh SIWE nonce (extension)
        /// </summary>
        public async Task<SiweNonceDto> GetSiweNonceAsync(CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/user/auth/siwe/nonce";
            var requestQuery = new CgsQuery();
            var requestAnswer = await Client.SendAsync("GET", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<SiweNonceDto>();
        }

        /// <summary>
        /// POST /v1/user/notifications/stream-ticket: A ticket to open the notification stream from a browser (extension)
        /// </summary>
        public async Task<StreamTicketDto> StreamTicketAsync(CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/user/notifications/stream-ticket";
            var requestQuery = new CgsQuery();
            var requestAnswer = await Client.SendAsync("POST", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<StreamTicketDto>();
        }

        /// <summary>
        /// GET /v1/user/quest-completions: The player's completed quests
        /// </summary>
        public async Task<PaginatedQuestHistoryItem> ListQuestCompletionsAsync(double? page = null, double? limit = null, CancellationToken cancellationToken = default(CancellationToken))
        {
            var requestPath = "/v1/user/quest-completions";
            var requestQuery = new CgsQuery();
            requestQuery.Add("page", page);
            requestQuery.Add("limit", limit);
            var requestAnswer = await Client.SendAsync("GET", requestPath, requestQuery, null, cancellationToken).ConfigureAwait(false);
            return requestAnswer.As<PaginatedQuestHistoryItem>();
        }
    }
}

// Not here (use the client's SendAsync, or the platform's own API):
//   GET /v1/quests/visits/{link} (answers a redirect (302))
//   GET /v1/user/notifications/stream (answers text/event-stream)
