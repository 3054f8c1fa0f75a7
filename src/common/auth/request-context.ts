import type { Request } from 'express';

export interface AuthUser {
  /** User id. */
  id: string;
  tenantId: string;
  /** The session (`sid`, one login) the credential belongs to, when it names one. */
  sessionId?: string;
}

export interface AuthenticatedRequest extends Request {
  user?: AuthUser;
  tenantId?: string;
  /**
   * Who called a management route, as the audit log names them: `api-key:` and the first 12 hex
   * digits of the key's SHA-256 (a key is told from the next one after a rotation; the key itself
   * is never kept).
   */
  actor?: string;
}
