/**
 * What a tool may log; every line of a request carries its request id, and once known the agent and the tool
 * (the guard and the kernel add them with `child`). `debug` lines (LOG_LEVEL=debug) add one line per HTTP
 * request and per token lookup, and idle drains.
 */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  /** Optional, so a test's stand-in logger need not have it; createLogger's loggers do. */
  debug?(message: string, fields?: Record<string, unknown>): void;
  /** A logger whose lines also carry `fields` (optional like debug). */
  child?(fields: Record<string, unknown>): Logger;
}

/** `log` with `fields` added to every line, when it can carry them. */
export const withFields = (log: Logger, fields: Record<string, unknown>): Logger =>
  log.child === undefined ? log : log.child(fields);

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export type LogSink = (line: string) => void;

/**
 * JSON lines, one per event, so the team can grep by request id, agent or tool. A class, not closures: every
 * request makes two or three children (request id, agent, tool), and a child is then one small object.
 */
class JsonLogger implements Required<Logger> {
  readonly #threshold: number;
  readonly #level: LogLevel;
  readonly #fields: Record<string, unknown>;
  readonly #sink: LogSink;

  constructor(level: LogLevel, fields: Record<string, unknown>, sink: LogSink) {
    this.#level = level;
    this.#threshold = order[level] ?? order.info;
    this.#fields = fields;
    this.#sink = sink;
  }

  #emit(lvl: Exclude<LogLevel, 'silent'>, message: string, more?: Record<string, unknown>): void {
    if (order[lvl] < this.#threshold) return;
    this.#sink(
      JSON.stringify({ t: new Date().toISOString(), level: lvl, msg: message, ...this.#fields, ...more }),
    );
  }

  debug(message: string, fields?: Record<string, unknown>): void {
    this.#emit('debug', message, fields);
  }

  info(message: string, fields?: Record<string, unknown>): void {
    this.#emit('info', message, fields);
  }

  warn(message: string, fields?: Record<string, unknown>): void {
    this.#emit('warn', message, fields);
  }

  error(message: string, fields?: Record<string, unknown>): void {
    this.#emit('error', message, fields);
  }

  child(more: Record<string, unknown>): Logger {
    return new JsonLogger(this.#level, { ...this.#fields, ...more }, this.#sink);
  }
}

export function createLogger(
  level: LogLevel = 'info',
  fields: Record<string, unknown> = {},
  sink: LogSink = (line) => console.log(line),
): Required<Logger> {
  return new JsonLogger(level, fields, sink);
}

/** A failed query as drizzle reports it: its message repeats every bound parameter. */
const isFailedQuery = (e: unknown): e is Error & { query: string; params: unknown[] } =>
  e instanceof Error &&
  typeof (e as { query?: unknown }).query === 'string' &&
  Array.isArray((e as { params?: unknown }).params);

/** A URL's password, wherever one appears in a message (a driver repeating its connection string). */
const URL_PASSWORD = /(\b[a-z][a-z0-9+.-]*:\/\/[^:/?#\s@]*:)[^@\s/?#]+@/gi;

/**
 * An error as text fit for a log line or a stored job error. Never a query's parameters (they carry documents'
 * text, names, token hashes) or a URL's password: a failed query is its SQL and the number of parameters
 * withheld, then its cause; `stack` adds the frames (without the message, which may hold the parameters).
 */
export function errorText(e: unknown, options: { stack?: boolean } = {}): string {
  let text: string;
  if (isFailedQuery(e)) {
    const cause = e.cause === undefined ? '' : `: ${errorText(e.cause)}`;
    text = `Failed query: ${e.query} (${e.params.length} parameter(s) withheld)${cause}`;
  } else if (e instanceof SyntaxError && /JSON/.test(e.message)) {
    // JSON.parse quotes the text around the fault: a piece of the request body (a document's content).
    text = 'not valid JSON (the text is withheld)';
  } else if (e instanceof Error) {
    text = e.message || e.name;
  } else {
    text = String(e);
  }
  text = text.replace(URL_PASSWORD, '$1***@');
  if (options.stack === true && e instanceof Error && e.stack !== undefined) {
    const frames = e.stack
      .split('\n')
      .filter((line) => /^\s+at /.test(line))
      .join('\n');
    if (frames !== '') text = `${text}\n${frames}`;
  }
  return text;
}
