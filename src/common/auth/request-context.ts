import type { Request } from 'express';

export interface AuthUser {
  /** User id. */
  id: string;
  tenantId: string;
}

export interface AuthenticatedRequest extends Request {
  user?: AuthUser;
  tenantId?: string;
}
