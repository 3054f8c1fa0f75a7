// Generated from openapi.json by `npm run openapi` (src/cli/csharp-client.ts). Do not edit.
#pragma warning disable 1591
using System.Collections.Generic;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;

namespace CommunityGaming.Client
{
    public sealed class AddressDto
    {
        [JsonProperty("addressId")]
        public string AddressId { get; set; }

        [JsonProperty("addressLine1")]
        public string AddressLine1 { get; set; }

        [JsonProperty("addressLine2")]
        public string AddressLine2 { get; set; }

        [JsonProperty("addressLine3")]
        public string AddressLine3 { get; set; }

        [JsonProperty("city")]
        public string City { get; set; }

        [JsonProperty("state")]
        public string State { get; set; }

        [JsonProperty("postalCode")]
        public string PostalCode { get; set; }

        [JsonProperty("country")]
        public string Country { get; set; }
    }

    public sealed class AllocateSlotsDto
    {
        /// <summary>
        /// Slots to set, all or nothing; slots not listed keep their item.
        /// </summary>
        [JsonProperty("slots")]
        public List<SlotAllocationDto> Slots { get; set; }
    }

    public sealed class AnswerTaskDto
    {
        [JsonProperty("answer")]
        public string Answer { get; set; }
    }

    public sealed class AvatarDto
    {
        [JsonProperty("communityId")]
        public string CommunityId { get; set; }

        [JsonProperty("userId")]
        public string UserId { get; set; }

        /// <summary>
        /// Grows by one with every allocation that changes the avatar (0: never allocated).
        /// </summary>
        [JsonProperty("version")]
        public double Version { get; set; }

        [JsonProperty("updatedAt")]
        public string UpdatedAt { get; set; }

        /// <summary>
        /// Every slot of the community, with the allocated item or null.
        /// </summary>
        [JsonProperty("slots")]
        public List<UserSlotDto> Slots { get; set; }

        /// <summary>
        /// The mint status: the latest mint of any version and blockchain, null when never minted.
        /// </summary>
        [JsonProperty("mint")]
        public AvatarMintDto Mint { get; set; }

        /// <summary>
        /// The latest 20 mints, newest first.
        /// </summary>
        [JsonProperty("mints")]
        public List<AvatarMintDto> Mints { get; set; }
    }

    public sealed class AvatarMintDto
    {
        [JsonProperty("id")]
        public string Id { get; set; }

        [JsonProperty("blockchain")]
        public string Blockchain { get; set; }

        [JsonProperty("chainId")]
        public double ChainId { get; set; }

        [JsonProperty("contractAddress")]
        public string ContractAddress { get; set; }

        /// <summary>
        /// The user's EVM address that receives the token.
        /// </summary>
        [JsonProperty("recipient")]
        public string Recipient { get; set; }

        /// <summary>
        /// The avatar version the token shows.
        /// </summary>
        [JsonProperty("avatarVersion")]
        public double AvatarVersion { get; set; }

        /// <summary>
        /// `pending` (queued or waiting to retry), `sending` (transaction in flight), `minted`, `failed`. One of: `pending`, `sending`, `minted`, `failed`.
        /// </summary>
        [JsonProperty("status")]
        public string Status { get; set; }

        /// <summary>
        /// uint256 as a decimal string.
        /// </summary>
        [JsonProperty("tokenId")]
        public string TokenId { get; set; }

        [JsonProperty("txHash")]
        public string TxHash { get; set; }

        /// <summary>
        /// The token URI: public ERC-721 metadata of this avatar version.
        /// </summary>
        [JsonProperty("metadataUrl")]
        public string MetadataUrl { get; set; }

        [JsonProperty("error")]
        public string Error { get; set; }

        [JsonProperty("attempts")]
        public double Attempts { get; set; }

        [JsonProperty("requestedAt")]
        public string RequestedAt { get; set; }

        [JsonProperty("mintedAt")]
        public string MintedAt { get; set; }
    }

    public sealed class BalanceItemDto
    {
        [JsonProperty("resourceTypeId")]
        public string ResourceTypeId { get; set; }

        [JsonProperty("slug")]
        public string Slug { get; set; }

        [JsonProperty("name")]
        public string Name { get; set; }

        [JsonProperty("kind")]
        public string Kind { get; set; }

        /// <summary>
        /// Spendable amount (what the store debits).
        /// </summary>
        [JsonProperty("balance")]
        public double Balance { get; set; }
    }

    public sealed class ClaimRewardDto
    {
        [JsonProperty("email")]
        public string Email { get; set; }

        /// <summary>
        /// An EVM address (`0x` + 40 hex digits; mixed case must be a valid EIP-55 checksum; stored
        /// checksummed) or a Sui address (`0x` + 64 hex digits; stored in lower case), as the reward's
        /// `walletChain` takes; another chain's address is 400 `claim_requirements`.
        /// </summary>
        [JsonProperty("walletAddress")]
        public string WalletAddress { get; set; }

        [JsonProperty("address")]
        public AddressDto Address { get; set; }
    }

    public sealed class CommunityDto
    {
        [JsonProperty("id")]
        public string Id { get; set; }

        /// <summary>
        /// Lowercase, unique in the tenant; usable instead of the id in every `{communityId}`.
        /// </summary>
        [JsonProperty("slug")]
        public string Slug { get; set; }

        [JsonProperty("name")]
        public string Name { get; set; }

        [JsonProperty("description")]
        public string Description { get; set; }

        [JsonProperty("imageUrl")]
        public string ImageUrl { get; set; }

        [JsonProperty("bannerUrl")]
        public string BannerUrl { get; set; }

        [JsonProperty("links")]
        public List<CommunityLinkDto> Links { get; set; }

        [JsonProperty("memberCount")]
        public double MemberCount { get; set; }

        /// <summary>
        /// IANA time zone of its calendar: where daily, weekly and monthly quests start a new period (extension).
        /// </summary>
        [JsonProperty("timeZone")]
        public string TimeZone { get; set; }

        [JsonProperty("createdAt")]
        public string CreatedAt { get; set; }
    }

    public sealed class CommunityLinkDto
    {
        [JsonProperty("label")]
        public string Label { get; set; }

        [JsonProperty("url")]
        public string Url { get; set; }
    }

    public sealed class CommunityReferralDto
    {
        [JsonProperty("userId")]
        public string UserId { get; set; }

        [JsonProperty("handle")]
        public string Handle { get; set; }

        [JsonProperty("displayName")]
        public string DisplayName { get; set; }

        /// <summary>
        /// When the referred user joined the community.
        /// </summary>
        [JsonProperty("joinedAt")]
        public string JoinedAt { get; set; }
    }

    public sealed class CompletionRuleDto
    {
        /// <summary>
        /// Minimum score (earned scoped resource) to receive tickets.
        /// </summary>
        [JsonProperty("minScore")]
        public double MinScore { get; set; }

        /// <summary>
        /// Only ranks 1..maxRank receive tickets; null: any rank.
        /// </summary>
        [JsonProperty("maxRank")]
        public double? MaxRank { get; set; }
    }

    public sealed class CredentialLoginDto
    {
        /// <summary>
        /// Handle of the user who referred this one. Used only when this login creates the user; an
        /// unknown handle is ignored, the user's own handle is refused (400 self_referral).
        /// </summary>
        [JsonProperty("referrerHandle")]
        public string ReferrerHandle { get; set; }

        /// <summary>
        /// providerA's signed OpenID Connect ID token (JWT), `aud` = the tenant's providerA client id.
        /// </summary>
        [JsonProperty("credential")]
        public string Credential { get; set; }
    }

    public sealed class CurrentSessionDto
    {
        [JsonProperty("userId")]
        public string UserId { get; set; }

        [JsonProperty("tenantId")]
        public string TenantId { get; set; }
    }

    public sealed class DateOfBirthDto
    {
        [JsonProperty("year")]
        public double Year { get; set; }

        [JsonProperty("month")]
        public double Month { get; set; }

        [JsonProperty("day")]
        public double Day { get; set; }
    }

    public sealed class ErrorBodyDto
    {
        /// <summary>
        /// Stable numeric code. Every 400 uses 10002; every other case has its own (see the error table).
        /// </summary>
        [JsonProperty("code")]
        public double Code { get; set; }

        /// <summary>
        /// The interface's identifier, for clients to compare: `generic_client_error` for every 400; `GENERIC_UNAUTHORIZED`, `SESSION_TOKEN_EXPIRED` (refresh the session) or `REFRESH_TOKEN_EXPIRED` (log in again) for every 401; the `error` identifier for every other status.
        /// </summary>
        [JsonProperty("message")]
        public string Message { get; set; }

        /// <summary>
        /// Stable identifier of the precise case (e.g. `validation_failed`, `event_full`, `login_token_replayed`).
        /// </summary>
        [JsonProperty("error")]
        public string Error { get; set; }

        /// <summary>
        /// Human-readable explanation of this request's error, for logs and developers; its wording may change, never parse it.
        /// </summary>
        [JsonProperty("detail")]
        public string Detail { get; set; }

        /// <summary>
        /// Id of the request, also in the X-Request-Id header.
        /// </summary>
        [JsonProperty("requestId")]
        public string RequestId { get; set; }

        /// <summary>
        /// Structured detail for some errors (e.g. which fields or which requirement failed).
        /// </summary>
        [JsonProperty("details")]
        public JObject Details { get; set; }
    }

    public sealed class InventoryDto
    {
        [JsonProperty("communityId")]
        public string CommunityId { get; set; }

        [JsonProperty("slots")]
        public List<SlotDto> Slots { get; set; }

        /// <summary>
        /// Items the community defines.
        /// </summary>
        [JsonProperty("itemCount")]
        public double ItemCount { get; set; }

        [JsonProperty("user")]
        public InventorySummaryDto User { get; set; }
    }

    public sealed class InventorySummaryDto
    {
        [JsonProperty("userId")]
        public string UserId { get; set; }

