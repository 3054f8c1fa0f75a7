import { RequirementErrors } from '../requirements/requirements.errors.js';
import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../common/auth/auth.decorators.js';
import type { AuthUser } from '../common/auth/request-context.js';
import { ApiErrors } from '../common/errors/api-errors.decorator.js';
import { INPUT_ERRORS, SESSION_ERRORS } from '../common/errors/error-catalog.js';
import { Paginated, pageRequest, type Page } from '../common/pagination/pagination.js';
import { CommunityErrors } from '../communities/communities.errors.js';
import { ResourceErrors } from '../resources/resources.errors.js';
import { ContainerQueryDto, ListingDto, ListingsQueryDto, StoreBalanceDto } from './dto/listing.dto.js';
import { PurchaseBodyDto, PurchaseDto, PurchaseOptionsQueryDto, PurchaseResultDto, PurchasesQueryDto } from './dto/purchase.dto.js';
import { StoreErrors } from './store.errors.js';
import { StorePurchaseService } from './purchase/store-purchase.service.js';
import { StorePurchaseHistoryService } from './store-purchase-history.service.js';
import { StoreService } from './store.service.js';
import { Metrics } from '../observability/metrics.js';

const userErrors = [...INPUT_ERRORS, ...SESSION_ERRORS];

@ApiTags('Store')
@Controller('store')
export class StoreController {
  constructor(
    private readonly store: StoreService,
    private readonly purchases: StorePurchaseService,
    private readonly history: StorePurchaseHistoryService,
    private readonly metrics: Metrics,
  ) {}

  @Get('balance')
  @Authenticated()
  @ApiOperation({
    summary: 'Spendable resources',
    description:
      "The current user's spendable balance of every resource type of the community (`containerId`: id or slug), 0 when never credited.",
  })
  @ApiOkResponse({ type: StoreBalanceDto })
  @ApiErrors(...userErrors, CommunityErrors.community_not_found)
  getStoreBalance(@CurrentUser() user: AuthUser, @Query() q: ContainerQueryDto): Promise<StoreBalanceDto> {
    return this.store.balance(user.tenantId, user.id, q.containerId);
  }

  @Get('listings')
  @Authenticated()
  @ApiOperation({
    summary: 'Listings of a community store',
    description:
      "Active listings that have not ended (upcoming ones included), by position. Paginated. With `enrichRequirements=true` each listing also carries `requirements` (definitions with the user's saved data), `purchasedCount`, `canBuy` and `unavailableReasons`.",
  })
  @ApiOkResponse({ type: Paginated(ListingDto) })
  @ApiErrors(...userErrors, CommunityErrors.community_not_found)
  listStoreListings(@CurrentUser() user: AuthUser, @Query() q: ListingsQueryDto): Promise<Page<ListingDto>> {
    return this.store.listListings(user.tenantId, user.id, q.containerId, q.enrichRequirements, pageRequest(q));
  }

  @Get('purchase')
  @Authenticated()
  @ApiOperation({ summary: 'Purchases of the current user', description: 'In the community (`containerId`), newest first. Paginated.' })
  @ApiOkResponse({ type: Paginated(PurchaseDto) })
  @ApiErrors(...userErrors, CommunityErrors.community_not_found)
  listStorePurchases(@CurrentUser() user: AuthUser, @Query() q: PurchasesQueryDto): Promise<Page<PurchaseDto>> {
    return this.history.listPurchases(user.tenantId, user.id, q.containerId, pageRequest(q));
  }

  @Post('purchase/:listingId')
  @Authenticated()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Buy a listing',
    description:
      "In one transaction: checks the requirement data against each requirement's JSON schema, the conditions, the window, the supply and the per-user limit; debits the price through the ledger; grants the item, prize or resource; saves the data marked `shouldSave`. " +
      '`nonce` is an idempotency key per user: the same nonce with the same request answers the original purchase (`replayed: true`, nothing charged); with a different request it is 409 `nonce_reused`. Every failure charges nothing. ' +
      'With `expectedPrice` (an extension), a price that changed since the player saw it is 409 `price_changed` instead of charging the new one.',
  })
  @ApiCreatedResponse({ type: PurchaseResultDto })
  @ApiErrors(
    ...userErrors,
    RequirementErrors.requirement_data_invalid,
    RequirementErrors.requirement_not_met,
    StoreErrors.listing_not_found,
    CommunityErrors.community_not_found,
    ResourceErrors.insufficient_balance,
    StoreErrors.listing_sold_out,
    StoreErrors.purchase_limit_reached,
    StoreErrors.listing_not_available,
    StoreErrors.nonce_reused,
    StoreErrors.price_changed,
  )
  purchaseStoreListing(
    @CurrentUser() user: AuthUser,
    @Param('listingId') listingId: string,
    @Query() q: PurchaseOptionsQueryDto,
    @Body() body: PurchaseBodyDto,
  ): Promise<PurchaseResultDto> {
    return this.metrics.purchase(this.purchases.purchase(user.tenantId, user.id, listingId, body, q.containerId));
  }
}
