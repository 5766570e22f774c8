import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, demoAccountsTable } from '../../server/demo/seed';

describe('the demo accounts npm start prints', () => {
  it('are a plain aligned table: a header, no index column, no quotes', () => {
    const lines = demoAccountsTable(DEMO_ACCOUNTS).split('\n');
    expect(lines[0]!.trim().split(/\s{2,}/)).toEqual(['user', 'password', 'roles']);
    expect(lines.slice(2).map((line) => line.trim().split(/\s{2,}/))).toEqual(
      DEMO_ACCOUNTS.map((account) => [account.username, account.password, account.roles.join(', ') || '(none)']),
    );
    // Every column starts at the same place on every line.
    const passwordColumn = lines[0]!.indexOf('password');
    for (const [i, account] of DEMO_ACCOUNTS.entries()) expect(lines[i + 2]!.indexOf(account.password)).toBe(passwordColumn);
    expect(lines.join('\n')).not.toMatch(/['"│┌]/);
  });
});
