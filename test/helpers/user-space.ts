// The e2e factories live in test/factories/e2e.ts; this path stays for the specs that import it.
export { givenCommunityRow, givenMembership } from '../factories/e2e.js';
