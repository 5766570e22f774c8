import { Progress, Space, Tag, Tooltip } from 'antd';
import type { Store, SyncProgress } from '@contract/store';
import { useTranslation } from 'react-i18next';

type SyncStateCellProps = {
  store: Store;
  /** The latest 'sync.progress' push per entity of this shop, newer than the list. */
  live: Partial<Record<SyncProgress['entity'], SyncProgress>>;
};

const COLOR = { idle: 'default', running: 'processing', done: 'success', failed: 'error' } as const;

/** One tag per entity: synced count, or the live count while a run is under way, or the failure's reason. */
export function SyncStateCell({ store, live }: SyncStateCellProps) {
  const { t } = useTranslation('store');
  const running = store.sync.some((job) => (live[job.entity]?.status ?? job.status) === 'running');
  const finished = store.sync.filter((job) => (live[job.entity]?.status ?? job.status) === 'done').length;
  return (
    <Space orientation="vertical" size={4} style={{ width: '100%' }}>
      {running && <Progress percent={Math.round((finished / store.sync.length) * 100)} size="small" status="active" aria-label={t('syncStatus.running')} />}
      <Space size={[4, 4]} wrap>
        {store.sync.map((job) => {
          const progress = live[job.entity];
          const status = progress?.status ?? job.status;
          const count = progress && status === 'running' ? progress.done : job.total;
          const reason = status === 'failed' ? (progress?.message ?? job.error) : null;
          const tag = (
            <Tag key={job.entity} color={COLOR[status]} data-entity={job.entity} data-status={status}>
              {t(`entity.${job.entity}`)} {status === 'idle' ? t('syncStatus.idle') : status === 'failed' ? t('syncStatus.failed') : count.toLocaleString()}
            </Tag>
          );
          return reason ? (
            <Tooltip key={job.entity} title={reason}>
              {tag}
            </Tooltip>
          ) : (
            tag
          );
        })}
      </Space>
    </Space>
  );
}