        /// <summary>
        /// Distinct items owned.
        /// </summary>
        [JsonProperty("ownedItems")]
        public double OwnedItems { get; set; }

        /// <summary>
        /// Units owned over all items.
        /// </summary>
        [JsonProperty("totalQuantity")]
        public double TotalQuantity { get; set; }

        /// <summary>
        /// Slots with an item allocated.
        /// </summary>
        [JsonProperty("allocatedSlots")]
        public double AllocatedSlots { get; set; }

        /// <summary>
        /// The avatar version (0 before the first allocation).
        /// </summary>
        [JsonProperty("avatarVersion")]
        public double AvatarVersion { get; set; }
    }

    public sealed class ItemAttributeDto
    {
        [JsonProperty("traitType")]
        public string TraitType { get; set; }

        /// <summary>
        /// A string (at most 200 characters) or a number.
        /// </summary>
        [JsonProperty("value")]
        public JToken Value { get; set; }
    }

    public sealed class ItemDto
    {
        [JsonProperty("id")]
        public string Id { get; set; }

        [JsonProperty("communityId")]
        public string CommunityId { get; set; }

        /// <summary>
        /// The slot the item fits.
        /// </summary>
        [JsonProperty("slotId")]
        public string SlotId { get; set; }

        [JsonProperty("slotKey")]
        public string SlotKey { get; set; }

        [JsonProperty("name")]
        public string Name { get; set; }

        [JsonProperty("description")]
        public string Description { get; set; }

        [JsonProperty("imageUrl")]
        public string ImageUrl { get; set; }

        [JsonProperty("rarity")]
        public string Rarity { get; set; }

        [JsonProperty("attributes")]
        public List<ItemAttributeDto> Attributes { get; set; }

        /// <summary>
        /// Units that can ever be granted; null means unlimited.
        /// </summary>
        [JsonProperty("supply")]
        public double? Supply { get; set; }

        /// <summary>
        /// Units granted so far.
        /// </summary>
        [JsonProperty("granted")]
        public double Granted { get; set; }

        /// <summary>
        /// Units left (`supply - granted`); null when unlimited.
        /// </summary>
        [JsonProperty("remaining")]
        public double? Remaining { get; set; }
    }

    public sealed class LeaderboardEntryDto
    {
        /// <summary>
        /// Equal amounts share a rank (1, 2, 2, 4).
        /// </summary>
        [JsonProperty("rank")]
        public double Rank { get; set; }

        [JsonProperty("userId")]
        public string UserId { get; set; }

        [JsonProperty("handle")]
        public string Handle { get; set; }

        [JsonProperty("displayName")]
        public string DisplayName { get; set; }

        /// <summary>
        /// Earned total of the resource (spending in the store does not lower it).
        /// </summary>
        [JsonProperty("amount")]
        public double Amount { get; set; }
    }

    public sealed class LinkSocialDto
    {
        /// <summary>
        /// The name shown for the account (e.g. `ada#1234`).
        /// </summary>
        [JsonProperty("handle")]
        public string Handle { get; set; }

        /// <summary>
        /// A server, guild or region the account belongs to.
        /// </summary>
        [JsonProperty("server")]
        public string Server { get; set; }

        /// <summary>
        /// When the stored tokens expire: ISO 8601 date-time with `Z` or an offset, or a date (midnight UTC).
        /// </summary>
        [JsonProperty("expiryDate")]
        public string ExpiryDate { get; set; }

        /// <summary>
        /// Provider-specific data: a JSON object, at most 4 KB and 5 levels deep.
        /// </summary>
        [JsonProperty("extraArgs")]
        public JObject ExtraArgs { get; set; }

        /// <summary>
        /// The provider's account-creation information: a JSON object, at most 4 KB and 5 levels deep.
        /// </summary>
        [JsonProperty("createdAt")]
        public JObject CreatedAt { get; set; }

        /// <summary>
        /// Access token for the provider. Stored encrypted; never returned.
        /// </summary>
        [JsonProperty("userToken")]
        public string UserToken { get; set; }

        /// <summary>
        /// Refresh token for the provider. Stored encrypted; never returned.
        /// </summary>
        [JsonProperty("refreshToken")]
        public string RefreshToken { get; set; }

        /// <summary>
        /// One of the supported account types (see the list in the description of `POST /v1/user/socials`); case-insensitive.
        /// </summary>
        [JsonProperty("accountType")]
        public string AccountType { get; set; }

        /// <summary>
        /// The account's id at the provider (case-sensitive).
        /// </summary>
        [JsonProperty("subjectId")]
        public string SubjectId { get; set; }

        /// <summary>
        /// Whether the account shows on the user's public profile.
        /// </summary>
        [JsonProperty("public")]
        public bool Public { get; set; }
    }

    public sealed class ListingDto
    {
        [JsonProperty("id")]
        public string Id { get; set; }

        [JsonProperty("communityId")]
        public string CommunityId { get; set; }

        [JsonProperty("name")]
        public string Name { get; set; }

        [JsonProperty("description")]
        public string Description { get; set; }

        [JsonProperty("imageUrl")]
        public string ImageUrl { get; set; }

        /// <summary>
        /// One of: `item`, `prize`, `resource`.
        /// </summary>
        [JsonProperty("kind")]
        public string Kind { get; set; }

        [JsonProperty("itemId")]
        public string ItemId { get; set; }

        [JsonProperty("prizeId")]
        public string PrizeId { get; set; }

        [JsonProperty("resourceTypeId")]
        public string ResourceTypeId { get; set; }

        /// <summary>
        /// Units granted per purchase.
        /// </summary>
        [JsonProperty("quantity")]
        public double Quantity { get; set; }

        [JsonProperty("price")]
        public List<PriceComponentDto> Price { get; set; }

        /// <summary>
        /// null: unlimited.
        /// </summary>
        [JsonProperty("totalSupply")]
        public double? TotalSupply { get; set; }

        /// <summary>
        /// Purchases left (null: unlimited). totalSupply = remainingSupply + sold.
        /// </summary>
        [JsonProperty("remainingSupply")]
        public double? RemainingSupply { get; set; }

        [JsonProperty("sold")]
        public double Sold { get; set; }

        [JsonProperty("perUserLimit")]
        public double? PerUserLimit { get; set; }

        [JsonProperty("startsAt")]
        public string StartsAt { get; set; }

        [JsonProperty("endsAt")]
        public string EndsAt { get; set; }

        [JsonProperty("requirementIds")]
        public List<string> RequirementIds { get; set; }

        [JsonProperty("active")]
        public bool Active { get; set; }

        [JsonProperty("position")]
        public double Position { get; set; }

        [JsonProperty("createdAt")]
        public string CreatedAt { get; set; }

        /// <summary>
        /// `enrichRequirements=true` only: the requirement definitions with the user's saved data.
        /// </summary>
        [JsonProperty("requirements")]
        public List<UserRequirementDto> Requirements { get; set; }

        /// <summary>
        /// `enrichRequirements=true` only: how many times the user bought this listing.
        /// </summary>
        [JsonProperty("purchasedCount")]
        public double? PurchasedCount { get; set; }

        /// <summary>
        /// `enrichRequirements=true` only: whether the user can buy it now (given saved or new data for data requirements).
        /// </summary>
        [JsonProperty("canBuy")]
        public bool? CanBuy { get; set; }

        /// <summary>
        /// `enrichRequirements=true` only: why not, any of `not_started`, `ended`, `sold_out` (the
        /// listing's supply, or what is left of its item's or prize's own supply, is short of one
        /// purchase), `limit_reached`, `insufficient_balance`, `requirement_not_met:&lt;requirementId&gt;`.
        /// </summary>
        [JsonProperty("unavailableReasons")]
        public List<string> UnavailableReasons { get; set; }
    }

    public sealed class LogoutDto
    {
        /// <summary>
        /// The refresh token of the session to end. Required unless `all` is true.
        /// </summary>
        [JsonProperty("refreshToken")]
        public string RefreshToken { get; set; }

        /// <summary>
        /// End every session of the current user (log out everywhere).
        /// </summary>
        [JsonProperty("all")]
        public bool? All { get; set; }
    }

    public sealed class MembershipDto
    {
        [JsonProperty("communityId")]
        public string CommunityId { get; set; }

        [JsonProperty("userId")]
        public string UserId { get; set; }

        [JsonProperty("joinedAt")]
        public string JoinedAt { get; set; }

        /// <summary>
        /// Handle of the member who referred the user into the community, if any.
        /// </summary>
        [JsonProperty("referrerHandle")]
        public string ReferrerHandle { get; set; }

        /// <summary>
        /// true when this call created the membership (201); false when the user was already a member (200).
        /// </summary>
        [JsonProperty("created")]
        public bool Created { get; set; }
    }

    public sealed class MintAvatarDto
    {
        /// <summary>
        /// A configured blockchain name.
        /// </summary>
        [JsonProperty("blockchain")]
        public string Blockchain { get; set; }
    }

    public sealed class NftAttributeDto
    {
        [JsonProperty("trait_type")]
        public string TraitType { get; set; }

        [JsonProperty("value")]
        public JToken Value { get; set; }
    }

    public sealed class NftMetadataDto
    {
        [JsonProperty("name")]
        public string Name { get; set; }

        [JsonProperty("description")]
        public string Description { get; set; }

        [JsonProperty("image")]
        public string Image { get; set; }

        [JsonProperty("attributes")]
        public List<NftAttributeDto> Attributes { get; set; }
    }

    public sealed class NotificationDto
    {
        [JsonProperty("id")]
        public string Id { get; set; }

        [JsonProperty("type")]
        public string Type { get; set; }

        [JsonProperty("title")]
        public string Title { get; set; }

        /// <summary>
        /// Details of the subject (ids to link to); the shape depends on `type`.
        /// </summary>
        [JsonProperty("data")]
        public JObject Data { get; set; }

        /// <summary>
        /// The community it is about; null for account-wide notifications.
        /// </summary>
        [JsonProperty("communityId")]
        public string CommunityId { get; set; }

