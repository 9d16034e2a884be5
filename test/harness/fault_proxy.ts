/**
 * A TCP proxy in front of a dependency (PostgreSQL, the Upstash REST bridge) that a test turns off and on:
 * 'up' forwards; 'refuse' stops listening and cuts every connection (ECONNREFUSED, as a stopped server);
 * 'stall' accepts and holds every byte without an answer (a dependency slower than any timeout); 'cut'
 * cuts the open connections once and keeps forwarding new ones. The shared services are never touched.
 */
import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';

export type FaultMode = 'up' | 'refuse' | 'stall';

export interface FaultProxy {
  port: number;
  /** `url` with its host and port replaced by the proxy's. */
  via(url: string): string;
  set(mode: FaultMode): Promise<void>;
  /** Cuts the connections open now (new ones are forwarded). */
  cut(): void;
  close(): Promise<void>;
}

export async function startFaultProxy(target: { host: string; port: number }): Promise<FaultProxy> {
  let mode: FaultMode = 'up';
  const open = new Set<Socket>();
  const track = (s: Socket) => {
    open.add(s);
    s.on('close', () => open.delete(s));
    s.on('error', () => s.destroy());
  };
  const cutAll = () => {
    for (const s of open) s.destroy();
  };
  const onConnection = (client: Socket) => {
    track(client);
    if (mode === 'stall') {
      client.pause(); // held: nothing read, nothing answered
      return;
    }
    const upstream = tcpConnect(target.port, target.host);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  };
  let server: Server = createServer(onConnection);
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        const a = server.address();
        resolve(typeof a === 'object' && a !== null ? a.port : port);
      });
    });
  const port = await listen(0);
  return {
    port,
    via(url) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    async set(next) {
      if (next === mode) return;
      const was = mode;
      mode = next;
      if (next === 'refuse') {
        cutAll();
        await new Promise<void>((r) => server.close(() => r()));
      } else if (was === 'refuse') {
        server = createServer(onConnection);
        await listen(port);
      }
      if (next === 'stall') {
        // Connections already open stop moving too: their bytes are held, not forwarded.
        for (const s of open) {
          s.unpipe();
          s.pause();
        }
      } else if (was === 'stall') {
        cutAll(); // half-delivered requests cannot be resumed
      }
    },
    cut: cutAll,
    async close() {
      cutAll();
      if (mode !== 'refuse') await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
