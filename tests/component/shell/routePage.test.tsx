import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { lazyPage, preloadRoutePage, type AppRoute } from '@/app/routes';
import { RoutePage } from '@/app/RouterView';
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
});
