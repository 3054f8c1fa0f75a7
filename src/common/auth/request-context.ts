import type { Request } from 'express';

export interface AuthUser {
  /** User id. */
  id: string;
  tenantId: string;
  /** The login the session token belongs to (`sid`); absent on tokens issued before sessions had ids. */
  sessionId?: string;
}

export interface AuthenticatedRequest extends Request {
  user?: AuthUser;
  tenantId?: string;
}
