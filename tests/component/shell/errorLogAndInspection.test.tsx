import { act, renderHook, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { clearErrorLog, installErrorLog, isErrorLogEnabled } from '@/app/errorLog';
import { useAntiInspection } from '@/app/layout/antiInspection';
import { ErrorLogButton } from '@/app/layout/ErrorLogButton';
import { renderWithApp } from '../renderApp';

function throwInPage(message: string) {
  // Handled here so the test runner does not report the staged error as its own.
  window.addEventListener('error', (event) => event.preventDefault(), { once: true });
  window.dispatchEvent(new ErrorEvent('error', { cancelable: true, error: new TypeError(message), message, filename: 'https://app/static/js/index.js', lineno: 12, colno: 5 }));
}

afterEach(() => {
  act(() => clearErrorLog());
});

describe('the error log (spec §2.3)', () => {
  it('is kept in production only', () => {
    expect(isErrorLogEnabled('production')).toBe(true);
    expect(isErrorLogEnabled('development')).toBe(false);
    expect(isErrorLogEnabled('test')).toBe(false);
  });

  it('records an uncaught error with where and on which page; the navbar badge opens it and clear empties it', async () => {
    const user = userEvent.setup();
    const uninstall = installErrorLog(window, true);
    renderWithApp(<ErrorLogButton />);
    // Nothing went wrong yet: no badge at all.
    expect(screen.queryByRole('button', { name: '错误日志' })).toBeNull();

    act(() => throwInPage('rows is undefined'));
    await user.click(screen.getByRole('button', { name: '错误日志' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('TypeError: rows is undefined')).toBeInTheDocument();
    expect(within(dialog).getByText('https://app/static/js/index.js:12:5')).toBeInTheDocument();
    expect(within(dialog).getByText(window.location.href)).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: '清空' }));
    expect(screen.queryByRole('button', { name: '错误日志' })).toBeNull();
    uninstall();
  });

  it('records nothing where it is not enabled', () => {
    const uninstall = installErrorLog(window, false);
    renderWithApp(<ErrorLogButton />);
    act(() => throwInPage('ignored'));
    expect(screen.queryByRole('button', { name: '错误日志' })).toBeNull();
    uninstall();
  });
});

describe('anti-inspection (spec §9): only behind its setting, never in development', () => {
  function pressF12(): boolean {
    const event = new KeyboardEvent('keydown', { key: 'F12', cancelable: true });
    window.dispatchEvent(event);
    return event.defaultPrevented;
  }

  it.each([
    [false, 'production', false],
    [true, 'development', false],
    [true, 'production', true],
  ])('setting %s in %s blocks F12: %s', (enabled, environment, blocked) => {
    const { unmount } = renderHook(() => useAntiInspection(enabled, environment));
    expect(pressF12()).toBe(blocked);
    unmount();
    // Switching it off (or leaving the page) gives the keys back.
    expect(pressF12()).toBe(false);
  });
});
