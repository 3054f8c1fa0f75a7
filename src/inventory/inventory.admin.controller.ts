import { Body, Controller, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth, TenantId } from '../common/auth/auth.decorators.js';
import { ApiErrors } from '../common/errors/api-errors.decorator.js';
import { INPUT_ERRORS, API_KEY_ERRORS } from '../common/errors/error-catalog.js';
import { CommunityErrors } from '../communities/communities.errors.js';
import { UserErrors } from '../users/users.errors.js';
import { PageQueryDto, Paginated, pageRequest, type Page } from '../common/pagination/pagination.js';
import { AdminUserIdParamDto } from '../users/dto/admin-user.dto.js';
import { AdminHoldingDto, CreateItemDto, GrantItemDto, ItemDto, ItemGrantResultDto, UpdateItemDto } from './dto/item.dto.js';
import { AdminItemsQueryDto, AdminSlotsQueryDto, CreateSlotDto, SlotDto, UpdateSlotDto } from './dto/slot.dto.js';
import { InventoryErrors } from './inventory.errors.js';
import { InventoryService } from './inventory.service.js';

const adminErrors = [...INPUT_ERRORS, ...API_KEY_ERRORS];

@ApiTags('Management')
@Controller('admin/inventory')
export class InventoryAdminController {
  constructor(private readonly inventory: InventoryService) {}

  @Get('slots')
  @ApiKeyAuth()
  @ApiOperation({
    summary: "A community's inventory slots (extension)",
    description: 'Every slot of the community (`communityId`: id or slug), by position and key. A community has a few.',
  })
  @ApiOkResponse({ type: [SlotDto] })
  @ApiErrors(...adminErrors, CommunityErrors.community_not_found)
  listAdminInventorySlots(@TenantId() tenantId: string, @Query() q: AdminSlotsQueryDto): Promise<SlotDto[]> {
    return this.inventory.adminSlots(tenantId, q.communityId);
  }

  @Get('items')
  @ApiKeyAuth()
  @ApiOperation({
    summary: "A community's inventory items (extension)",
    description:
      'The items of the community (`communityId`: id or slug), optionally of one slot (`slotId`: id or key), with their supply and units granted, by slot and name. Paginated.',
  })
  @ApiOkResponse({ type: Paginated(ItemDto) })
  @ApiErrors(...adminErrors, CommunityErrors.community_not_found, InventoryErrors.slot_not_found)
  listAdminInventoryItems(@TenantId() tenantId: string, @Query() q: AdminItemsQueryDto): Promise<Page<ItemDto>> {
    return this.inventory.adminItems(tenantId, q.communityId, q.slotId, pageRequest(q));
  }

  @Post('slots')
  @ApiKeyAuth()
  @ApiOperation({
    summary: 'Create an inventory slot',
    description: "In a community of the API key's tenant (`communityId`: id or slug). The key is fixed once created.",
  })
  @ApiCreatedResponse({ type: SlotDto })
  @ApiErrors(...adminErrors, InventoryErrors.invalid_slot_key, CommunityErrors.community_not_found, InventoryErrors.slot_key_taken)
  createInventorySlot(@TenantId() tenantId: string, @Body() dto: CreateSlotDto): Promise<SlotDto> {
    return this.inventory.createSlot(tenantId, dto);
  }

  @Patch('slots/:slotId')
  @ApiKeyAuth()
  @ApiOperation({ summary: 'Update an inventory slot', description: 'Name, description and position.' })
  @ApiOkResponse({ type: SlotDto })
  @ApiErrors(...adminErrors, InventoryErrors.slot_not_found)
  updateInventorySlot(@TenantId() tenantId: string, @Param('slotId') slotId: string, @Body() dto: UpdateSlotDto): Promise<SlotDto> {
    return this.inventory.updateSlot(tenantId, slotId, dto);
  }

  @Post('items')
  @ApiKeyAuth()
  @ApiOperation({
    summary: 'Create an inventory item',
    description:
      'An item fitting one slot (`slotId`: id or key) of the community, with an optional supply (units that can ever be granted).',
  })
  @ApiCreatedResponse({ type: ItemDto })
  @ApiErrors(...adminErrors, CommunityErrors.community_not_found, InventoryErrors.slot_not_found)
  createInventoryItem(@TenantId() tenantId: string, @Body() dto: CreateItemDto): Promise<ItemDto> {
    return this.inventory.createItem(tenantId, dto);
  }

  @Patch('items/:itemId')
  @ApiKeyAuth()
  @ApiOperation({
    summary: 'Update an inventory item',
    description: 'Everything but the community and slot. `supply` cannot go below the units granted; null makes it unlimited.',
  })
  @ApiOkResponse({ type: ItemDto })
  @ApiErrors(...adminErrors, InventoryErrors.item_not_found, InventoryErrors.supply_below_granted)
  updateInventoryItem(@TenantId() tenantId: string, @Param('itemId') itemId: string, @Body() dto: UpdateItemDto): Promise<ItemDto> {
    return this.inventory.updateItem(tenantId, itemId, dto);
  }

  @Post('grants')
  @ApiKeyAuth()
  @ApiOperation({
    summary: 'Grant an item to a user',
    description:
      "Adds `quantity` (default 1) units to the user's inventory, within the item supply (409 `supply_exhausted` otherwise), and notifies the user. Idempotent by `idempotencyKey`.",
  })
  @ApiCreatedResponse({ type: ItemGrantResultDto })
  @ApiErrors(
    ...adminErrors,
    UserErrors.user_not_found,
    InventoryErrors.item_not_found,
    InventoryErrors.supply_exhausted,
    InventoryErrors.grant_idempotency_key_reused,
  )
  grantInventoryItem(@TenantId() tenantId: string, @Body() dto: GrantItemDto): Promise<ItemGrantResultDto> {
    return this.inventory.adminGrant(tenantId, dto);
  }
}

@ApiTags('Management')
@Controller('admin/users')
export class InventoryUsersAdminController {
  constructor(private readonly inventory: InventoryService) {}

  @Get(':userId/inventory')
  @ApiKeyAuth()
  @ApiOperation({
    summary: "A player's inventory (extension)",
    description:
      'What the player holds in every community of the tenant (quantity above 0), by community, slot and item name: whether each item is on the avatar and the avatar mint status. Paginated.',
  })
  @ApiOkResponse({ type: Paginated(AdminHoldingDto) })
  @ApiErrors(...adminErrors, UserErrors.user_not_found)
  listAdminUserInventory(
    @TenantId() tenantId: string,
    @Param() p: AdminUserIdParamDto,
    @Query() q: PageQueryDto,
  ): Promise<Page<AdminHoldingDto>> {
    return this.inventory.adminHoldings(tenantId, p.userId, pageRequest(q));
  }
}
