/** The URL of the database the service uses (the configured one, or the embedded server's). */
export const DATABASE_URL = Symbol('DATABASE_URL');
/** The embedded PostgreSQL server, or null when DATABASE_URL is configured. */
export const EMBEDDED_DATABASE = Symbol('EMBEDDED_DATABASE');
