import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MessageBoxProvider, useMessageBox } from '@/components/message-box/MessageBox';
import type { MessageBoxApi } from '@/components/message-box/messageBoxApi';

function Capture({ onApi }: { onApi: (api: MessageBoxApi) => void }) {
  onApi(useMessageBox());
  return null;
}

function setup(lang: 'zh' | 'en' = 'en') {
  let api: MessageBoxApi | null = null;
  render(
    <MessageBoxProvider lang={lang}>
      <Capture onApi={(a) => (api = a)} />
    </MessageBoxProvider>,
  );
  return () => api!;
}

describe('MessageBox', () => {
  it('resolves on confirm, rejects on cancel, and shows queued boxes one at a time', async () => {
    const user = userEvent.setup();
    const api = setup();
    let first!: Promise<unknown>;
    let second!: Promise<unknown>;
    act(() => {
      first = api().confirm('Delete the shop?');
      second = api().confirm('Delete the order?');
    });
    // Observed before the click that rejects it, so the rejection is never unhandled.
    const secondOutcome = second.then(
      () => 'resolved',
      (reason: { action: string }) => reason.action,
    );
    expect(await screen.findByText('Delete the shop?')).toBeInTheDocument();
    expect(screen.queryByText('Delete the order?')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'OK' }));
    await expect(first).resolves.toEqual({ action: 'confirm', value: '' });
    expect(await screen.findByText('Delete the order?')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await expect(secondOutcome).resolves.toBe('cancel');
  });

  it('marks a prompt invalid with the default message until the value matches', async () => {
    const user = userEvent.setup();
    const api = setup();
    let result!: Promise<unknown>;
    act(() => {
      result = api().prompt('please enter group name', undefined, { inputPattern: /^\S+$/ });
    });
    const input = await screen.findByRole('textbox');
    await user.type(input, 'a b');
    await user.click(screen.getByRole('button', { name: 'OK' }));
    expect(await screen.findByText('the data entered is not valid')).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');

    await user.clear(input);
    await user.type(input, 'friends');
    await user.click(screen.getByRole('button', { name: 'OK' }));
    await expect(result).resolves.toEqual({ action: 'confirm', value: 'friends' });
    await waitFor(() => expect(screen.queryByText('please enter group name')).not.toBeInTheDocument());
  });
});
