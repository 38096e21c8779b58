// Socket errors of a server that is down, restarting or unreachable.
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

// SQLSTATEs of an unavailable server rather than a bad statement: too many connections,
// administrator or crash shutdown, starting up (class 08 is matched as a whole).
const UNAVAILABLE_SQLSTATES = new Set(['53300', '57P01', '57P02', '57P03']);

// Messages of pg, pg-pool and the embedded database's session lease, which carry no code.
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/,
  /timeout exceeded when trying to connect/,
  /Client has encountered a connection error and is not queryable/,
  /Connection is not established|connection is closed/i,
  /waited \d+ ms for the embedded database session/,
  /the database system is (starting up|shutting down|in recovery mode)/,
];

const MAX_DEPTH = 6;

function matches(err: unknown, depth: number): boolean {
  if (err === null || typeof err !== 'object' || depth > MAX_DEPTH) return false;
  const e = err as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    driverError?: unknown;
    errors?: unknown;
  };
  if (typeof e.code === 'string') {
    if (NETWORK_CODES.has(e.code)) return true;
    if (/^[0-9A-Z]{5}$/.test(e.code) && (e.code.startsWith('08') || UNAVAILABLE_SQLSTATES.has(e.code))) {
      return true;
    }
  }
  if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.some((re) => re.test(e.message as string))) {
    return true;
  }
  if (Array.isArray(e.errors) && e.errors.some((inner) => matches(inner, depth + 1))) return true;
  return matches(e.driverError, depth + 1) || matches(e.cause, depth + 1);
}

/**
 * True when the error says PostgreSQL (or the embedded database's single session) was
 * unavailable, not that the statement or the data was wrong: connection refused or reset,
 * "Connection terminated", SQLSTATE class 08 and 57P01-57P03 (shutdown, starting up), 53300
 * (too many connections), pool and session-lease timeouts. Follows TypeORM's `driverError`,
 * `cause` chains and AggregateError members. A task that failed this way has not really been
 * attempted: retry it later without counting it.
 */
export function isDatabaseUnavailableError(err: unknown): boolean {
  return matches(err, 0);
}
