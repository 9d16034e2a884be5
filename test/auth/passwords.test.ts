// Console passwords: PBKDF2-SHA-256 through WebCrypto with a random salt per hash, the parameters stored with
// it (so the work factor can rise), a malformed or forged stored value matching nothing, and the rules'
// Hebrew messages.
import { describe, expect, it } from 'vitest';
import {
  hashPassword,
  needsRehash,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PBKDF2_ITERATIONS,
  passwordProblem,
  verifyPassword,
} from '../../src/auth/passwords.ts';

const PASSWORD = 'חלון ירוק מול הים';

describe('console passwords', () => {
  it('uses the most iterations Workers allow, and stores them with a fresh salt each time', async () => {
    // Cloudflare's runtime refuses PBKDF2 above 100,000 iterations; below it the hash would be weaker.
    expect(PBKDF2_ITERATIONS).toBe(100_000);
    const a = await hashPassword(PASSWORD);
    const b = await hashPassword(PASSWORD);
    expect(a).toMatch(/^pbkdf2-sha256\$100000\$[\w-]{22}\$[\w-]{43}$/);
    expect(a).not.toBe(b);
    expect(a.split('$')[2]).not.toBe(b.split('$')[2]);
    expect(await verifyPassword(PASSWORD, a)).toBe(true);
    expect(await verifyPassword(PASSWORD, b)).toBe(true);
  });

  it('refuses another password, a changed hash, and any stored value that is not a whole hash', async () => {
    const stored = await hashPassword(PASSWORD);
    expect(await verifyPassword(`${PASSWORD} `, stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
    const [scheme, iterations, salt, hash] = stored.split('$') as [string, string, string, string];
    const flipped = `${hash.slice(0, -2)}${hash.endsWith('AA') ? 'AB' : 'AA'}`;
    expect(await verifyPassword(PASSWORD, [scheme, iterations, salt, flipped].join('$'))).toBe(false);
    for (const forged of [
      '',
      PASSWORD,
      `sha256$${iterations}$${salt}$${hash}`,
      `${scheme}$1$${salt}$${hash}`,
      `${scheme}$99999999999$${salt}$${hash}`,
      `${scheme}$${iterations}$${salt}$${hash.slice(0, 20)}`,
      `${scheme}$${iterations}$${salt}$${hash}$extra`,
      `${scheme}$${iterations}$not+base64url$${hash}`,
    ]) {
      expect(await verifyPassword(PASSWORD, forged), forged).toBe(false);
    }
  });

  it('verifies a hash made with fewer iterations, and says it should be replaced', async () => {
    const old = await hashPassword(PASSWORD, 20_000);
    expect(old.startsWith('pbkdf2-sha256$20000$')).toBe(true);
    expect(await verifyPassword(PASSWORD, old)).toBe(true);
    expect(needsRehash(old)).toBe(true);
    expect(needsRehash(await hashPassword(PASSWORD))).toBe(false);
  });

  it('reads the same password typed in another Unicode form as the same password', async () => {
    const composed = 'caf\u00e9 with a long tail';
    const decomposed = 'cafe\u0301 with a long tail';
    expect(await verifyPassword(decomposed, await hashPassword(composed))).toBe(true);
  });

  it('says in Hebrew what is wrong with a new password', () => {
    expect(passwordProblem('קצר', 'קצר')).toContain(`באורך ${PASSWORD_MIN_LENGTH} תווים לפחות`);
    expect(
      passwordProblem('a'.repeat(PASSWORD_MIN_LENGTH - 1), 'a'.repeat(PASSWORD_MIN_LENGTH - 1)),
    ).not.toBeNull();
    expect(passwordProblem(' '.repeat(20), ' '.repeat(20))).toContain('רווחים בלבד');
    expect(passwordProblem(PASSWORD, `${PASSWORD}.`)).toContain('אינן זהות');
    const long = 'א'.repeat(PASSWORD_MAX_LENGTH + 1);
    expect(passwordProblem(long, long)).toContain('ארוכה מדי');
    // Letters of any script count once each, not by their UTF-16 length.
    const twelve = 'אבגדהוזחטיכל';
    expect(passwordProblem(twelve, twelve)).toBeNull();
    expect(passwordProblem(PASSWORD, PASSWORD)).toBeNull();
  });
});
