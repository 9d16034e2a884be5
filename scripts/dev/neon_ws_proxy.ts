/**
 * A WebSocket→TCP proxy in the shape Neon's serverless driver expects from `neonConfig.wsProxy`:
 * the driver opens `ws://<proxy>/v1?address=<host>:<port>` and speaks the PostgreSQL wire protocol in
 * binary frames; the proxy pipes them to that TCP address. This lets the Neon driver (as used on
 * Workers) run against the local PostgreSQL. Only loopback targets are allowed: anything else is
 * refused with 403 before the upgrade, so the proxy cannot be used to reach other hosts.
 */
import { createServer } from 'node:http';
import { type AddressInfo, isIP, connect as tcpConnect } from 'node:net';
import { type RawData, WebSocketServer } from 'ws';

export interface NeonWsProxy {
  /** "127.0.0.1:PORT", the value for `openNeon(url, { wsProxy })`. */
  host: string;
  close(): Promise<void>;
}

/** Parses "host:port" / "[::1]:port" and returns it only when the host is a loopback address. */
export function loopbackTarget(address: string | null): { host: string; port: number } | null {
  if (!address) return null;
  const match = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(address);
  if (!match) return null;
  const host = (match[1] ?? match[2] ?? '').toLowerCase();
  const port = Number(match[3]);
  if (port < 1 || port > 65535) return null;
  const loopback =
    host === 'localhost' || host === '::1' || (isIP(host) === 4 && host.split('.')[0] === '127');
  return loopback ? { host, port } : null;
}

/** Starts the proxy on 127.0.0.1 (`port` 0, the default, picks a free one). */
export async function startNeonWsProxy(options: { port?: number } = {}): Promise<NeonWsProxy> {
  const server = createServer((_req, res) => {
    res.writeHead(426, { 'content-type': 'text/plain' }).end('WebSocket upgrade required\n');
  });
  const wss = new WebSocketServer({ noServer: true });

  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://proxy');
    const target = url.pathname === '/v1' ? loopbackTarget(url.searchParams.get('address')) : null;
    if (!target) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const tcp = tcpConnect(target.port, target.host);
      tcp.setNoDelay(true);
      // Writes before the TCP connection is up are buffered by the socket.
      ws.on('message', (data: RawData) => {
        tcp.write(
          Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data),
        );
      });
      tcp.on('data', (chunk) => ws.send(chunk));
      ws.on('close', () => tcp.end());
      ws.on('error', () => tcp.destroy());
      tcp.on('close', () => ws.close());
      tcp.on('error', () => ws.terminate());
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  let closed = false;
  return {
    host: `127.0.0.1:${port}`,
    close: async () => {
      if (closed) return;
      closed = true;
      for (const ws of wss.clients) ws.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
