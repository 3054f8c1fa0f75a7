import { RequirementErrors } from '../requirements/requirements.errors.js';
import { Body, Controller, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth, TenantId } from '../common/auth/auth.decorators.js';
import { ApiErrors } from '../common/errors/api-errors.decorator.js';
import { INPUT_ERRORS, API_KEY_ERRORS } from '../common/errors/error-catalog.js';
import { Paginated, PageQueryDto, pageRequest, type Page } from '../common/pagination/pagination.js';
import { CommunityErrors } from '../communities/communities.errors.js';
import { AdminListingsQueryDto, CreateListingDto, ListingDto, UpdateListingDto } from './dto/listing.dto.js';
import { AdminPurchaseDto, AdminPurchasesQueryDto } from './dto/purchase.dto.js';
import { CreateRequirementDto, RequirementDto } from '../requirements/dto/requirement.dto.js';
import { RequirementsService } from '../requirements/requirements.service.js';
import { StoreErrors } from './store.errors.js';
import { StoreListingsService } from './store-listings.service.js';
import { StorePurchaseHistoryService } from './store-purchase-history.service.js';

const adminErrors = [...INPUT_ERRORS, ...API_KEY_ERRORS];

@ApiTags('Management')
@Controller('admin/store')
export class StoreAdminController {
  constructor(
    private readonly listings: StoreListingsService,
    private readonly history: StorePurchaseHistoryService,
    private readonly requirements: RequirementsService,
  ) {}

  @Post('requirements')
  @ApiKeyAuth()
  @ApiOperation({
    summary: 'Create a requirement',
    description: "`data` (a JSON schema the buyer's data must match), `owns_item` or `min_resource`. Used by listings and prizes.",
  })
  @ApiCreatedResponse({ type: RequirementDto })
  @ApiErrors(...adminErrors, RequirementErrors.invalid_requirement, RequirementErrors.requirement_key_taken)
  createStoreRequirement(@TenantId() tenantId: string, @Body() dto: CreateRequirementDto): Promise<RequirementDto> {
    return this.requirements.create(tenantId, dto);
  }

  @Get('requirements')
  @ApiKeyAuth()
  @ApiOperation({ summary: 'List the requirements of the tenant', description: 'Oldest first. Paginated.' })
  @ApiOkResponse({ type: Paginated(RequirementDto) })
  @ApiErrors(...adminErrors)
  listStoreRequirements(@TenantId() tenantId: string, @Query() q: PageQueryDto): Promise<Page<RequirementDto>> {
    return this.requirements.list(tenantId, pageRequest(q));
  }

  @Get('requirements/:requirementId')
  @ApiKeyAuth()
  @ApiOperation({ summary: 'A requirement of the tenant' })
  @ApiOkResponse({ type: RequirementDto })
  @ApiErrors(...adminErrors, RequirementErrors.requirement_not_found)
  getStoreRequirement(@TenantId() tenantId: string, @Param('requirementId') id: string): Promise<RequirementDto> {
    return this.requirements.get(tenantId, id);
  }

  @Post('listings')
  @ApiKeyAuth()
  @ApiOperation({
    summary: 'Create a listing',
    description:
      'What it grants (an item or resource type of the community, or a prize), the price, supply, per-user limit, window and requirements.',
  })
  @ApiCreatedResponse({ type: ListingDto })
  @ApiErrors(...adminErrors, StoreErrors.invalid_listing, CommunityErrors.community_not_found)
  createStoreListing(@TenantId() tenantId: string, @Body() dto: CreateListingDto): Promise<ListingDto> {
    return this.listings.createListing(tenantId, dto);
  }

  @Get('listings')
  @ApiKeyAuth()
  @ApiOperation({
    summary: 'List the listings of the tenant',
    description: 'Every listing (inactive and ended ones included), oldest first, optionally of one community. Paginated.',
  })
  @ApiOkResponse({ type: Paginated(ListingDto) })
  @ApiErrors(...adminErrors, CommunityErrors.community_not_found)
  listAdminStoreListings(@TenantId() tenantId: string, @Query() q: AdminListingsQueryDto): Promise<Page<ListingDto>> {
    return this.listings.adminListings(tenantId, q.containerId, pageRequest(q));
  }

  @Get('listings/:listingId')
  @ApiKeyAuth()
  @ApiOperation({ summary: 'A listing of the tenant' })
  @ApiOkResponse({ type: ListingDto })
  @ApiErrors(...adminErrors, StoreErrors.listing_not_found)
  getAdminStoreListing(@TenantId() tenantId: string, @Param('listingId') listingId: string): Promise<ListingDto> {
    return this.listings.adminListing(tenantId, listingId);
  }

  @Patch('listings/:listingId')
  @ApiKeyAuth()
  @ApiOperation({
    summary: 'Update a listing',
    description: 'Everything but the community and what it grants. The supply cannot go below the number sold.',
  })
  @ApiOkResponse({ type: ListingDto })
  @ApiErrors(...adminErrors, StoreErrors.listing_not_found, StoreErrors.invalid_listing)
  updateStoreListing(
    @TenantId() tenantId: string,
    @Param('listingId') listingId: string,
    @Body() dto: UpdateListingDto,
  ): Promise<ListingDto> {
    return this.listings.updateListing(tenantId, listingId, dto);
  }

  @Get('purchases')
  @ApiKeyAuth()
  @ApiOperation({
    summary: 'Purchases',
    description:
      'Of the tenant, optionally of one listing and/or user, newest first, with the requirement data the buyers gave (decrypted) for fulfilment. Paginated.',
  })
  @ApiOkResponse({ type: Paginated(AdminPurchaseDto) })
  @ApiErrors(...adminErrors)
  listAdminStorePurchases(@TenantId() tenantId: string, @Query() q: AdminPurchasesQueryDto): Promise<Page<AdminPurchaseDto>> {
    return this.history.adminPurchases(tenantId, { listingId: q.listingId, userId: q.userId }, pageRequest(q));
  }
}