        [JsonProperty("read")]
        public bool Read { get; set; }

        [JsonProperty("readAt")]
        public string ReadAt { get; set; }

        [JsonProperty("createdAt")]
        public string CreatedAt { get; set; }
    }

    public sealed class NotificationPageDto
    {
        [JsonProperty("items")]
        public List<NotificationDto> Items { get; set; }

        /// <summary>
        /// The page returned (1-based).
        /// </summary>
        [JsonProperty("page")]
        public double Page { get; set; }

        /// <summary>
        /// The page size used.
        /// </summary>
        [JsonProperty("limit")]
        public double Limit { get; set; }

        /// <summary>
        /// Number of items over all pages.
        /// </summary>
        [JsonProperty("total")]
        public double Total { get; set; }

        /// <summary>
        /// Whether a later page has items.
        /// </summary>
        [JsonProperty("hasNextPage")]
        public bool HasNextPage { get; set; }

        /// <summary>
        /// Unread notifications over all pages of this list (this community plus account-wide ones).
        /// </summary>
        [JsonProperty("unreadCount")]
        public double UnreadCount { get; set; }
    }

    public sealed class PaginatedCommunityReferral
    {
        [JsonProperty("items")]
        public List<CommunityReferralDto> Items { get; set; }

        /// <summary>
        /// The page returned (1-based).
        /// </summary>
        [JsonProperty("page")]
        public double Page { get; set; }

        /// <summary>
        /// The page size used.
        /// </summary>
        [JsonProperty("limit")]
        public double Limit { get; set; }

        /// <summary>
        /// Number of items over all pages.
        /// </summary>
        [JsonProperty("total")]
        public double Total { get; set; }

        /// <summary>
        /// Whether a later page has items.
        /// </summary>
        [JsonProperty("hasNextPage")]
        public bool HasNextPage { get; set; }
    }

    public sealed class PaginatedLeaderboardEntry
    {
        [JsonProperty("items")]
        public List<LeaderboardEntryDto> Items { get; set; }

        /// <summary>
        /// The page returned (1-based).
        /// </summary>
        [JsonProperty("page")]
        public double Page { get; set; }

        /// <summary>
        /// The page size used.
        /// </summary>
        [JsonProperty("limit")]
        public double Limit { get; set; }

        /// <summary>
        /// Number of items over all pages.
        /// </summary>
        [JsonProperty("total")]
        public double Total { get; set; }

        /// <summary>
        /// Whether a later page has items.
        /// </summary>
        [JsonProperty("hasNextPage")]
        public bool HasNextPage { get; set; }
    }

    public sealed class PaginatedListing
    {
        [JsonProperty("items")]
        public List<ListingDto> Items { get; set; }

        /// <summary>
        /// The page returned (1-based).
        /// </summary>
        [JsonProperty("page")]
        public double Page { get; set; }

        /// <summary>
        /// The page size used.
        /// </summary>
        [JsonProperty("limit")]
        public double Limit { get; set; }

        /// <summary>
        /// Number of items over all pages.
        /// </summary>
        [JsonProperty("total")]
        public double Total { get; set; }

        /// <summary>
        /// Whether a later page has items.
        /// </summary>
        [JsonProperty("hasNextPage")]
        public bool HasNextPage { get; set; }
    }

    public sealed class PaginatedParticipantListItem
    {
        [JsonProperty("items")]
        public List<ParticipantListItemDto> Items { get; set; }

        /// <summary>
        /// The page returned (1-based).
        /// </summary>
        [JsonProperty("page")]
        public double Page { get; set; }

        /// <summary>
        /// The page size used.
        /// </summary>
        [JsonProperty("limit")]
        public double Limit { get; set; }

        /// <summary>
        /// Number of items over all pages.
        /// </summary>
        [JsonProperty("total")]
        public double Total { get; set; }

        /// <summary>
        /// Whether a later page has items.
        /// </summary>
        [JsonProperty("hasNextPage")]
        public bool HasNextPage { get; set; }
    }

    public sealed class PaginatedPurchase
    {
        [JsonProperty("items")]
        public List<PurchaseDto> Items { get; set; }

        /// <summary>
        /// The page returned (1-based).
        /// </summary>
        [JsonProperty("page")]
        public double Page { get; set; }

        /// <summary>
        /// The page size used.
        /// </summary>
        [JsonProperty("limit")]
        public double Limit { get; set; }

        /// <summary>
        /// Number of items over all pages.
        /// </summary>
        [JsonProperty("total")]
        public double Total { get; set; }

        /// <summary>
        /// Whether a later page has items.
        /// </summary>
        [JsonProperty("hasNextPage")]
        public bool HasNextPage { get; set; }
    }

    public sealed class PaginatedQuest
    {
        [JsonProperty("items")]
        public List<QuestDto> Items { get; set; }

        /// <summary>
        /// The page returned (1-based).
        /// </summary>
        [JsonProperty("page")]
        public double Page { get; set; }

        /// <summary>
        /// The page size used.
        /// </summary>
        [JsonProperty("limit")]
        public double Limit { get; set; }

        /// <summary>
        /// Number of items over all pages.
        /// </summary>
        [JsonProperty("total")]
        public double Total { get; set; }

        /// <summary>
        /// Whether a later page has items.
        /// </summary>
        [JsonProperty("hasNextPage")]
        public bool HasNextPage { get; set; }
    }

    public sealed class PaginatedQuestEvent
    {
        [JsonProperty("items")]
        public List<QuestEventDto> Items { get; set; }

        /// <summary>
        /// The page returned (1-based).
        /// </summary>
        [JsonProperty("page")]
        public double Page { get; set; }

        /// <summary>
        /// The page size used.
        /// </summary>
        [JsonProperty("limit")]
        public double Limit { get; set; }

        /// <summary>
        /// Number of items over all pages.
        /// </summary>
        [JsonProperty("total")]
        public double Total { get; set; }

        /// <summary>
        /// Whether a later page has items.
        /// </summary>
        [JsonProperty("hasNextPage")]
        public bool HasNextPage { get; set; }
    }

    public sealed class PaginatedQuestHistoryItem
    {
        [JsonProperty("items")]
        public List<QuestHistoryItemDto> Items { get; set; }

        /// <summary>
        /// The page returned (1-based).
        /// </summary>
        [JsonProperty("page")]
        public double Page { get; set; }

        /// <summary>
        /// The page size used.
        /// </summary>
        [JsonProperty("limit")]
        public double Limit { get; set; }

        /// <summary>
        /// Number of items over all pages.
        /// </summary>
        [JsonProperty("total")]
        public double Total { get; set; }

        /// <summary>
        /// Whether a later page has items.
        /// </summary>
        [JsonProperty("hasNextPage")]
        public bool HasNextPage { get; set; }
    }

    public sealed class PaginatedResourceType
    {
        [JsonProperty("items")]
        public List<ResourceTypeDto> Items { get; set; }

        /// <summary>
        /// The page returned (1-based).
        /// </summary>
        [JsonProperty("page")]
        public double Page { get; set; }

        /// <summary>
        /// The page size used.
        /// </summary>
        [JsonProperty("limit")]
        public double Limit { get; set; }

        /// <summary>
        /// Number of items over all pages.
        /// </summary>
        [JsonProperty("total")]
        public double Total { get; set; }

        /// <summary>
        /// Whether a later page has items.
        /// </summary>
        [JsonProperty("hasNextPage")]
        public bool HasNextPage { get; set; }
    }

    public sealed class PaginatedSeason
    {
        [JsonProperty("items")]
        public List<SeasonDto> Items { get; set; }

        /// <summary>
        /// The page returned (1-based).
        /// </summary>
        [JsonProperty("page")]
        public double Page { get; set; }

        /// <summary>
        /// The page size used.
        /// </summary>
        [JsonProperty("limit")]
        public double Limit { get; set; }

        /// <summary>
        /// Number of items over all pages.
        /// </summary>
        [JsonProperty("total")]
        public double Total { get; set; }

        /// <summary>
        /// Whether a later page has items.
        /// </summary>
        [JsonProperty("hasNextPage")]
        public bool HasNextPage { get; set; }
    }

    public sealed class PaginatedUserItem
    {
        [JsonProperty("items")]
        public List<UserItemDto> Items { get; set; }

        /// <summary>
        /// The page returned (1-based).
        /// </summary>
        [JsonProperty("page")]
        public double Page { get; set; }

        /// <summary>
        /// The page size used.
        /// </summary>
        [JsonProperty("limit")]
        public double Limit { get; set; }

        /// <summary>
        /// Number of items over all pages.
        /// </summary>
        [JsonProperty("total")]
        public double Total { get; set; }

        /// <summary>
        /// Whether a later page has items.
        /// </summary>
        [JsonProperty("hasNextPage")]
        public bool HasNextPage { get; set; }
    }

    public sealed class PaginatedUserPrize
    {
        [JsonProperty("items")]
        public List<UserPrizeDto> Items { get; set; }

        /// <summary>
        /// The page returned (1-based).
        /// </summary>
        [JsonProperty("page")]
        public double Page { get; set; }

        /// <summary>
        /// The page size used.
        /// </summary>
        [JsonProperty("limit")]
        public double Limit { get; set; }

        /// <summary>
        /// Number of items over all pages.
        /// </summary>
        [JsonProperty("total")]
        public double Total { get; set; }

        /// <summary>
        /// Whether a later page has items.
        /// </summary>
        [JsonProperty("hasNextPage")]
        public bool HasNextPage { get; set; }
    }

    public sealed class ParticipantDto
    {
        [JsonProperty("eventId")]
        public string EventId { get; set; }

        [JsonProperty("userId")]
        public string UserId { get; set; }

        /// <summary>
        /// ParticipantStatus: 1 REGISTERED, 2 UNREGISTERED, 3 DROPPED, 4 CANCELLED. One of: `1`, `2`, `3`, `4`.
        /// </summary>
        [JsonProperty("status")]
        public double Status { get; set; }

