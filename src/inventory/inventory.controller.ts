import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser, Public, TenantId } from '../common/auth/auth.decorators.js';
import type { AuthUser } from '../common/auth/request-context.js';
import { ApiErrors } from '../common/errors/api-errors.decorator.js';
import { INPUT_ERRORS, SESSION_ERRORS } from '../common/errors/error-catalog.js';
import { Paginated, pageRequest, type Page } from '../common/pagination/pagination.js';
import { CommunityErrors } from '../communities/communities.errors.js';
import { TenantErrors } from '../tenants/tenants.errors.js';
import { UserErrors } from '../users/users.errors.js';
import { AllocateSlotsDto, AvatarDto, InventoryDto, MintAvatarDto, NftMetadataDto } from './dto/inventory.dto.js';
import { ItemDto, OnlyOwnedQueryDto, UserItemDto, UserItemsQueryDto, UserQueryDto } from './dto/item.dto.js';
import { UserSlotsDto } from './dto/slot.dto.js';
import { InventoryErrors } from './inventory.errors.js';
import { InventoryService } from './inventory.service.js';
import { AvatarMintService } from './minting/avatar-mint.service.js';

const publicErrors = [...INPUT_ERRORS, TenantErrors.tenant_required, TenantErrors.unknown_tenant, CommunityErrors.community_not_found];
const userErrors = [...INPUT_ERRORS, ...SESSION_ERRORS, CommunityErrors.community_not_found];

@ApiTags('Inventory')
@ApiParam({ name: 'ckey', description: 'Community id or slug.', example: 'pixel-pirates' })
@Controller('community/:ckey/inventory')
export class InventoryController {
  constructor(
    private readonly inventory: InventoryService,
    private readonly mints: AvatarMintService,
  ) {}

  @Get()
  @Authenticated()
  @ApiOperation({
    summary: 'The inventory of a community',
    description:
      "Its slots (in order), how many items it defines, and the current user's summary (items owned, units, allocated slots, avatar version).",
  })
  @ApiOkResponse({ type: InventoryDto })
  @ApiErrors(...userErrors)
  getInventory(@CurrentUser() user: AuthUser, @Param('ckey') ckey: string): Promise<InventoryDto> {
    return this.inventory.inventory(user.tenantId, ckey, user.id);
  }

  @Get('slots')
  @Public()
  @ApiOperation({
    summary: "Slots of a user's inventory",
    description:
      "Every slot of the community with the item `userId` has allocated to it (null when empty). Public: any user's slots can be read.",
  })
  @ApiOkResponse({ type: UserSlotsDto })
  @ApiErrors(...publicErrors, UserErrors.user_not_found)
  async listInventorySlots(@TenantId() tenantId: string, @Param('ckey') ckey: string, @Query() q: UserQueryDto): Promise<UserSlotsDto> {
    const { community, slots } = await this.inventory.userSlots(tenantId, ckey, q.userId);
    return { communityId: community.id, userId: q.userId, slots };
  }

  @Get('slots/:slotId/items')
  @Authenticated()
  @ApiOperation({
    summary: 'Items of a slot',
    description:
      'Paginated items fitting the slot (`slotId`: id or key), with what the current user owns of each. `onlyOwned` (required, `true` or `false`): `true` lists only the items the user owns.',
  })
  @ApiOkResponse({ type: Paginated(UserItemDto) })
  @ApiErrors(...userErrors, InventoryErrors.slot_not_found)
  listSlotItems(
    @CurrentUser() user: AuthUser,
    @Param('ckey') ckey: string,
    @Param('slotId') slotId: string,
    @Query() q: OnlyOwnedQueryDto,
  ): Promise<Page<UserItemDto>> {
    return this.inventory.userItems(user.tenantId, ckey, user.id, { slotRef: slotId, onlyOwned: q.onlyOwned }, pageRequest(q));
  }

  @Get('items/:itemId')
  @Public()
  @ApiOperation({ summary: 'One item', description: 'An item of the community with its supply.' })
  @ApiOkResponse({ type: ItemDto })
  @ApiErrors(...publicErrors, InventoryErrors.item_not_found)
  getInventoryItem(@TenantId() tenantId: string, @Param('ckey') ckey: string, @Param('itemId') itemId: string): Promise<ItemDto> {
    return this.inventory.item(tenantId, ckey, itemId);
  }

