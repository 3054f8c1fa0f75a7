import { defineErrors } from '../common/errors/error-catalog.js';

export const InventoryErrors = defineErrors({
  slot_not_found: { status: 404, code: 50001, description: 'No slot with this id or key in this community.' },
  item_not_found: { status: 404, code: 50002, description: 'No item with this id in this community.' },
  supply_exhausted: { status: 409, code: 50003, description: 'The item has no supply left for this grant; nothing was granted.' },
  slot_key_taken: { status: 409, code: 50004, description: 'The community already has a slot with this key.' },
  avatar_already_minted: {
    status: 409,
    code: 50005,
    description: 'This version of the avatar already has a mint on this blockchain (pending or done). Change the avatar to mint again.',
  },
  mint_not_found: { status: 404, code: 50006, description: 'No avatar mint with this id.' },
  grant_idempotency_key_reused: {
    status: 409,
    code: 50007,
    description: 'The idempotency key was already used for a different grant (another user, item or quantity).',
  },
  item_not_owned: { status: 400, description: 'An allocated item is not owned by the user; nothing was allocated.' },
  item_slot_mismatch: { status: 400, description: 'An allocated item does not fit the slot it was put in; nothing was allocated.' },
  duplicate_slot: { status: 400, description: 'The same slot appears twice in one allocation.' },
  supply_below_granted: { status: 400, description: 'An item supply cannot be lowered below the units already granted.' },
  unknown_blockchain: { status: 400, description: 'The blockchain is not configured, or is disabled.' },
  no_suitable_wallet: {
    status: 400,
    description:
      'The user has no wallet that can hold a token on this blockchain (an EVM address from a SIWE login is needed; a zkLogin wallet is a Sui address).',
  },
  invalid_slot_key: { status: 400, description: 'A slot key cannot look like a uuid.' },
  avatar_empty: { status: 400, description: 'The avatar has no allocated item, so there is nothing to mint.' },
});