        /// <summary>
        /// One of: `REGISTERED`, `UNREGISTERED`, `DROPPED`, `CANCELLED`.
        /// </summary>
        [JsonProperty("statusName")]
        public string StatusName { get; set; }

        /// <summary>
        /// The score (earned scoped resource) as of `scoreSyncedAt`.
        /// </summary>
        [JsonProperty("score")]
        public double Score { get; set; }

        [JsonProperty("scoreSyncedAt")]
        public string ScoreSyncedAt { get; set; }

        [JsonProperty("registeredAt")]
        public string RegisteredAt { get; set; }

        [JsonProperty("statusChangedAt")]
        public string StatusChangedAt { get; set; }

        [JsonProperty("dropReason")]
        public string DropReason { get; set; }
    }

    public sealed class ParticipantListItemDto
    {
        [JsonProperty("userId")]
        public string UserId { get; set; }

        [JsonProperty("handle")]
        public string Handle { get; set; }

        [JsonProperty("displayName")]
        public string DisplayName { get; set; }

        [JsonProperty("score")]
        public double Score { get; set; }

        [JsonProperty("registeredAt")]
        public string RegisteredAt { get; set; }
    }

    public sealed class ParticipantRankDto
    {
        [JsonProperty("eventId")]
        public string EventId { get; set; }

        [JsonProperty("userId")]
        public string UserId { get; set; }

        /// <summary>
        /// ParticipantStatus: 1 REGISTERED, 2 UNREGISTERED, 3 DROPPED, 4 CANCELLED. One of: `1`, `2`, `3`, `4`.
        /// </summary>
        [JsonProperty("status")]
        public double Status { get; set; }

        /// <summary>
        /// Equal scores share a rank; null when not REGISTERED or the score is 0. Once the event is completed: the rank in its final standings (the one its tickets were allocated by).
        /// </summary>
        [JsonProperty("rank")]
        public double? Rank { get; set; }

        /// <summary>
        /// The live score (earned scoped resource); once the event is completed, the final score.
        /// </summary>
        [JsonProperty("score")]
        public double Score { get; set; }

        /// <summary>
        /// REGISTERED participants with a score &gt; 0.
        /// </summary>
        [JsonProperty("totalRanked")]
        public double TotalRanked { get; set; }

        [JsonProperty("above")]
        public List<LeaderboardEntryDto> Above { get; set; }

        [JsonProperty("below")]
        public List<LeaderboardEntryDto> Below { get; set; }
    }

    public sealed class PasswordLoginDto
    {
        [JsonProperty("username")]
        public string Username { get; set; }

        [JsonProperty("password")]
        public string Password { get; set; }
    }

    public sealed class PeriodCompletionDto
    {
        [JsonProperty("completionId")]
        public string CompletionId { get; set; }

        [JsonProperty("completedAt")]
        public string CompletedAt { get; set; }

        /// <summary>
        /// true when this request completed it (its rewards credited now); false when it was completed before.
        /// </summary>
        [JsonProperty("created")]
        public bool Created { get; set; }

        [JsonProperty("rewards")]
        public List<QuestRewardDto> Rewards { get; set; }

        /// <summary>
        /// The streak bonus this completion reached (empty: none).
        /// </summary>
        [JsonProperty("streakRewards")]
        public List<QuestRewardDto> StreakRewards { get; set; }
    }

    public sealed class PriceComponentDto
    {
        [JsonProperty("resourceTypeId")]
        public string ResourceTypeId { get; set; }

        [JsonProperty("amount")]
        public double Amount { get; set; }
    }

    public sealed class PrizeDetailDto
    {
        [JsonProperty("id")]
        public string Id { get; set; }

        [JsonProperty("communityId")]
        public string CommunityId { get; set; }

        [JsonProperty("name")]
        public string Name { get; set; }

        [JsonProperty("description")]
        public string Description { get; set; }

        [JsonProperty("imageUrl")]
        public string ImageUrl { get; set; }

        /// <summary>
        /// One of: `achievement`, `physical`, `digital`.
        /// </summary>
        [JsonProperty("kind")]
        public string Kind { get; set; }

        /// <summary>
        /// null: unlimited.
        /// </summary>
        [JsonProperty("totalSupply")]
        public double? TotalSupply { get; set; }

        /// <summary>
        /// Units awarded so far. totalSupply = remainingSupply + awarded.
        /// </summary>
        [JsonProperty("awarded")]
        public double Awarded { get; set; }

        [JsonProperty("remainingSupply")]
        public double? RemainingSupply { get; set; }

        [JsonProperty("requirementIds")]
        public List<string> RequirementIds { get; set; }

        [JsonProperty("createdAt")]
        public string CreatedAt { get; set; }

        /// <summary>
        /// Units the current user owns (0: not owned).
        /// </summary>
        [JsonProperty("ownedQuantity")]
        public double OwnedQuantity { get; set; }

        [JsonProperty("ownerCount")]
        public double OwnerCount { get; set; }

        /// <summary>
        /// The first owners (at most 50, earliest first); the management API pages through all of them.
        /// </summary>
        [JsonProperty("owners")]
        public List<PrizeOwnerDto> Owners { get; set; }
    }

    public sealed class PrizeOwnerDto
    {
        [JsonProperty("userId")]
        public string UserId { get; set; }

        [JsonProperty("handle")]
        public string Handle { get; set; }

        [JsonProperty("quantity")]
        public double Quantity { get; set; }

        [JsonProperty("firstAwardedAt")]
        public string FirstAwardedAt { get; set; }
    }

    public sealed class PrizeSupplyDto
    {
        [JsonProperty("prizeId")]
        public string PrizeId { get; set; }

        [JsonProperty("totalSupply")]
        public double? TotalSupply { get; set; }

        [JsonProperty("awarded")]
        public double Awarded { get; set; }

        [JsonProperty("remainingSupply")]
        public double? RemainingSupply { get; set; }
    }

    public sealed class ProfileDto
    {
        [JsonProperty("id")]
        public string Id { get; set; }

        /// <summary>
        /// Login name of a password account; null for accounts made by other logins.
        /// </summary>
        [JsonProperty("username")]
        public string Username { get; set; }

        [JsonProperty("handle")]
        public string Handle { get; set; }

        [JsonProperty("displayName")]
        public string DisplayName { get; set; }

        [JsonProperty("biography")]
        public string Biography { get; set; }

        [JsonProperty("dateOfBirth")]
        public DateOfBirthDto DateOfBirth { get; set; }

        [JsonProperty("address")]
        public AddressDto Address { get; set; }

        /// <summary>
        /// All linked social accounts (public or not), as in `GET /v1/user/socials`.
        /// </summary>
        [JsonProperty("socials")]
        public List<SocialDto> Socials { get; set; }

        /// <summary>
        /// When the account was created.
        /// </summary>
        [JsonProperty("createdAt")]
        public string CreatedAt { get; set; }
    }

    public sealed class PublicAvatarPartDto
    {
        [JsonProperty("slotKey")]
        public string SlotKey { get; set; }

        [JsonProperty("slotName")]
        public string SlotName { get; set; }

        [JsonProperty("itemId")]
        public string ItemId { get; set; }

        [JsonProperty("name")]
        public string Name { get; set; }

        [JsonProperty("imageUrl")]
        public string ImageUrl { get; set; }

        [JsonProperty("rarity")]
        public string Rarity { get; set; }
    }

    public sealed class PublicProfileDto
    {
        [JsonProperty("userId")]
        public string UserId { get; set; }

        [JsonProperty("handle")]
        public string Handle { get; set; }

        [JsonProperty("displayName")]
        public string DisplayName { get; set; }

        /// <summary>
        /// The user's avatar in this community: the item equipped in each slot (empty when none).
        /// </summary>
        [JsonProperty("avatar")]
        public List<PublicAvatarPartDto> Avatar { get; set; }

        /// <summary>
        /// Linked accounts the user marked public.
        /// </summary>
        [JsonProperty("socials")]
        public List<PublicSocialDto> Socials { get; set; }

        [JsonProperty("communityId")]
        public string CommunityId { get; set; }

        /// <summary>
        /// Whether the user is a member of the community.
        /// </summary>
        [JsonProperty("member")]
        public bool Member { get; set; }

        /// <summary>
        /// Slug of the resource counted as XP: the community's global resource type (the oldest if several); null when it has none.
        /// </summary>
        [JsonProperty("xpResource")]
        public string XpResource { get; set; }

        /// <summary>
        /// XP the user earned in the community (what its leaderboard ranks; spending does not lower it); 0 when none.
        /// </summary>
        [JsonProperty("xp")]
        public double Xp { get; set; }

        /// <summary>
        /// Position on the community's XP leaderboard (1 = first, ties share a rank); null when the user has no XP.
        /// </summary>
        [JsonProperty("rank")]
        public double? Rank { get; set; }
    }

    public sealed class PublicSocialDto
    {
        [JsonProperty("accountType")]
        public string AccountType { get; set; }

        [JsonProperty("subjectId")]
        public string SubjectId { get; set; }

        [JsonProperty("handle")]
        public string Handle { get; set; }

        [JsonProperty("server")]
        public string Server { get; set; }
    }

    public sealed class PurchaseBodyDto
    {
        /// <summary>
        /// One-use id chosen by the client (idempotency key per user): a retry with the same nonce and request returns the first purchase and charges nothing.
        /// </summary>
        [JsonProperty("nonce")]
        public string Nonce { get; set; }

        /// <summary>
        /// Data for the listing's `data` requirements (a requirement with saved data may be left out: the saved data is used).
        /// </summary>
        [JsonProperty("requirementData")]
        public List<RequirementDataItemDto> RequirementData { get; set; }

        /// <summary>
        /// Extension: the price the player agreed to (the listing's `price` as shown). When the listing's
        /// price is another now, the purchase is 409 `price_changed` and nothing is charged; absent, the
        /// current price is charged. Not part of what a nonce's replay compares.
        /// </summary>
        [JsonProperty("expectedPrice")]
        public List<PriceComponentDto> ExpectedPrice { get; set; }
    }

