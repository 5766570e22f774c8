import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LoginPage } from '@/features/auth/LoginPage';
import { fakeDataClient, renderWithApp } from '../renderApp';

// antd forms in jsdom on a shared two-core machine are slow to render; the waits are on what the user sees.
describe('login form', () => {
  it('shows the labels of the spec and asks for every field before sending anything', async () => {
    const user = userEvent.setup();
    const { sent } = renderWithApp(<LoginPage />, { path: '/login' });
    expect(screen.getByRole('heading', { name: '系统登录' })).toBeInTheDocument();
    expect(screen.getByText('第三方登录')).toBeInTheDocument();

    await waitFor(() => expect(screen.getByRole('button', { name: '登录' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: '登录' }));
    expect(await screen.findByText('请输入用户名')).toBeInTheDocument();
    expect(screen.getByText('请输入密码')).toBeInTheDocument();
    expect(screen.getByText('请输入验证码')).toBeInTheDocument();
    expect(sent).toEqual([]);
  });

  it('sends the login with the captcha uuid once the fields are filled', async () => {
    const user = userEvent.setup();
    const { sent } = renderWithApp(<LoginPage />, { path: '/login?redirect=%2Forders' });
    await user.type(screen.getByLabelText('用户名'), ' seller ');
    await user.type(screen.getByLabelText('密码'), 'seller123');
    await user.type(screen.getByPlaceholderText('验证码'), '2468');
    await user.click(screen.getByRole('button', { name: '登录' }));
    await waitFor(() => expect(sent).toEqual([{ type: 'session.login', username: 'seller', password: 'seller123', code: '2468', uuid: 'uuid-1' }]));
  });

  it('cannot be sent before the captcha has arrived: a fast Enter would only be refused as a missing captcha', async () => {
    const user = userEvent.setup();
    let deliver: (captcha: { uuid: string; img: string }) => void = () => undefined;
    const client = fakeDataClient({ captchaImage: () => new Promise((resolve) => (deliver = resolve)) });
    const { sent } = renderWithApp(<LoginPage />, { path: '/login', client });
    await user.type(screen.getByLabelText('用户名'), 'seller');
    await user.type(screen.getByLabelText('密码'), 'seller123');
    await user.type(screen.getByPlaceholderText('验证码'), '2468{Enter}');
    expect(screen.getByRole('button', { name: '登录' })).toBeDisabled();
    expect(sent).toEqual([]);
    deliver({ uuid: 'late-1', img: 'data:image/svg+xml;base64,1' });
    await waitFor(() => expect(screen.getByRole('button', { name: '登录' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: '登录' }));
    await waitFor(() => expect(sent).toEqual([expect.objectContaining({ type: 'session.login', uuid: 'late-1' })]));
  });

  it('fetches a new captcha when the image is clicked', async () => {
    let calls = 0;
    const client = fakeDataClient({ captchaImage: async () => ({ uuid: `u-${++calls}`, img: `data:image/svg+xml;base64,${calls}` }) });
    renderWithApp(<LoginPage />, { path: '/login', client });
    const image = await screen.findByAltText('验证码图片，点击刷新');
    fireEvent.click(image);
    await waitFor(() => expect(screen.getByAltText('验证码图片，点击刷新')).toHaveAttribute('src', 'data:image/svg+xml;base64,2'));
  });

  it('is in English when the language is English', async () => {
    renderWithApp(<LoginPage />, { path: '/login', lang: 'en' });
    expect(screen.getByRole('heading', { name: 'System login' })).toBeInTheDocument();
    expect(screen.getByLabelText('Username')).toBeInTheDocument();
    expect(screen.getByLabelText('Password')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Log in' })).toBeInTheDocument();
    expect(screen.getByText('Third-party login')).toBeInTheDocument();
  });
});
