/** Session tokens: HS256 JWTs valid 10 minutes (interface: Limits). */
export const SESSION_TOKEN_TTL_SECONDS = 10 * 60;
/** Refresh tokens: opaque, valid 30 days (interface: Limits). */
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;
export const SESSION_ISSUER = 'community-gaming-service';
export const SESSION_AUDIENCE = 'cgs:session';
export const SESSION_ALG = 'HS256';
