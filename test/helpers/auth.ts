import { CompactEncrypt, exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BaseWallet } from 'ethers';
import { SiweMessage } from 'siwe';
import type { TestApp } from './test-app.js';

const enc = new TextEncoder();

/** The tenant shared secret decoded as spec rule 3 says (test side: what a consuming backend does). */
export const keyFromHex = (hex: string) => new Uint8Array(Buffer.from(hex, 'hex'));

/** An OAuth provider ID token as found in the `idToken` claim (signed with a throw-away key: zkLogin does not verify it). */
export async function fakeIdToken(claims: { iss: string; aud: string | string[]; sub: string } & JWTPayload): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt().setExpirationTime('1h').sign(randomBytes(32));
}

export interface LoginTokenOptions {
  /** Protected header (default `{alg: 'dir', enc: 'A256GCM'}`). */
  header?: Record<string, unknown>;
  /** Key bytes (default: the tenant secret decoded). */
  key?: Uint8Array;
}

/**
 * The JWE a consuming community's backend sends: jose CompactEncrypt, `dir` + `A256GCM`, with the
 * tenant shared secret. Claims default to spec rule 2 with `iat` = the app clock and `exp` 300 s later.
 */
export async function loginToken(
  t: TestApp,
  sharedSecretHex: string,
  claims: Record<string, unknown> = {},
  opts: LoginTokenOptions = {},
): Promise<string> {
  const iat = t.clock.nowSeconds();
  const payload = {
    _nonce: randomBytes(8).toString('hex'),
    subjectId: `sub-${randomBytes(6).toString('hex')}`,
    handle: 'player',
    accessToken: 'provider-access-token',
    refreshToken: 'provider-refresh-token',
    idToken: await fakeIdToken({ iss: 'https://accounts.provider-a.test', aud: 'client-a', sub: 'oauth-sub-1' }),
    referrerHandle: null,
    iat,
    exp: iat + 300,
    ...claims,
  };
  for (const k of Object.keys(payload))
    if ((payload as Record<string, unknown>)[k] === undefined) delete (payload as Record<string, unknown>)[k];
  return new CompactEncrypt(enc.encode(JSON.stringify(payload)))
    .setProtectedHeader((opts.header ?? { alg: 'dir', enc: 'A256GCM' }) as { alg: string; enc: string })
    .encrypt(opts.key ?? keyFromHex(sharedSecretHex));
}

/** A local OpenID provider: publishes a JWKS over HTTP and signs ID tokens with its keys. */
export interface TestOidcProvider {
  jwksUrl: string;
  issuer: string;
  /** Signs an ID token with the current key (or a key the JWKS does not publish). */
  sign: (claims: JWTPayload, opts?: { kid?: string; unpublished?: boolean; expiresIn?: number; iat?: number }) => Promise<string>;
  /** Adds a new current key (the old one stays published unless `dropOld`). */
  rotate: (dropOld?: boolean) => Promise<void>;
  /** How many times the JWKS was fetched. */
  fetches: () => number;
  /** Make the JWKS endpoint answer 500. */
  setBroken: (broken: boolean) => void;
  close: () => Promise<void>;
}

export async function startOidcProvider(): Promise<TestOidcProvider> {
  type Key = { kid: string; privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey']; jwk: Record<string, unknown> };
  const newKey = async (): Promise<Key> => {
    const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
    const kid = `key-${randomBytes(4).toString('hex')}`;
    return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } };
  };
  let keys: Key[] = [await newKey()];
  const stranger = await newKey();
  let fetches = 0;
  let broken = false;
  const server: Server = createServer((req, res) => {
    fetches++;
    if (broken || req.url !== '/jwks') {
      res.writeHead(broken ? 500 : 404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: keys.map((k) => k.jwk) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const issuer = `${base}/issuer`;
  return {
    jwksUrl: `${base}/jwks`,
    issuer,
    sign: async (claims, opts = {}) => {
      const key = opts.unpublished ? stranger : keys[keys.length - 1];
      const iat = opts.iat ?? Math.floor(Date.now() / 1000);
      return new SignJWT({ iss: issuer, ...claims })
        .setProtectedHeader({ alg: 'RS256', kid: opts.kid ?? key.kid, typ: 'JWT' })
        .setIssuedAt(iat)
        .setExpirationTime(iat + (opts.expiresIn ?? 3600))
        .sign(key.privateKey);
    },
    rotate: async (dropOld = false) => {
      const k = await newKey();
      keys = dropOld ? [k] : [...keys, k];
    },
    fetches: () => fetches,
    setBroken: (b) => {
      broken = b;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A signed SIWE login body from an ethers wallet; times default to the app clock. */
export async function siweLogin(
  t: TestApp,
  wallet: BaseWallet,
  fields: Partial<
    Pick<SiweMessage, 'domain' | 'uri' | 'chainId' | 'nonce' | 'issuedAt' | 'expirationTime' | 'notBefore' | 'scheme' | 'address'>
  > = {},
): Promise<{ message: string; signature: string }> {
  const msg = new SiweMessage({
    domain: 'game.example.com',
    address: wallet.address,
    statement: 'Sign in to the game',
    uri: 'https://game.example.com/login',
    version: '1',
    chainId: 1,
    nonce: randomBytes(8).toString('hex'),
    issuedAt: t.clock.now().toISOString(),
    ...fields,
  });
  const message = msg.prepareMessage();
  return { message, signature: await wallet.signMessage(message) };
}