    public sealed class PurchaseDto
    {
        [JsonProperty("id")]
        public string Id { get; set; }

        [JsonProperty("listingId")]
        public string ListingId { get; set; }

        [JsonProperty("listingName")]
        public string ListingName { get; set; }

        [JsonProperty("communityId")]
        public string CommunityId { get; set; }

        [JsonProperty("nonce")]
        public string Nonce { get; set; }

        /// <summary>
        /// One of: `item`, `prize`, `resource`.
        /// </summary>
        [JsonProperty("kind")]
        public string Kind { get; set; }

        [JsonProperty("itemId")]
        public string ItemId { get; set; }

        [JsonProperty("prizeId")]
        public string PrizeId { get; set; }

        [JsonProperty("resourceTypeId")]
        public string ResourceTypeId { get; set; }

        [JsonProperty("quantity")]
        public double Quantity { get; set; }

        /// <summary>
        /// What was paid.
        /// </summary>
        [JsonProperty("price")]
        public List<PriceComponentDto> Price { get; set; }

        [JsonProperty("createdAt")]
        public string CreatedAt { get; set; }
    }

    public sealed class PurchaseResultDto
    {
        [JsonProperty("id")]
        public string Id { get; set; }

        [JsonProperty("listingId")]
        public string ListingId { get; set; }

        [JsonProperty("listingName")]
        public string ListingName { get; set; }

        [JsonProperty("communityId")]
        public string CommunityId { get; set; }

        [JsonProperty("nonce")]
        public string Nonce { get; set; }

        /// <summary>
        /// One of: `item`, `prize`, `resource`.
        /// </summary>
        [JsonProperty("kind")]
        public string Kind { get; set; }

        [JsonProperty("itemId")]
        public string ItemId { get; set; }

        [JsonProperty("prizeId")]
        public string PrizeId { get; set; }

        [JsonProperty("resourceTypeId")]
        public string ResourceTypeId { get; set; }

        [JsonProperty("quantity")]
        public double Quantity { get; set; }

        /// <summary>
        /// What was paid.
        /// </summary>
        [JsonProperty("price")]
        public List<PriceComponentDto> Price { get; set; }

        [JsonProperty("createdAt")]
        public string CreatedAt { get; set; }

        /// <summary>
        /// true: this nonce had already bought with the same request; this is that purchase and nothing was charged now.
        /// </summary>
        [JsonProperty("replayed")]
        public bool Replayed { get; set; }
    }

    public sealed class QuestAvailabilityDto
    {
        [JsonProperty("open")]
        public bool Open { get; set; }

        [JsonProperty("reason")]
        public string Reason { get; set; }

        [JsonProperty("retryAt")]
        public string RetryAt { get; set; }
    }

    public sealed class QuestDto
    {
        [JsonProperty("id")]
        public string Id { get; set; }

        [JsonProperty("communityId")]
        public string CommunityId { get; set; }

        [JsonProperty("questEventId")]
        public string QuestEventId { get; set; }

        [JsonProperty("name")]
        public string Name { get; set; }

        [JsonProperty("description")]
        public string Description { get; set; }

        [JsonProperty("type")]
        public string Type { get; set; }

        /// <summary>
        /// One of: `draft`, `active`, `archived`.
        /// </summary>
        [JsonProperty("status")]
        public string Status { get; set; }

        [JsonProperty("tags")]
        public List<string> Tags { get; set; }

        [JsonProperty("rewards")]
        public List<QuestRewardDto> Rewards { get; set; }

        [JsonProperty("featured")]
        public bool Featured { get; set; }

        [JsonProperty("template")]
        public bool Template { get; set; }

        /// <summary>
        /// Whether the current user completed it (user routes; false on management routes): a recurring quest in its current period.
        /// </summary>
        [JsonProperty("completed")]
        public bool Completed { get; set; }

        /// <summary>
        /// `once`, `daily`, `weekly` or `monthly` (extension). One of: `once`, `daily`, `weekly`, `monthly`.
        /// </summary>
        [JsonProperty("recurrence")]
        public string Recurrence { get; set; }

        /// <summary>
        /// How many tasks players complete it with (0: the game completes it through the management API) (extension).
        /// </summary>
        [JsonProperty("taskCount")]
        public double? TaskCount { get; set; }

        [JsonProperty("cooldownSeconds")]
        public double? CooldownSeconds { get; set; }

        [JsonProperty("maxCompletions")]
        public double? MaxCompletions { get; set; }

        [JsonProperty("availableFrom")]
        public string AvailableFrom { get; set; }

        [JsonProperty("availableUntil")]
        public string AvailableUntil { get; set; }

        [JsonProperty("prerequisites")]
        public List<string> Prerequisites { get; set; }

        [JsonProperty("streakBonus")]
        public QuestStreakBonusDto StreakBonus { get; set; }

        [JsonProperty("gates")]
        public QuestGatesDto Gates { get; set; }

        [JsonProperty("createdAt")]
        public string CreatedAt { get; set; }
    }

    public sealed class QuestEventDto
    {
        [JsonProperty("id")]
        public string Id { get; set; }

        [JsonProperty("communityId")]
        public string CommunityId { get; set; }

        [JsonProperty("slug")]
        public string Slug { get; set; }

        [JsonProperty("name")]
        public string Name { get; set; }

        [JsonProperty("description")]
        public string Description { get; set; }

        [JsonProperty("imageUrl")]
        public string ImageUrl { get; set; }

        [JsonProperty("features")]
        public List<string> Features { get; set; }

        /// <summary>
        /// Derived from the explicit state and the times on the server clock (see the decisions). One of: `draft`, `upcoming`, `registration_open`, `active`, `ended`, `completed`, `cancelled`.
        /// </summary>
        [JsonProperty("status")]
        public string Status { get; set; }

        /// <summary>
        /// Whether a user may register now (the registration window can overlap the active period).
        /// </summary>
        [JsonProperty("registrationOpen")]
        public bool RegistrationOpen { get; set; }

        [JsonProperty("registrationStartsAt")]
        public string RegistrationStartsAt { get; set; }

        [JsonProperty("registrationEndsAt")]
        public string RegistrationEndsAt { get; set; }

        [JsonProperty("startsAt")]
        public string StartsAt { get; set; }

        [JsonProperty("endsAt")]
        public string EndsAt { get; set; }

        [JsonProperty("capacity")]
        public double? Capacity { get; set; }

        /// <summary>
        /// REGISTERED participants now.
        /// </summary>
        [JsonProperty("registeredCount")]
        public double RegisteredCount { get; set; }

        /// <summary>
        /// The scoped resource type whose earned amount is the score; null: the event has no score.
        /// </summary>
        [JsonProperty("scoreResourceTypeId")]
        public string ScoreResourceTypeId { get; set; }

        [JsonProperty("completionRule")]
        public CompletionRuleDto CompletionRule { get; set; }

        [JsonProperty("completedAt")]
        public string CompletedAt { get; set; }

        /// <summary>
        /// The current user's ParticipantStatus (1 REGISTERED, 2 UNREGISTERED, 3 DROPPED, 4 CANCELLED); null: never registered or no session. One of: `1`, `2`, `3`, `4`.
        /// </summary>
        [JsonProperty("participantStatus")]
        public double? ParticipantStatus { get; set; }
    }

    public sealed class QuestEventFilterDto
    {
        /// <summary>
        /// The community (id or slug).
        /// </summary>
        [JsonProperty("containerId")]
        public string ContainerId { get; set; }

        /// <summary>
        /// Events having ALL these features (comma-separated).
        /// </summary>
        [JsonProperty("features")]
        public string Features { get; set; }

        /// <summary>
        /// Events in ANY of these statuses.
        /// </summary>
        [JsonProperty("status")]
        public List<string> Status { get; set; }
    }

    public sealed class QuestGatesDto
    {
        /// <summary>
        /// The account is at least this many days old.
        /// </summary>
        [JsonProperty("minAccountAgeDays")]
        public double? MinAccountAgeDays { get; set; }

        /// <summary>
        /// The player has an EVM wallet (a SIWE login).
        /// </summary>
        [JsonProperty("requireWallet")]
        public bool? RequireWallet { get; set; }

        /// <summary>
        /// The player has linked socials of each of these account types.
        /// </summary>
        [JsonProperty("requireSocials")]
        public List<string> RequireSocials { get; set; }
    }

    public sealed class QuestHistoryItemDto
    {
        [JsonProperty("completionId")]
        public string CompletionId { get; set; }

        [JsonProperty("questId")]
        public string QuestId { get; set; }

        [JsonProperty("questName")]
        public string QuestName { get; set; }

        [JsonProperty("communityId")]
        public string CommunityId { get; set; }

        [JsonProperty("questEventId")]
        public string QuestEventId { get; set; }

        [JsonProperty("periodKey")]
        public string PeriodKey { get; set; }

        [JsonProperty("completedAt")]
        public string CompletedAt { get; set; }
    }

    public sealed class QuestPeriodDto
    {
        /// <summary>
        /// `once`, `2026-12-02` (daily), `2026-W49` (ISO week), `2026-12` (monthly), in the community's time zone.
        /// </summary>
        [JsonProperty("key")]
        public string Key { get; set; }

        [JsonProperty("startsAt")]
        public string StartsAt { get; set; }

        [JsonProperty("endsAt")]
        public string EndsAt { get; set; }
    }

    public sealed class QuestProgressDto
    {
        [JsonProperty("questId")]
        public string QuestId { get; set; }

        [JsonProperty("name")]
        public string Name { get; set; }

        /// <summary>
        /// One of: `once`, `daily`, `weekly`, `monthly`.
        /// </summary>
        [JsonProperty("recurrence")]
        public string Recurrence { get; set; }

        [JsonProperty("period")]
        public QuestPeriodDto Period { get; set; }