  @Get('items')
  @Public()
  @ApiOperation({
    summary: 'Inventory items of a user',
    description:
      'Paginated items of the community with what `userId` owns of each and whether it is allocated. `onlyOwned` (required, `true` or `false`): `true` lists only owned items. Public.',
  })
  @ApiOkResponse({ type: Paginated(UserItemDto) })
  @ApiErrors(...publicErrors, UserErrors.user_not_found)
  listInventoryItems(@TenantId() tenantId: string, @Param('ckey') ckey: string, @Query() q: UserItemsQueryDto): Promise<Page<UserItemDto>> {
    return this.inventory.userItems(tenantId, ckey, q.userId, { onlyOwned: q.onlyOwned }, pageRequest(q));
  }

  @Post('slots/allocate')
  @Authenticated()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Allocate items to slots',
    description:
      'Sets several slots of the current user\'s avatar at once, all or nothing: each item must exist, fit its slot and be owned by the user. `itemId` null or "" empties a slot; slots not listed keep their item. Any change raises the avatar version by one.',
  })
  @ApiCreatedResponse({ description: 'Allocated; no content.' })
  @ApiErrors(
    ...userErrors,
    InventoryErrors.item_not_owned,
    InventoryErrors.item_slot_mismatch,
    InventoryErrors.duplicate_slot,
    InventoryErrors.slot_not_found,
    InventoryErrors.item_not_found,
  )
  allocateInventorySlots(@CurrentUser() user: AuthUser, @Param('ckey') ckey: string, @Body() dto: AllocateSlotsDto): Promise<void> {
    return this.inventory.allocate(user.tenantId, ckey, user.id, dto);
  }

  @Get('avatar')
  @Public()
  @ApiOperation({
    summary: 'Avatar of a user',
    description:
      'Every slot with its item, the avatar version, and the mint status (`mint`: the latest mint; `mints`: the latest 20). Public.',
  })
  @ApiOkResponse({ type: AvatarDto })
  @ApiErrors(...publicErrors, UserErrors.user_not_found)
  getUserAvatar(@TenantId() tenantId: string, @Param('ckey') ckey: string, @Query() q: UserQueryDto): Promise<AvatarDto> {
    return this.mints.avatar(tenantId, ckey, q.userId);
  }

  @Post('avatar/mint')
  @Authenticated()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Mint the avatar as an NFT',
    description:
      "Queues a mint of the current user's avatar as an ERC-721 token on the named blockchain (configured by name), to the user's EVM wallet (from a SIWE login). Returns once queued; follow `mint` on the avatar. One token per avatar version and blockchain: minting the same version again is 409 unless the earlier mint failed (then it is retried).",
  })
  @ApiCreatedResponse({ description: 'Mint queued; no content.' })
  @ApiErrors(
    ...userErrors,
    InventoryErrors.unknown_blockchain,
    InventoryErrors.no_suitable_wallet,
    InventoryErrors.avatar_empty,
    InventoryErrors.avatar_already_minted,
  )
  mintUserAvatar(@CurrentUser() user: AuthUser, @Param('ckey') ckey: string, @Body() dto: MintAvatarDto): Promise<void> {
    return this.mints.requestMint(user.tenantId, ckey, user.id, dto.blockchain);
  }

  @Get('nft/:tenantId/:mintId')
  @Public()
  @ApiOperation({
    summary: 'NFT metadata of a minted avatar',
    description:
      'ERC-721 metadata JSON of one mint: the avatar as it was when the mint was requested. The token URI of the token points here. The tenant is in the path so wallets and marketplaces need no header.',
  })
  @ApiParam({ name: 'tenantId', description: 'Tenant id or slug (the guard reads it; no header needed).', example: 'demo' })
  @ApiOkResponse({ type: NftMetadataDto })
  @ApiErrors(...publicErrors, InventoryErrors.mint_not_found)
  getAvatarNftMetadata(
    @TenantId() tenantId: string,
    @Param('ckey') ckey: string,
    @Param('mintId') mintId: string,
  ): Promise<NftMetadataDto> {
    return this.mints.metadata(tenantId, ckey, mintId);
  }
}
