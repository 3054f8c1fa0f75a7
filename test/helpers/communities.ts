// The e2e factories live in test/factories/e2e.ts; this path stays for the specs that import it.
export { adminApi } from './admin-api.js';
export { givenCommunity, givenResourceType, grant, type TestCommunity } from '../factories/e2e.js';
