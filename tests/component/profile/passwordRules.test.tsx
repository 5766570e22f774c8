import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { NO_POLICY, type PasswordRulesAnswer } from '@contract/passwordPolicy';
import type { DataClient } from '@workers/client';
import { ModifyPasswordPage } from '@/features/profile/ModifyPasswordPage';
import { fakeDataClient, renderWithApp } from '../renderApp';

const answer: PasswordRulesAnswer = {
  rules: { ...NO_POLICY, minLength: 12, upper: true, special: true, notUsername: true, notCommon: true },
  subject: { username: 'seller', email: null, phone: null },
};

/** Puts a whole value in a field at once (one change, as a paste): typing it key by key costs seconds in jsdom. */
function fill(field: HTMLElement, value: string) {
  fireEvent.change(field, { target: { value } });
}

/** The change page over a client whose policy is `answer`; changePsw records what reaches it. */
function renderPage() {
  const changes: unknown[] = [];
  const client = fakeDataClient({ changePsw: async (body) => (changes.push(body), { auto: 'auto-2' }) });
  (client as unknown as { signin: Partial<DataClient['signin']> }).signin = { ownPasswordRules: async () => answer, contact: async () => ({ email: '', phone: '' }) };
  renderWithApp(<ModifyPasswordPage />, { path: '/profile/modify-psw', client });
  return { changes };
}

const met = (rule: string) => screen.getByTestId(`password-rule-${rule}`).getAttribute('data-met');
/** The rules as the list shows them, once the page has read the value typed. */
const rulesRead = (expected: Record<string, boolean>) =>
  waitFor(() => expect(Object.fromEntries(Object.keys(expected).map((rule) => [rule, met(rule) === 'true']))).toEqual(expected));

// antd forms in jsdom on a shared two-core machine are slow to render; the waits are on what the user sees.
describe('the change-password page checks the policy as the user types', () => {
  // The common list is a large module the page imports when the policy refuses common passwords: imported here first,
  // the page's own import finds it loaded.
  beforeAll(async () => {
    await import('@contract/commonPasswords');
  }, 30_000);

  it('lists the rules before the first character, checks each one live, and refuses to send a breaking password', async () => {
    const user = userEvent.setup();
    const { changes } = renderPage();
    // Before typing: the policy's rules, none met yet.
    expect(await screen.findByText('长度为12到64位')).toBeInTheDocument();
    for (const text of ['包含字母', '包含数字', '包含大写字母', '包含特殊字符（如 !@#$%）', '不包含用户名', '不是常见密码']) expect(screen.getByText(text)).toBeInTheDocument();
    expect(met('upper')).toBe('false');

    const field = screen.getByLabelText('新密码');
    fill(field, 'myseller-pass1');
    await rulesRead({ length: true, special: true, notUsername: false, upper: false });

    // A common password (the list loads apart, then the rule reads it).
    fill(field, 'Nick1234-rem936');
    await rulesRead({ notCommon: false, upper: true });

    fill(screen.getByLabelText('原密码'), 'seller123');
    fill(screen.getByLabelText('确认新密码'), 'Nick1234-rem936');
    await user.click(screen.getByRole('button', { name: '保存修改' }));
    expect(await screen.findByText('密码不符合密码策略：不是常见密码')).toBeInTheDocument();
    expect(changes).toEqual([]);

    fill(field, 'Harbour#Lantern7');
    await rulesRead({ length: true, letter: true, digit: true, upper: true, special: true, notUsername: true, notCommon: true });
    fill(screen.getByLabelText('确认新密码'), 'Harbour#Lantern7');
    await user.click(screen.getByRole('button', { name: '保存修改' }));
    await waitFor(() => expect(changes).toEqual([{ oldPassword: 'seller123', newPassword: 'Harbour#Lantern7' }]));
  });
});
