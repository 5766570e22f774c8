import { act, screen } from '@testing-library/react';
import { startTransition, Suspense, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { describe, expect, it } from 'vitest';
import { lazyPage, preloadRoutePage, type AppRoute } from '@/app/routes';
import { RoutePage } from '@/app/RoutePage';
import { renderWithApp } from '../renderApp';

function OrdersStandIn() {
  return <p>平台订单内容</p>;
}

function routeTo(path: string): AppRoute {
  return { path, titleKey: 'route.orderList', page: lazyPage(async () => ({ default: OrdersStandIn })) };
}

describe('route pages', () => {
  it('a page whose chunk was asked for at start shows at once, without a loading spinner', async () => {
    const route = routeTo('/order-manager/order-list');
    preloadRoutePage('/order-manager/order-list', [route]);
    await act(() => route.page!.preload());
    renderWithApp(<RoutePage route={route} />);
    expect(screen.getByText('平台订单内容')).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('a page opened without asking ahead shows the spinner until it is loaded', async () => {
    const route = routeTo('/order-manager/record-list');
    renderWithApp(<RoutePage route={route} />);
    expect(screen.getByRole('status')).toHaveTextContent('加载中');
    expect(await screen.findByText('平台订单内容')).toBeInTheDocument();
  });

  it('asking ahead for a redirecting path loads the page it leads to', async () => {
    const target = routeTo('/order-manager/order-list');
    const routes: AppRoute[] = [{ path: '/order-manager', redirect: '/order-manager/order-list', children: [target] }];
    preloadRoutePage('/order-manager', routes);
    await act(() => target.page!.preload());
    renderWithApp(<RoutePage route={target} />);
    expect(screen.getByText('平台订单内容')).toBeInTheDocument();
  });

  it('a page keeps what the user did across later renders, whenever its chunk arrived', async () => {
    // A transition render that suspends on a chunk settling in the same moment commits the lazy element itself; the
    // page must stay that element on the next render (a swap to the loaded component mounted it again, empty).
    let mounts = 0;
    function Counter() {
      const [count, setCount] = useState(() => {
        mounts += 1;
        return 0;
      });
      return <button onClick={() => setCount(count + 1)}>count {count}</button>;
    }
    const Page = lazyPage(() => Promise.resolve({ default: Counter }));
    const flags = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
    const actEnvironment = flags.IS_REACT_ACT_ENVIRONMENT;
    // Outside act, as in the browser: React renders the transition in slices and waits for the chunk in between.
    flags.IS_REACT_ACT_ENVIRONMENT = false;
    const host = document.body.appendChild(document.createElement('div'));
    const root = createRoot(host);
    const pause = () => new Promise((done) => setTimeout(done, 20));
    const draw = (version: number) =>
      startTransition(() =>
        root.render(
          <Suspense fallback={<p>loading</p>}>
            <span>v{version} </span>
            <Page />
          </Suspense>,
        ),
      );
    try {
      draw(1);
      for (let i = 0; i < 150 && !host.querySelector('button'); i += 1) await pause();
      host.querySelector('button')!.click();
      await pause();
      expect(host.textContent).toBe('v1 count 1');
      draw(2);
      for (let i = 0; i < 150 && !host.textContent?.startsWith('v2'); i += 1) await pause();
      expect(host.textContent).toBe('v2 count 1');
      expect(mounts).toBe(1);
    } finally {
      root.unmount();
      host.remove();
      flags.IS_REACT_ACT_ENVIRONMENT = actEnvironment;
    }
  });
});
