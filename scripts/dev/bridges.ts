/**
 * Both local bridges together: the Upstash REST bridge (to the local Redis) and the Neon WebSocket proxy
 * (to the local PostgreSQL). Tests call `startBridges()`; for `wrangler dev` run it as a program:
 *
 *   npm run bridges
 *
 * which listens on UPSTASH_BRIDGE_PORT (default 8079) and NEON_PROXY_PORT (default 8078), uses
 * UPSTASH_BRIDGE_TOKEN (default "chambers-local"), KV_PREFIX (keys under chambers-<prefix>:, default none)
 * and TEST_REDIS_URL, prints the addresses to put in .dev.vars, and stops on Ctrl-C. A taken port is one line
 * naming the variables to set.
 */
import { pathToFileURL } from 'node:url';
import { type NeonWsProxy, startNeonWsProxy } from './neon_ws_proxy.ts';
import { startUpstashBridge, type UpstashBridge, type UpstashBridgeOptions } from './upstash_bridge.ts';

export interface BridgesOptions extends UpstashBridgeOptions {
  /** Port of the Upstash bridge (`port` is taken as the same thing); 0 picks a free one. */
  upstashPort?: number;
  /** Port of the Neon proxy; 0 picks a free one. */
  neonPort?: number;
}

export interface Bridges {
  upstash: UpstashBridge;
  neon: NeonWsProxy;
  close(): Promise<void>;
}

export async function startBridges(options: BridgesOptions = {}): Promise<Bridges> {
  const { upstashPort, neonPort, ...upstashOptions } = options;
  const upstash = await startUpstashBridge({
    ...upstashOptions,
    port: upstashPort ?? upstashOptions.port ?? 0,
  });
  let neon: NeonWsProxy;
  try {
    neon = await startNeonWsProxy({ port: neonPort ?? 0 });
  } catch (err) {
    await upstash.close();
    throw err;
  }
  return {
    upstash,
    neon,
    close: async () => {
      await Promise.all([upstash.close(), neon.close()]);
    },
  };
}

function portFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  const port = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`${name} must be a port number, got ${raw}`);
  return port;
}

async function main(): Promise<void> {
  const upstashPort = portFromEnv('UPSTASH_BRIDGE_PORT', 8079);
  const neonPort = portFromEnv('NEON_PROXY_PORT', 8078);
  const bridges = await startBridges({
    upstashPort,
    neonPort,
    token: process.env.UPSTASH_BRIDGE_TOKEN || 'chambers-local',
    // Another checkout's bridges on the same Redis keep their keys apart under their own KV_PREFIX.
    ...(process.env.KV_PREFIX ? { keyPrefix: `chambers-${process.env.KV_PREFIX}:` } : {}),
  }).catch((e: unknown) => {
    if ((e as { code?: unknown } | null)?.code !== 'EADDRINUSE') throw e;
    throw new Error(
      `Port ${upstashPort} or ${neonPort} is already taken (another checkout's bridges?): set UPSTASH_BRIDGE_PORT and NEON_PROXY_PORT to free ports (0 picks any) and put the printed addresses in .dev.vars.`,
    );
  });
  console.log(`Upstash REST bridge: UPSTASH_REDIS_REST_URL=${bridges.upstash.url}`);
  console.log(`                     UPSTASH_REDIS_REST_TOKEN=${bridges.upstash.token}`);
  console.log(`Neon WebSocket proxy: wsProxy=${bridges.neon.host} (loopback targets only)`);
  const stop = () => {
    void bridges.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

// Run as a program (`npm run bridges`), not when imported by a test.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
