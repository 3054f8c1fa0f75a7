import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Contract, ContractFactory, JsonRpcProvider, Wallet, type InterfaceAbi } from 'ethers';
import solc from 'solc';

const root = resolve(process.cwd());
const require = createRequire(join(root, 'package.json'));

/** Hardhat's well-known development accounts (public keys; never use them on a real network). */
export const HARDHAT_KEYS = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
] as const;

export interface CompiledContract {
  abi: InterfaceAbi;
  bytecode: string;
}

/** Compiles contracts/AvatarNFT.sol with solc-js (offline; OpenZeppelin 5 needs `cancun`). Cached by source hash. */
export function compileAvatarNft(): CompiledContract {
  return compileContract('contracts/AvatarNFT.sol', 'AvatarNFT');
}

/** Compiles the contract `name` of the Solidity file `path` (relative to the repository) with solc-js. Cached by source hash. */
export function compileContract(path: string, name: string): CompiledContract {
  const source = readFileSync(join(root, path), 'utf8');
  const file = path.split('/').at(-1)!;
  const hash = createHash('sha256').update(source).update(solc.version()).digest('hex').slice(0, 16);
  const cacheDir = join(tmpdir(), 'cgs-contracts');
  const cached = join(cacheDir, `${name}-${hash}.json`);
  if (existsSync(cached)) return JSON.parse(readFileSync(cached, 'utf8')) as CompiledContract;
  const input = {
    language: 'Solidity',
    sources: { [file]: { content: source } },
    settings: {
      evmVersion: 'cancun',
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { '*': { [name]: ['abi', 'evm.bytecode.object'] } },
    },
  };
  const findImports = (importPath: string) => {
    try {
      return { contents: readFileSync(require.resolve(importPath), 'utf8') };
    } catch (e) {
      return { error: String(e) };
    }
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports })) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: InterfaceAbi; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(`solc: ${errors.map((e) => e.formattedMessage).join('\n')}`);
  const c = output.contracts[file][name];
  const compiled = { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(cached, JSON.stringify(compiled));
  return compiled;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/** One JSON-RPC call over a fresh connection (no keep-alive socket outlives the tests). */
function rpc(url: string, method: string): Promise<unknown> {
  const u = new URL(url);
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] });
  return new Promise((resolvePromise, reject) => {
    const req = httpRequest(
      {
        hostname: u.hostname,
        port: u.port,
        method: 'POST',
        path: '/',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let data = '';
        res.on('data', (d: Buffer) => (data += d.toString()));
        res.on('end', () => {
          try {
            resolvePromise((JSON.parse(data) as { result: unknown }).result);
          } catch (e) {
            reject(e instanceof Error ? e : new Error(String(e)));
          }
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export interface TestChain {
  rpcUrl: string;
  chainId: number;
  provider: JsonRpcProvider;
  /** Account #0: deploys the contract and owns it (the service's minter key). */
  minter: Wallet;
  contractAddress: string;
  contract: Contract;
  stop: () => Promise<void>;
}

/** A `hardhat node` child process on a free loopback port (chain id 31337). */
export interface HardhatNode {
  rpcUrl: string;
  stop: () => Promise<void>;
}

export async function startHardhatNode(): Promise<HardhatNode> {
  const port = await freePort();
  const rpcUrl = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(
    join(root, 'node_modules/.bin/hardhat'),
    ['--config', join(root, 'test/chain/hardhat.config.cjs'), 'node', '--hostname', '127.0.0.1', '--port', String(port)],
    {
      cwd: root,
      env: { ...process.env, HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true', CI: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let log = '';
  child.stdout?.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-4000)));
  child.stderr?.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-4000)));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await rpc(rpcUrl, 'eth_chainId')) === '0x7a69') break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`hardhat node did not start: ${log}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    rpcUrl,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([exited, new Promise((r) => (timer = setTimeout(r, 5000)))]);
        clearTimeout(timer);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
    },
  };
}

/**
 * A real local EVM: `hardhat node` as a child process on a free port (chain id 31337), with
 * AvatarNFT compiled by solc-js and deployed by Hardhat account #0. With `node`, the contract is
 * deployed (a new one) on that running node, which `stop` leaves running: several describe blocks
 * of a file share one node (starting one costs seconds), each with a contract of its own.
 */
export async function startTestChain(options: { node?: HardhatNode } = {}): Promise<TestChain> {
  const compiled = compileAvatarNft();
  const node = options.node ?? (await startHardhatNode());
  try {
    const provider = new JsonRpcProvider(node.rpcUrl, 31337, { staticNetwork: true, cacheTimeout: -1 });
    provider.pollingInterval = 100;
    const minter = new Wallet(HARDHAT_KEYS[0], provider);
    const factory = new ContractFactory(compiled.abi, compiled.bytecode, minter);
    const deployed = await factory.deploy('CGS Avatar', 'CGSA', minter.address);
    await deployed.waitForDeployment();
    const contractAddress = await deployed.getAddress();
    return {
      rpcUrl: node.rpcUrl,
      chainId: 31337,
      provider,
      minter,
      contractAddress,
      contract: new Contract(contractAddress, compiled.abi, provider),
      stop: async () => {
        provider.destroy();
        if (!options.node) await node.stop();
      },
    };
  } catch (err) {
    if (!options.node) await node.stop();
    throw err;
  }
}

/** An HTTP proxy in front of the chain that can be told to answer the next requests with 503 (a flaky RPC provider). */
export interface FlakyRpc {
  url: string;
  failNext: (n: number) => void;
  /** Requests answered with 503 so far. */
  failed: () => number;
  close: () => Promise<void>;
}

export async function startFlakyRpc(target: string): Promise<FlakyRpc> {
  const to = new URL(target);
  let toFail = 0;
  let failed = 0;
  const server: Server = createServer((req, res) => {
    if (toFail > 0) {
      toFail--;
      failed++;
      req.resume();
      res.writeHead(503, { 'content-type': 'text/plain' }).end('upstream unavailable');
      return;
    }
    const fwd = httpRequest({ hostname: to.hostname, port: to.port, path: req.url, method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    fwd.on('error', () => res.writeHead(502).end());
    req.pipe(fwd);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    failNext: (n) => {
      toFail = n;
    },
    failed: () => failed,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}