        [JsonProperty("rewards")]
        public List<QuestRewardDto> Rewards { get; set; }

        [JsonProperty("availability")]
        public QuestAvailabilityDto Availability { get; set; }

        /// <summary>
        /// Whether the player completed the quest in this period.
        /// </summary>
        [JsonProperty("completed")]
        public bool Completed { get; set; }

        [JsonProperty("completion")]
        public PeriodCompletionDto Completion { get; set; }

        /// <summary>
        /// Completions over every period.
        /// </summary>
        [JsonProperty("completions")]
        public double Completions { get; set; }

        [JsonProperty("streak")]
        public QuestStreakDto Streak { get; set; }

        [JsonProperty("tasks")]
        public List<QuestTaskProgressDto> Tasks { get; set; }
    }

    public sealed class QuestRewardDto
    {
        /// <summary>
        /// One of: `resource`, `item`.
        /// </summary>
        [JsonProperty("type")]
        public string Type { get; set; }

        /// <summary>
        /// `resource` rewards: the resource type credited (global XP, or in an event's quest a scoped type bound to that event).
        /// </summary>
        [JsonProperty("resourceTypeId")]
        public string ResourceTypeId { get; set; }

        [JsonProperty("amount")]
        public double? Amount { get; set; }

        /// <summary>
        /// `item` rewards: the inventory item granted.
        /// </summary>
        [JsonProperty("itemId")]
        public string ItemId { get; set; }

        [JsonProperty("quantity")]
        public double? Quantity { get; set; }
    }

    public sealed class QuestStreakBonusDto
    {
        [JsonProperty("every")]
        public double Every { get; set; }

        [JsonProperty("rewards")]
        public List<QuestRewardDto> Rewards { get; set; }
    }

    public sealed class QuestStreakDto
    {
        /// <summary>
        /// Consecutive periods completed up to this one (0 when the last one was missed).
        /// </summary>
        [JsonProperty("current")]
        public double Current { get; set; }

        [JsonProperty("best")]
        public double Best { get; set; }

        /// <summary>
        /// A bonus comes at every this many consecutive periods (null: none).
        /// </summary>
        [JsonProperty("bonusEvery")]
        public double? BonusEvery { get; set; }
    }

    public sealed class QuestTagDto
    {
        [JsonProperty("tag")]
        public string Tag { get; set; }

        /// <summary>
        /// Quests with this tag (after `excludeTemplateTags` / `userAvailableQuests`).
        /// </summary>
        [JsonProperty("questCount")]
        public double QuestCount { get; set; }

        /// <summary>
        /// Of all active quests with this tag, how many the user completed.
        /// </summary>
        [JsonProperty("completedCount")]
        public double CompletedCount { get; set; }

        /// <summary>
        /// Of all active quests with this tag, how many the user has not completed.
        /// </summary>
        [JsonProperty("availableCount")]
        public double AvailableCount { get; set; }

        /// <summary>
        /// With `includeRewards=true`: the rewards of the counted quests, summed per resource type and item.
        /// </summary>
        [JsonProperty("rewards")]
        public List<QuestRewardDto> Rewards { get; set; }
    }

    public sealed class QuestTaskProgressDto
    {
        [JsonProperty("id")]
        public string Id { get; set; }

        /// <summary>
        /// One of: `answer`, `submission`, `visit`, `social`, `onchain`, `partner`, `game_event`, `referrals`, `resource`, `quest`.
        /// </summary>
        [JsonProperty("kind")]
        public string Kind { get; set; }

        [JsonProperty("title")]
        public string Title { get; set; }

        [JsonProperty("description")]
        public string Description { get; set; }

        /// <summary>
        /// `todo`: not done yet; `done`; `pending`: a submission waits for review; `rejected`: it was
        /// refused (`reviewReason`; submit again); `failed`: wrong answers so far (`attemptsLeft`,
        /// `retryAt`); `closed`: no attempt left in this period. One of: `todo`, `done`, `pending`, `rejected`, `failed`, `closed`.
        /// </summary>
        [JsonProperty("state")]
        public string State { get; set; }

        /// <summary>
        /// What is missing, when it is not done and the service knows why ("Link a discord account first").
        /// </summary>
        [JsonProperty("missing")]
        public string Missing { get; set; }

        /// <summary>
        /// Counted tasks (events, referrals, a resource): how far the player is.
        /// </summary>
        [JsonProperty("progress")]
        public TaskCountDto Progress { get; set; }

        /// <summary>
        /// Answer tasks: wrong answers left in this period (null: no limit or not an answer task).
        /// </summary>
        [JsonProperty("attemptsLeft")]
        public double? AttemptsLeft { get; set; }

        /// <summary>
        /// When the player may answer again.
        /// </summary>
        [JsonProperty("retryAt")]
        public string RetryAt { get; set; }

        /// <summary>
        /// A rejected submission: the operator’s reason.
        /// </summary>
        [JsonProperty("reviewReason")]
        public string ReviewReason { get; set; }

        /// <summary>
        /// Visit tasks: the link to open (the service records the visit and redirects to the page).
        /// </summary>
        [JsonProperty("visitUrl")]
        public string VisitUrl { get; set; }

        [JsonProperty("submission")]
        public SubmissionRulesDto Submission { get; set; }

        /// <summary>
        /// Social tasks: the account type to link.
        /// </summary>
        [JsonProperty("accountType")]
        public string AccountType { get; set; }
    }

    public sealed class RankingDto
    {
        [JsonProperty("resourceTypeId")]
        public string ResourceTypeId { get; set; }

        [JsonProperty("slug")]
        public string Slug { get; set; }

        [JsonProperty("userId")]
        public string UserId { get; set; }

        /// <summary>
        /// null while the user has earned none of this resource (unranked).
        /// </summary>
        [JsonProperty("rank")]
        public double? Rank { get; set; }

        /// <summary>
        /// Earned total (what is ranked).
        /// </summary>
        [JsonProperty("amount")]
        public double Amount { get; set; }

        /// <summary>
        /// Spendable balance (the earned total minus what was spent).
        /// </summary>
        [JsonProperty("balance")]
        public double Balance { get; set; }

        /// <summary>
        /// Number of ranked users (earned &gt; 0).
        /// </summary>
        [JsonProperty("totalRanked")]
        public double TotalRanked { get; set; }

        /// <summary>
        /// The users just above, in leaderboard order (nearest last).
        /// </summary>
        [JsonProperty("above")]
        public List<LeaderboardEntryDto> Above { get; set; }

        /// <summary>
        /// The users just below, in leaderboard order (nearest first).
        /// </summary>
        [JsonProperty("below")]
        public List<LeaderboardEntryDto> Below { get; set; }
    }

    public sealed class ReferralDto
    {
        /// <summary>
        /// Current handle of the referred user.
        /// </summary>
        [JsonProperty("handle")]
        public string Handle { get; set; }

        [JsonProperty("userId")]
        public string UserId { get; set; }

        /// <summary>
        /// The community they were referred into; null for a sign-up referral.
        /// </summary>
        [JsonProperty("communityId")]
        public string CommunityId { get; set; }

        [JsonProperty("referredAt")]
        public string ReferredAt { get; set; }
    }

    public sealed class RefreshResultDto
    {
        /// <summary>
        /// A new session token, valid 10 minutes.
        /// </summary>
        [JsonProperty("sessionToken")]
        public string SessionToken { get; set; }
    }

    public sealed class RefreshSessionDto
    {
        /// <summary>
        /// The refresh token of an earlier login.
        /// </summary>
        [JsonProperty("refreshToken")]
        public string RefreshToken { get; set; }
    }

    public sealed class RegisterPasswordDto
    {
        /// <summary>
        /// 3–32 characters: letters, digits, `_`, `.`, `-`, starting with a letter or digit. Unique per tenant, case-insensitively.
        /// </summary>
        [JsonProperty("username")]
        public string Username { get; set; }

        /// <summary>
        /// 8–128 characters, any characters.
        /// </summary>
        [JsonProperty("password")]
        public string Password { get; set; }
    }

    public sealed class RequirementDataDto
    {
        [JsonProperty("email")]
        public string Email { get; set; }

        [JsonProperty("walletAddress")]
        public string WalletAddress { get; set; }

        [JsonProperty("address")]
        public AddressDto Address { get; set; }
    }

    public sealed class RequirementDataItemDto
    {
        [JsonProperty("requirementId")]
        public string RequirementId { get; set; }

        /// <summary>
        /// Keep this data for the next purchases (offered back by `enrichRequirements`). Default false.
        /// </summary>
        [JsonProperty("shouldSave")]
        public bool? ShouldSave { get; set; }

        /// <summary>
        /// Must match the requirement's JSON schema (at most 4 KB).
        /// </summary>
        [JsonProperty("data")]
        public JObject Data { get; set; }
    }

    public sealed class ResourceTypeDto
    {
        [JsonProperty("id")]
        public string Id { get; set; }

        [JsonProperty("communityId")]
        public string CommunityId { get; set; }

        /// <summary>
        /// Unique in the community; the `{slug}` of the ranking and leaderboard routes.
        /// </summary>
        [JsonProperty("slug")]
        public string Slug { get; set; }

        [JsonProperty("name")]
        public string Name { get; set; }

        [JsonProperty("description")]
        public string Description { get; set; }

        /// <summary>
        /// `global`: the community currency (XP) ranked on the leaderboard. `scoped`: belongs to one quest event. One of: `global`, `scoped`.
        /// </summary>
        [JsonProperty("kind")]
        public string Kind { get; set; }

        [JsonProperty("imageUrl")]
        public string ImageUrl { get; set; }

        /// <summary>
        /// The quest event of a scoped resource; null for global ones.
        /// </summary>
        [JsonProperty("questEventId")]
        public string QuestEventId { get; set; }

        [JsonProperty("createdAt")]
        public string CreatedAt { get; set; }
    }

