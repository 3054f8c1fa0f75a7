import { defineErrors } from '../common/errors/error-catalog.js';

export const WalletErrors = defineErrors({
  wallet_not_found: { status: 404, code: 12040, description: 'The user has no wallet yet: a zkLogin or SIWE login creates one.' },
});
