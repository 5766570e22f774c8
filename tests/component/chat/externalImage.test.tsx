import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { createI18n } from '@/app/i18n';
import { MessageContent } from '@/features/chat/widget/MessageContent';
import { MediaProvider, MessageScopeProvider, type MediaResolver } from '@/features/chat/widget/media';
import { useWidgetTranslate } from '@/features/chat/widget/translate';

const CHAT = { id: 'buyer:7:chat-1', type: 'friend' as const };
const PICTURE = 'https://pics.example.com/buyer/photo.jpg';

function Scope({ children }: { children: ReactNode }) {
  const t = useWidgetTranslate('en');
  return <MessageScopeProvider value={{ chat: CHAT, t }}>{children}</MessageScopeProvider>;
}

function show(content: string, resolver: MediaResolver) {
  return render(
    <I18nextProvider i18n={createI18n('en')}>
      <MediaProvider value={resolver}>
        <Scope>
          <MessageContent content={content} />
        </Scope>
      </MediaProvider>
    </I18nextProvider>,
  ).container;
}

const ownFiles = { handles: () => false, resolve: () => Promise.reject(new Error('not ours')) };

describe("another site's picture in a message (issue 27)", () => {
  it('loads nothing until the reader clicks, then shows the picture the server fetched', async () => {
    const external = vi.fn<NonNullable<MediaResolver['external']>>(() => Promise.resolve('blob:proxied-1'));
    const box = show(`look img[${PICTURE}]`, { ...ownFiles, external });

    // Nothing points the browser at the other site: no <img>, no request made for it.
    expect(box.querySelector('img')).toBeNull();
    expect(external).not.toHaveBeenCalled();
    expect(screen.getByText('from pics.example.com')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: /Load picture/ }));
    await waitFor(() => expect(box.querySelector('img')?.getAttribute('src')).toBe('blob:proxied-1'));
    expect(external).toHaveBeenCalledWith(PICTURE, CHAT);
    expect(box.querySelector(`img[src="${PICTURE}"]`)).toBeNull();
  });

  it("shows the server's refusal and lets the reader try again", async () => {
    const external = vi
      .fn<NonNullable<MediaResolver['external']>>()
      .mockRejectedValueOnce({ type: 'BadRequest', message: 'The picture is larger than 5 MB; it is not loaded' })
      .mockResolvedValueOnce('blob:proxied-2');
    const box = show(`img[${PICTURE}]`, { ...ownFiles, external });

    await userEvent.click(screen.getByRole('button', { name: /Load picture/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The picture is larger than 5 MB; it is not loaded');
    expect(box.querySelector('img')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: /Load picture/ }));
    await waitFor(() => expect(box.querySelector('img')?.getAttribute('src')).toBe('blob:proxied-2'));
  });

  it("keeps our own attachments as they were, and without the host's proxy offers only a link", async () => {
    const box = show(`img[/up/1.png] img[${PICTURE}] video[https://media.example.com/v.mp4]`, ownFiles);
    expect([...box.querySelectorAll('img')].map((img) => img.getAttribute('src'))).toEqual(['/up/1.png']);
    expect(box.querySelector('video')).toBeNull();
    const links = [...box.querySelectorAll('a')];
    expect(links.map((a) => [a.getAttribute('href'), a.getAttribute('rel'), a.textContent?.trim()])).toEqual([
      [PICTURE, 'noopener noreferrer', 'Open the file at pics.example.com'],
      ['https://media.example.com/v.mp4', 'noopener noreferrer', 'Open the file at media.example.com'],
    ]);
  });
});
