// Owners' console passwords: PBKDF2-HMAC-SHA-256 through WebCrypto (crypto.subtle), which Node and Workers both
// have. Each hash carries its own parameters (`pbkdf2-sha256$<iterations>$<salt>$<hash>`, base64url), so the
// work factor can be raised later: a hash made with fewer iterations verifies, and `needsRehash` says to
// replace it at the next successful sign-in.

/**
 * The work factor. Cloudflare's Workers runtime refuses PBKDF2 above 100,000 iterations ("iteration counts
 * above 100000 are not supported"; the bound is in workerd's PBKDF2 implementation), so this is the most that
 * runs on both runtimes. Raise it here when the bound moves: older hashes keep verifying.
 */
export const PBKDF2_ITERATIONS = 100_000;
/** Stored hashes outside this range are refused unread (a forged row must not buy unbounded work). */
const MIN_ITERATIONS = 10_000;
const MAX_ITERATIONS = 10_000_000;
const SALT_BYTES = 16;
const HASH_BITS = 256;
const SCHEME = 'pbkdf2-sha256';

/** The shortest password the console accepts: a passphrase of a few words fits easily. */
export const PASSWORD_MIN_LENGTH = 12;
/** Longer input is refused before hashing (a megabyte "password" is a way to burn CPU, not a secret). */
export const PASSWORD_MAX_LENGTH = 256;

/** Why a new password cannot be used (Hebrew, shown on the form), or null when it can. */
export function passwordProblem(password: string, confirmation: string): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) {
    return `הסיסמה צריכה להיות באורך ${PASSWORD_MIN_LENGTH} תווים לפחות (אפשר כמה מילים עם רווחים ביניהן).`;
  }
  if (length > PASSWORD_MAX_LENGTH) return `הסיסמה ארוכה מדי: עד ${PASSWORD_MAX_LENGTH} תווים.`;
  if (password.trim() === '') return 'הסיסמה אינה יכולה להיות רווחים בלבד.';
  if (password !== confirmation) return 'שתי הסיסמאות שהוקלדו אינן זהות. הקלידו אותה שוב בשני השדות.';
  return null;
}

const b64url = (bytes: Uint8Array): string => {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
};

const fromB64url = (text: string): Uint8Array | null => {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return null;
  const bin = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
  return Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
};

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(password.normalize('NFC')),
    'PBKDF2',
    false,
    ['deriveBits'],
  );
  const bits = await crypto.subtle.deriveBits(
    { name: 'PBKDF2', hash: 'SHA-256', salt: salt as Uint8Array<ArrayBuffer>, iterations },
    key,
    HASH_BITS,
  );
  return new Uint8Array(bits);
}

/** A new hash of `password` with a fresh random salt and the current work factor. */
export async function hashPassword(password: string, iterations = PBKDF2_ITERATIONS): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await derive(password, salt, iterations);
  return `${SCHEME}$${iterations}$${b64url(salt)}$${b64url(hash)}`;
}

interface Parsed {
  iterations: number;
  salt: Uint8Array;
  hash: Uint8Array;
}

function parse(stored: string): Parsed | null {
  const [scheme, iter, salt, hash, ...rest] = stored.split('$');
  if (scheme !== SCHEME || rest.length > 0 || iter === undefined || !/^\d{1,9}$/.test(iter)) return null;
  const iterations = Number(iter);
  if (iterations < MIN_ITERATIONS || iterations > MAX_ITERATIONS) return null;
  const s = salt === undefined ? null : fromB64url(salt);
  const h = hash === undefined ? null : fromB64url(hash);
  if (s === null || h === null || h.length !== HASH_BITS / 8) return null;
  return { iterations, salt: s, hash: h };
}

/** Every byte is compared whatever the first difference is, so timing says nothing about the hash. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

/** Whether `password` matches `stored`; a malformed stored value matches nothing. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if ([...password].length > PASSWORD_MAX_LENGTH) return false;
  const p = parse(stored);
  if (p === null) return false;
  return sameBytes(await derive(password, p.salt, p.iterations), p.hash);
}

/** A stored hash made with weaker parameters than today's: replace it once the password is known again. */
export function needsRehash(stored: string): boolean {
  const p = parse(stored);
  return p === null || p.iterations < PBKDF2_ITERATIONS;
}

/**
 * Spends the time of one verification without a stored hash, so an unknown name answers as slowly as a
 * wrong password (the response time does not tell which names are owners).
 */
export async function verifyNothing(password: string): Promise<void> {
  await derive(password.slice(0, PASSWORD_MAX_LENGTH), new Uint8Array(SALT_BYTES), PBKDF2_ITERATIONS);
}
