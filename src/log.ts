/** What a tool may log; the kernel adds agent, tool and request id to every line. */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export type LogSink = (line: string) => void;

/** JSON lines, one per event, so the team can grep by request id, agent or tool. */
export function createLogger(
  level: LogLevel = 'info',
  fields: Record<string, unknown> = {},
  sink: LogSink = (line) => console.log(line),
): Logger & { child(more: Record<string, unknown>): Logger } {
  const threshold = order[level] ?? order.info;
  const emit = (lvl: Exclude<LogLevel, 'silent'>, message: string, more?: Record<string, unknown>) => {
    if (order[lvl] < threshold) return;
    sink(JSON.stringify({ t: new Date().toISOString(), level: lvl, msg: message, ...fields, ...more }));
  };
  return {
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
    child: (more) => createLogger(level, { ...fields, ...more }, sink),
  };
}
