import { defineErrors } from '../common/errors/error-catalog.js';

/** Prize errors: codes 40100-40199. */
export const PrizeErrors = defineErrors({
  prize_not_found: { status: 404, code: 40101, description: 'No such prize in this tenant.' },
  prize_supply_exhausted: { status: 409, code: 40102, description: 'Not enough of the prize is left; nothing was awarded.' },
  prize_award_key_reused: {
    status: 409,
    code: 40103,
    description: 'The idempotency key was already used for another award (another prize, user or quantity).',
  },
  prize_supply_below_awarded: { status: 409, code: 40104, description: 'The total supply cannot be set below the number already awarded.' },
  invalid_prize: { status: 400, description: 'The prize is inconsistent (unknown community or requirement).' },
});