    public sealed class RewardAllocationDto
    {
        [JsonProperty("id")]
        public string Id { get; set; }

        [JsonProperty("eventId")]
        public string EventId { get; set; }

        [JsonProperty("reward")]
        public RewardDto Reward { get; set; }

        /// <summary>
        /// Tickets allocated at completion.
        /// </summary>
        [JsonProperty("tickets")]
        public double Tickets { get; set; }

        [JsonProperty("ticketsSpent")]
        public double TicketsSpent { get; set; }

        [JsonProperty("ticketsRemaining")]
        public double TicketsRemaining { get; set; }

        /// <summary>
        /// The participant's rank and score at completion.
        /// </summary>
        [JsonProperty("rank")]
        public double? Rank { get; set; }

        [JsonProperty("score")]
        public double Score { get; set; }

        /// <summary>
        /// The data submitted with the last claim; null before any claim.
        /// </summary>
        [JsonProperty("requirementData")]
        public RequirementDataDto RequirementData { get; set; }

        [JsonProperty("createdAt")]
        public string CreatedAt { get; set; }
    }

    public sealed class RewardClaimDto
    {
        [JsonProperty("claimId")]
        public string ClaimId { get; set; }

        [JsonProperty("allocation")]
        public RewardAllocationDto Allocation { get; set; }

        [JsonProperty("ticketsSpent")]
        public double TicketsSpent { get; set; }

        /// <summary>
        /// `processed`: the resource was credited or the item granted; `pending_fulfilment`: a manual reward the operator delivers. One of: `processed`, `pending_fulfilment`.
        /// </summary>
        [JsonProperty("status")]
        public string Status { get; set; }
    }

    public sealed class RewardDto
    {
        [JsonProperty("id")]
        public string Id { get; set; }

        [JsonProperty("eventId")]
        public string EventId { get; set; }

        [JsonProperty("name")]
        public string Name { get; set; }

        [JsonProperty("description")]
        public string Description { get; set; }

        /// <summary>
        /// One of: `resource`, `item`, `manual`.
        /// </summary>
        [JsonProperty("kind")]
        public string Kind { get; set; }

        [JsonProperty("resourceTypeId")]
        public string ResourceTypeId { get; set; }

        [JsonProperty("itemId")]
        public string ItemId { get; set; }

        [JsonProperty("amount")]
        public double Amount { get; set; }

        [JsonProperty("tickets")]
        public double Tickets { get; set; }

        [JsonProperty("ticketCost")]
        public double TicketCost { get; set; }

        [JsonProperty("supply")]
        public double? Supply { get; set; }

        [JsonProperty("claimed")]
        public double Claimed { get; set; }

        [JsonProperty("rankFrom")]
        public double? RankFrom { get; set; }

        [JsonProperty("rankTo")]
        public double? RankTo { get; set; }

        [JsonProperty("requiresEmail")]
        public bool RequiresEmail { get; set; }

        [JsonProperty("requiresWalletAddress")]
        public bool RequiresWalletAddress { get; set; }

        /// <summary>
        /// The chain of the wallet address a claim must give: `evm`, `sui` or `any`. One of: `evm`, `sui`, `any`.
        /// </summary>
        [JsonProperty("walletChain")]
        public string WalletChain { get; set; }

        [JsonProperty("requiresAddress")]
        public bool RequiresAddress { get; set; }
    }

    public sealed class SeasonDto
    {
        [JsonProperty("id")]
        public string Id { get; set; }

        [JsonProperty("communityId")]
        public string CommunityId { get; set; }

        [JsonProperty("resourceTypeId")]
        public string ResourceTypeId { get; set; }

        [JsonProperty("resourceSlug")]
        public string ResourceSlug { get; set; }

        [JsonProperty("scheduleId")]
        public string ScheduleId { get; set; }

        /// <summary>
        /// 1, 2, 3... within its schedule.
        /// </summary>
        [JsonProperty("number")]
        public double Number { get; set; }

        [JsonProperty("name")]
        public string Name { get; set; }

        [JsonProperty("startsAt")]
        public string StartsAt { get; set; }

        /// <summary>
        /// Exclusive: what is earned from this instant on counts for the next season.
        /// </summary>
        [JsonProperty("endsAt")]
        public string EndsAt { get; set; }

        /// <summary>
        /// `closing`: ended, its standings being frozen and its rewards paid. One of: `upcoming`, `live`, `closing`, `closed`.
        /// </summary>
        [JsonProperty("status")]
        public string Status { get; set; }

        [JsonProperty("reasons")]
        public List<string> Reasons { get; set; }

        [JsonProperty("questIds")]
        public List<string> QuestIds { get; set; }

        [JsonProperty("rewards")]
        public List<SeasonRewardViewDto> Rewards { get; set; }

        /// <summary>
        /// Players in the final standings (null until they are frozen).
        /// </summary>
        [JsonProperty("ranked")]
        public double? Ranked { get; set; }

        [JsonProperty("closedAt")]
        public string ClosedAt { get; set; }
    }

    public sealed class SeasonRewardViewDto
    {
        [JsonProperty("fromRank")]
        public double? FromRank { get; set; }

        [JsonProperty("toRank")]
        public double? ToRank { get; set; }

        [JsonProperty("topPercent")]
        public double? TopPercent { get; set; }

        /// <summary>
        /// One of: `resource`, `item`, `prize`.
        /// </summary>
        [JsonProperty("type")]
        public string Type { get; set; }

        [JsonProperty("refId")]
        public string RefId { get; set; }

        [JsonProperty("amount")]
        public double Amount { get; set; }
    }

    public sealed class SessionResultDto
    {
        [JsonProperty("userId")]
        public string UserId { get; set; }

        /// <summary>
        /// Signed JWT, valid 10 minutes. Send it as `Authorization: Bearer &lt;sessionToken&gt;`.
        /// </summary>
        [JsonProperty("sessionToken")]
        public string SessionToken { get; set; }

        /// <summary>
        /// Opaque, valid 30 days. Exchange it for a new session token at `POST /v1/user/auth/refresh-session`.
        /// </summary>
        [JsonProperty("refreshToken")]
        public string RefreshToken { get; set; }
    }

    public sealed class SiweLoginDto
    {
        /// <summary>
        /// Handle of the user who referred this one. Used only when this login creates the user; an
        /// unknown handle is ignored, the user's own handle is refused (400 self_referral).
        /// </summary>
        [JsonProperty("referrerHandle")]
        public string ReferrerHandle { get; set; }

        /// <summary>
        /// The EIP-4361 message, exactly as signed.
        /// </summary>
        [JsonProperty("message")]
        public string Message { get; set; }

        /// <summary>
        /// The EIP-191 `personal_sign` signature of `message` (0x + 130 hex).
        /// </summary>
        [JsonProperty("signature")]
        public string Signature { get; set; }
    }

    public sealed class SiweNonceDto
    {
        /// <summary>
        /// A fresh random nonce (alphanumeric) to put in a SIWE message. Any unused nonce of at least 8 alphanumeric characters works too.
        /// </summary>
        [JsonProperty("nonce")]
        public string Nonce { get; set; }
    }

    public sealed class SlotAllocationDto
    {
        /// <summary>
        /// Slot id or key.
        /// </summary>
        [JsonProperty("slotId")]
        public string SlotId { get; set; }

        /// <summary>
        /// The item to put in the slot (an id); `null` or `""` empties the slot.
        /// </summary>
        [JsonProperty("itemId")]
        public string ItemId { get; set; }
    }

    public sealed class SlotDto
    {
        [JsonProperty("id")]
        public string Id { get; set; }

        /// <summary>
        /// Lowercase key, unique in the community; accepted wherever a slotId is.
        /// </summary>
        [JsonProperty("key")]
        public string Key { get; set; }

        [JsonProperty("name")]
        public string Name { get; set; }

        [JsonProperty("description")]
        public string Description { get; set; }

        /// <summary>
        /// Display and layering order, ascending.
        /// </summary>
        [JsonProperty("position")]
        public double Position { get; set; }
    }

    public sealed class SocialDto
    {
        [JsonProperty("id")]
        public string Id { get; set; }

        [JsonProperty("accountType")]
        public string AccountType { get; set; }

        [JsonProperty("subjectId")]
        public string SubjectId { get; set; }

        [JsonProperty("public")]
        public bool Public { get; set; }

        [JsonProperty("handle")]
        public string Handle { get; set; }

        [JsonProperty("server")]
        public string Server { get; set; }

        /// <summary>
        /// When the stored tokens expire (UTC).
        /// </summary>
        [JsonProperty("expiryDate")]
        public string ExpiryDate { get; set; }

        [JsonProperty("extraArgs")]
        public JObject ExtraArgs { get; set; }

        /// <summary>
        /// The `createdAt` object given when linking (not a timestamp of this service; see `linkedAt`).
        /// </summary>
        [JsonProperty("createdAt")]
        public JObject CreatedAt { get; set; }

        /// <summary>
        /// Whether a user token is stored (the token itself is never returned).
        /// </summary>
        [JsonProperty("hasUserToken")]
        public bool HasUserToken { get; set; }

        /// <summary>
        /// Whether a refresh token is stored (the token itself is never returned).
        /// </summary>
        [JsonProperty("hasRefreshToken")]
        public bool HasRefreshToken { get; set; }

        [JsonProperty("linkedAt")]
        public string LinkedAt { get; set; }

        [JsonProperty("updatedAt")]
        public string UpdatedAt { get; set; }
    }

    public sealed class StoreBalanceDto
    {
        [JsonProperty("communityId")]
        public string CommunityId { get; set; }

        /// <summary>
        /// Every resource type of the community (global first, then by slug), 0 when never credited.
        /// </summary>
        [JsonProperty("resources")]
        public List<BalanceItemDto> Resources { get; set; }
    }

    public sealed class StreamTicketDto
    {
        /// <summary>
        /// Put it in the stream URL as `?ticket=`; valid once, for `expiresAt`.
        /// </summary>
        [JsonProperty("ticket")]
        public string Ticket { get; set; }

