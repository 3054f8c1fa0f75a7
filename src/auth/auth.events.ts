/** What the auth module publishes (see DomainEvents). */
export interface UserLoggedIn {
  tenantId: string;
  userId: string;
  /** How: `password`, `siwe`, `providerA`, `zklogin_providerA`... */
  method: string;
}

declare module '../common/events/domain-events.js' {
  interface DomainEventMap {
    /** A session was started (in the transaction that stores its refresh token). */
    'user.logged_in': UserLoggedIn;
  }
}
