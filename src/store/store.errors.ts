import { defineErrors } from '../common/errors/error-catalog.js';

/** Store errors: codes 40000-40099. Insufficient balance is the ledger's `insufficient_balance` (409, 20103). */
export const StoreErrors = defineErrors({
  listing_not_found: {
    status: 404,
    code: 40001,
    description: 'No such store listing in this tenant (or in the community named by containerId), or it is not on sale.',
  },
  listing_sold_out: { status: 409, code: 40002, description: 'The listing (or what it grants) has no supply left; nothing was charged.' },
  purchase_limit_reached: {
    status: 409,
    code: 40003,
    description: 'The user already bought this listing as many times as its per-user limit allows; nothing was charged.',
  },
  listing_not_available: {
    status: 409,
    code: 40004,
    description: 'The listing is outside its availability window (not started or ended); nothing was charged.',
  },
  nonce_reused: {
    status: 409,
    code: 40005,
    description:
      'This nonce was already used by this user for a different purchase (another listing or other requirement data); nothing was charged.',
  },
  price_changed: {
    status: 409,
    code: 40009,
    description:
      "The listing's price is not the purchase's `expectedPrice` (it changed since the player saw it); nothing was charged. `details.price` is the current price.",
  },
  invalid_listing: {
    status: 400,
    description:
      'The listing is inconsistent: what it grants, its price or requirements are unknown or belong to another community, or its window is empty.',
  },
});
