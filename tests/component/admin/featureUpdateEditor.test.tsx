import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { FeatureUpdate } from '@contract/notice';
import type { DataClient } from '@workers/client';
import { FeatureUpdateManagerPage } from '@/features/admin/FeatureUpdateManagerPage';
import { renderWithApp } from '../renderApp';

const update: FeatureUpdate = {
  id: 7,
  startDate: '2026-11-20',
  title: { zh: '更新Tips：', en: "What's new:" },
  items: [
    { zh: '订单可按包裹查看', en: 'Orders by posting', path: '/order-manager/order-list' },
    { zh: '修复若干问题', en: 'Fixes' },
  ],
  active: true,
  updatedAt: Date.parse('2026-11-20T02:00:00Z'),
} as FeatureUpdate;

function clientWith(saved: unknown[]): DataClient {
  const notice = {
    listFeatureUpdates: vi.fn(async () => ({ list: [update], total: 1 })),
    updateFeatureUpdate: vi.fn(async (body: unknown) => {
      saved.push(body);
      return update;
    }),
    addFeatureUpdate: vi.fn(),
    deleteFeatureUpdates: vi.fn(),
  };
  return { notice, session: {}, pollers: {}, subscribe: async () => () => undefined } as unknown as DataClient;
}

describe('feature-update editor', () => {
  it('keeps the page a line is about when the announcement is saved', async () => {
    const saved: unknown[] = [];
    renderWithApp(<FeatureUpdateManagerPage />, { client: clientWith(saved), lang: 'en' });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit 2026-11-20' }));
    // The line's page is shown with the menu's name for it.
    expect(await screen.findByText(/· \/order-manager\/order-list/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    const body = saved[0] as { items: { en: string; path?: string }[] };
    expect(body.items[0]).toMatchObject({ en: 'Orders by posting', path: '/order-manager/order-list' });
    expect(body.items[1]!.path).toBeUndefined();
  });
});
