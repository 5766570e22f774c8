import { App, Card, Space, Statistic, type FormInstance } from 'antd';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TeamOverview } from '@contract/team';
import { isApiFailure } from '@workers/api';
import { useDataClient } from '@/app/dataClient';

/** The organisation, its shops, the permission catalogue and the plan's limits; read again with `reload`. */
export function useTeamOverview(): { overview: TeamOverview | null; reload: () => void } {
  const client = useDataClient();
  const [overview, setOverview] = useState<TeamOverview | null>(null);
  const reload = useCallback(() => void client.team.overview().then(setOverview, () => undefined), [client]);
  useEffect(reload, [reload]);
  return { overview, reload };
}

/** Shop names for ids (null: every shop), in the reader's language: `t` is the console's. */
export function shopNames(overview: TeamOverview | null, ids: readonly number[] | null, t: (key: 'allShops' | 'listSeparator') => string): string {
  if (ids === null) return t('allShops');
  return ids.map((id) => overview?.shops.find((shop) => shop.id === id)?.name ?? `#${id}`).join(t('listSeparator')) || '—';
}

/**
 * Sends a form: the server's refusal goes against the field it names (or as a message), the form stays open.
 * Answers whether it went through.
 */
export function useSubmit() {
  const { message } = App.useApp();
  return useCallback(
    async <T,>(form: FormInstance<T>, work: () => Promise<unknown>): Promise<boolean> => {
      try {
        await work();
        return true;
      } catch (failure) {
        const text = isApiFailure(failure) ? failure.message : String(failure);
        const field = isApiFailure(failure) ? failure.field : undefined;
        if (field && form.getFieldInstance(field as never) !== undefined) form.setFields([{ name: field as never, errors: [text] }]);
        else void message.error(text);
        return false;
      }
    },
    [message],
  );
}

/** The plan's limits beside the members (the spec's /limitInfo, members included). */
export function QuotaCard({ overview }: { overview: TeamOverview | null }) {
  const { t } = useTranslation('team');
  if (!overview) return null;
  const shown = (used: number, limit: number) => `${used} / ${limit < 0 ? t('quota.unlimited') : limit}`;
  return (
    <Card size="small" title={t('quota.title', { plan: t(`shell:role.${overview.plan}`, { defaultValue: overview.plan }) })} style={{ marginBottom: 12 }}>
      <Space size={48} wrap>
        <Statistic title={t('quota.members')} value={shown(overview.members.used, overview.members.limit)} />
        <Statistic title={t('quota.stores')} value={shown(overview.stores.used, overview.stores.limit)} />
        <Statistic title={t('quota.dailyCopies')} value={shown(overview.dailyCopies.used, overview.dailyCopies.limit)} />
        <Statistic title={t('quota.collections')} value={shown(overview.collections.used, overview.collections.limit)} />
      </Space>
    </Card>
  );
}

/** A short cell that keeps to one line (names, dates), so the table gives the long columns the room. */
export function OneLine({ children }: { children: ReactNode }) {
  return <span style={{ whiteSpace: 'nowrap' }}>{children}</span>;
}