        [JsonProperty("expiresAt")]
        public string ExpiresAt { get; set; }
    }

    public sealed class SubmissionRulesDto
    {
        /// <summary>
        /// One of: `text`, `url`.
        /// </summary>
        [JsonProperty("format")]
        public string Format { get; set; }

        [JsonProperty("maxLength")]
        public double MaxLength { get; set; }

        [JsonProperty("instructions")]
        public string Instructions { get; set; }
    }

    public sealed class SubmitTaskDto
    {
        /// <summary>
        /// Must hold a character that shows: not only white space or invisible format characters (U+200B, U+FEFF, ...).
        /// </summary>
        [JsonProperty("content")]
        public string Content { get; set; }
    }

    public sealed class TaskCountDto
    {
        [JsonProperty("current")]
        public double Current { get; set; }

        [JsonProperty("target")]
        public double Target { get; set; }
    }

    public sealed class TokenLoginDto
    {
        /// <summary>
        /// Handle of the user who referred this one. Used only when this login creates the user; an
        /// unknown handle is ignored, the user's own handle is refused (400 self_referral).
        /// </summary>
        [JsonProperty("referrerHandle")]
        public string ReferrerHandle { get; set; }

        /// <summary>
        /// The encrypted OAuth token: a compact JWE (`alg: dir`, `enc: A256GCM`) made with the tenant
        /// shared secret, holding `_nonce`, `subjectId`, `handle`, `idToken`, `accessToken`,
        /// `refreshToken`, `referrerHandle`, `iat`, `exp` (at most 300 s after `iat`). Usable once.
        /// </summary>
        [JsonProperty("token")]
        public string Token { get; set; }

        /// <summary>
        /// The provider access token; when given it replaces the token's `accessToken` claim (stored encrypted, never returned).
        /// </summary>
        [JsonProperty("accessToken")]
        public string AccessToken { get; set; }
    }

    public sealed class UpdateProfileDto
    {
        [JsonProperty("displayName")]
        public string DisplayName { get; set; }

        /// <summary>
        /// 3–32 characters: letters, digits, `_`, `.`, `-`, starting with a letter or digit. Unique per tenant, case-insensitively (409 otherwise).
        /// </summary>
        [JsonProperty("handle")]
        public string Handle { get; set; }

        [JsonProperty("biography")]
        public string Biography { get; set; }

        [JsonProperty("dateOfBirth")]
        public DateOfBirthDto DateOfBirth { get; set; }

        [JsonProperty("address")]
        public AddressDto Address { get; set; }
    }

    public sealed class UpdateSocialDto
    {
        /// <summary>
        /// The name shown for the account (e.g. `ada#1234`).
        /// </summary>
        [JsonProperty("handle")]
        public string Handle { get; set; }

        /// <summary>
        /// A server, guild or region the account belongs to.
        /// </summary>
        [JsonProperty("server")]
        public string Server { get; set; }

        /// <summary>
        /// When the stored tokens expire: ISO 8601 date-time with `Z` or an offset, or a date (midnight UTC).
        /// </summary>
        [JsonProperty("expiryDate")]
        public string ExpiryDate { get; set; }

        /// <summary>
        /// Provider-specific data: a JSON object, at most 4 KB and 5 levels deep.
        /// </summary>
        [JsonProperty("extraArgs")]
        public JObject ExtraArgs { get; set; }

        /// <summary>
        /// The provider's account-creation information: a JSON object, at most 4 KB and 5 levels deep.
        /// </summary>
        [JsonProperty("createdAt")]
        public JObject CreatedAt { get; set; }

        /// <summary>
        /// Access token for the provider. Stored encrypted; never returned.
        /// </summary>
        [JsonProperty("userToken")]
        public string UserToken { get; set; }

        /// <summary>
        /// Refresh token for the provider. Stored encrypted; never returned.
        /// </summary>
        [JsonProperty("refreshToken")]
        public string RefreshToken { get; set; }

        [JsonProperty("socialId")]
        public string SocialId { get; set; }

        [JsonProperty("public")]
        public bool? Public { get; set; }
    }

    public sealed class UserItemDto
    {
        [JsonProperty("id")]
        public string Id { get; set; }

        [JsonProperty("communityId")]
        public string CommunityId { get; set; }

        /// <summary>
        /// The slot the item fits.
        /// </summary>
        [JsonProperty("slotId")]
        public string SlotId { get; set; }

        [JsonProperty("slotKey")]
        public string SlotKey { get; set; }

        [JsonProperty("name")]
        public string Name { get; set; }

        [JsonProperty("description")]
        public string Description { get; set; }

        [JsonProperty("imageUrl")]
        public string ImageUrl { get; set; }

        [JsonProperty("rarity")]
        public string Rarity { get; set; }

        [JsonProperty("attributes")]
        public List<ItemAttributeDto> Attributes { get; set; }

        /// <summary>
        /// Units that can ever be granted; null means unlimited.
        /// </summary>
        [JsonProperty("supply")]
        public double? Supply { get; set; }

        /// <summary>
        /// Units granted so far.
        /// </summary>
        [JsonProperty("granted")]
        public double Granted { get; set; }

        /// <summary>
        /// Units left (`supply - granted`); null when unlimited.
        /// </summary>
        [JsonProperty("remaining")]
        public double? Remaining { get; set; }

        /// <summary>
        /// Units the user owns (0 when not owned).
        /// </summary>
        [JsonProperty("ownedQuantity")]
        public double OwnedQuantity { get; set; }

        /// <summary>
        /// Whether the item is in one of the user's avatar slots.
        /// </summary>
        [JsonProperty("allocated")]
        public bool Allocated { get; set; }
    }

    public sealed class UserPrizeDto
    {
        [JsonProperty("id")]
        public string Id { get; set; }

        [JsonProperty("communityId")]
        public string CommunityId { get; set; }

        [JsonProperty("name")]
        public string Name { get; set; }

        [JsonProperty("description")]
        public string Description { get; set; }

        [JsonProperty("imageUrl")]
        public string ImageUrl { get; set; }

        /// <summary>
        /// One of: `achievement`, `physical`, `digital`.
        /// </summary>
        [JsonProperty("kind")]
        public string Kind { get; set; }

        /// <summary>
        /// null: unlimited.
        /// </summary>
        [JsonProperty("totalSupply")]
        public double? TotalSupply { get; set; }

        /// <summary>
        /// Units awarded so far. totalSupply = remainingSupply + awarded.
        /// </summary>
        [JsonProperty("awarded")]
        public double Awarded { get; set; }

        [JsonProperty("remainingSupply")]
        public double? RemainingSupply { get; set; }

        [JsonProperty("requirementIds")]
        public List<string> RequirementIds { get; set; }

        [JsonProperty("createdAt")]
        public string CreatedAt { get; set; }

        /// <summary>
        /// Units the current user owns (0: not owned).
        /// </summary>
        [JsonProperty("ownedQuantity")]
        public double OwnedQuantity { get; set; }
    }

    public sealed class UserRequirementDto
    {
        [JsonProperty("id")]
        public string Id { get; set; }

        [JsonProperty("key")]
        public string Key { get; set; }

        [JsonProperty("name")]
        public string Name { get; set; }

        [JsonProperty("description")]
        public string Description { get; set; }

        /// <summary>
        /// One of: `data`, `owns_item`, `min_resource`.
        /// </summary>
        [JsonProperty("kind")]
        public string Kind { get; set; }

        /// <summary>
        /// The JSON schema the data must match (`data` requirements), else null.
        /// </summary>
        [JsonProperty("schema")]
        public JObject Schema { get; set; }

        [JsonProperty("personalData")]
        public bool PersonalData { get; set; }

        [JsonProperty("itemId")]
        public string ItemId { get; set; }

        [JsonProperty("resourceTypeId")]
        public string ResourceTypeId { get; set; }

        [JsonProperty("minAmount")]
        public double? MinAmount { get; set; }

        [JsonProperty("createdAt")]
        public string CreatedAt { get; set; }

        /// <summary>
        /// The data the user saved (`shouldSave`) for this requirement, or null.
        /// </summary>
        [JsonProperty("savedData")]
        public JObject SavedData { get; set; }
    }

    public sealed class UserSlotDto
    {
        [JsonProperty("id")]
        public string Id { get; set; }

        /// <summary>
        /// Lowercase key, unique in the community; accepted wherever a slotId is.
        /// </summary>
        [JsonProperty("key")]
        public string Key { get; set; }

        [JsonProperty("name")]
        public string Name { get; set; }

        [JsonProperty("description")]
        public string Description { get; set; }

        /// <summary>
        /// Display and layering order, ascending.
        /// </summary>
        [JsonProperty("position")]
        public double Position { get; set; }

        /// <summary>
        /// The allocated item, or null when the slot is empty.
        /// </summary>
        [JsonProperty("item")]
        public ItemDto Item { get; set; }
    }

    public sealed class UserSlotsDto
    {
        [JsonProperty("communityId")]
        public string CommunityId { get; set; }

        [JsonProperty("userId")]
        public string UserId { get; set; }

        [JsonProperty("slots")]
        public List<UserSlotDto> Slots { get; set; }
    }

    public sealed class WalletDto
    {
        /// <summary>
        /// The address: a Sui zkLogin address (`0x` + 64 hex) or a checksummed EVM address.
        /// </summary>
        [JsonProperty("address")]
        public string Address { get; set; }

        /// <summary>
        /// `sui` for zkLogin wallets, `evm:&lt;chainId&gt;` for SIWE wallets.
        /// </summary>
        [JsonProperty("chain")]
        public string Chain { get; set; }

        /// <summary>
        /// The login the wallet is linked to: `providerA` or `providerD` (zkLogin) or `siwe`.
        /// </summary>
        [JsonProperty("provider")]
        public string Provider { get; set; }

        [JsonProperty("createdAt")]
        public string CreatedAt { get; set; }
    }

}
