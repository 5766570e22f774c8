import { Alert, Button, InputNumber, Modal, Progress, Space, Table, Tag, Typography } from 'antd';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { selectKind, selectOutcomes, selectPhase, selectProgress, selectSubjects, type PromotionSubject } from '@machines/promotionActionsMachine';
import type { PromotionActionsActor } from './promotionActions';

/** Rows the dialog lists (the rest are counted). */
const SHOWN = 500;

/** `subject`: the action's title, for adding and removing. */
type RunDialogProps = { actor: PromotionActionsActor; subject?: string };

/**
 * The confirm step, the progress and each subject's outcome of a batch action. Adding and approving show an editable
 * price per subject (`data.price`), with `data.max` and `data.floor` as the limits it is checked against.
 */
export function RunDialog({ actor, subject = '' }: RunDialogProps) {
  const { t } = useTranslation('promotions');
  const phase = useSelector(actor, selectPhase);
  const kind = useSelector(actor, selectKind);
  const subjects = useSelector(actor, selectSubjects);
  const outcomes = useSelector(actor, selectOutcomes);
  const progress = useSelector(actor, selectProgress);
  const priced = kind === 'add' || kind === 'approve';
  const title =
    kind === 'add' ? t('run.addTitle', { title: subject }) : kind === 'remove' ? t('run.removeTitle', { title: subject }) : kind === 'approve' ? t('run.approveTitle') : t('run.declineTitle');
  const hint =
    kind === 'add' ? t('run.addHint') : kind === 'approve' ? t('run.approveHint') : kind === 'remove' ? t('run.removeHint', { n: subjects.length }) : t('run.declineHint', { n: subjects.length });

  const columns = [
    { key: 'label', title: t('products.name'), ellipsis: true, render: (_: unknown, s: PromotionSubject) => <span title={s.label}>{s.label}</span> },
    ...(priced
      ? [
          {
            key: 'price',
            title: kind === 'add' ? t('products.actionPrice') : t('discounts.approved'),
            width: 300,
            render: (_: unknown, s: PromotionSubject) => {
              const price = Number(s.data.price);
              const max = s.data.max === null || s.data.max === undefined ? null : Number(s.data.max);
              const floor = s.data.floor === null || s.data.floor === undefined ? null : Number(s.data.floor);
              return phase === 'confirming' ? (
                <Space size={4}>
                  <InputNumber
                    size="small"
                    min={0.01}
                    step={1}
                    precision={2}
                    value={price}
                    aria-label={`${s.label} ${t('products.actionPrice')}`}
                    status={(max !== null && price > max) || (floor !== null && price < floor) ? 'warning' : undefined}
                    onChange={(value) => actor.send({ type: 'action.edit', key: s.key, data: { price: value ?? 0 } })}
                  />
                  {max !== null ? <Typography.Text type="secondary" className="promo-small">≤ {max.toFixed(2)}</Typography.Text> : null}
                  {max !== null && price > max ? <Tag color="orange">{t('run.aboveMax')}</Tag> : null}
                  {floor !== null && price < floor ? <Tag color="orange">{t('run.belowFloor')}</Tag> : null}
                </Space>
              ) : (
                price.toFixed(2)
              );
            },
          },
        ]
      : []),
    {
      key: 'outcome',
      title: t('actions.status'),
      width: 240,
      render: (_: unknown, s: PromotionSubject) => {
        const outcome = outcomes[s.key];
        if (phase === 'confirming' || !outcome) return null;
        if (outcome.status === 'done') return <Tag color="green">{t('run.done')}</Tag>;
        if (outcome.status === 'pending') return <Tag>{t('run.pending')}</Tag>;
        return (
          <Space direction="vertical" size={0}>
            <Tag color="red">{t('run.failed')}</Tag>
            <Typography.Text type="danger" className="promo-reason">
              {outcome.reason}
            </Typography.Text>
          </Space>
        );
      },
    },
  ];

  const footer =
    phase === 'confirming' ? (
      <Space>
        <Button onClick={() => actor.send({ type: 'action.cancel' })}>{t('run.cancel')}</Button>
        <Button type="primary" onClick={() => actor.send({ type: 'action.confirm' })}>
          {t('run.confirm')}
        </Button>
      </Space>
    ) : phase === 'running' ? (
      <Button onClick={() => actor.send({ type: 'action.cancel' })}>{t('run.stop')}</Button>
    ) : (
      <Space>
        {progress.total - Object.values(outcomes).filter((o) => o.status === 'done').length > 0 ? (
          <Button onClick={() => actor.send({ type: 'action.retry' })}>
            {t('run.retryFailed', { n: progress.total - Object.values(outcomes).filter((o) => o.status === 'done').length })}
          </Button>
        ) : null}
        <Button type="primary" onClick={() => actor.send({ type: 'action.close' })}>
          {t('run.close')}
        </Button>
      </Space>
    );

  const done = Object.values(outcomes).filter((o) => o.status === 'done').length;
  return (
    <Modal open={phase !== 'idle'} title={title} width={760} footer={footer} closable={false} maskClosable={false} destroyOnHidden>
      {phase === 'confirming' ? <Alert type="info" showIcon message={hint} style={{ marginBottom: 12 }} /> : null}
      {phase === 'running' ? (
        <Progress percent={Math.round((progress.settled / Math.max(1, progress.total)) * 100)} format={() => t('run.running', { settled: progress.settled, total: progress.total })} />
      ) : null}
      {phase === 'outcome' ? (
        <Alert type={progress.failed > 0 ? 'warning' : 'success'} showIcon message={t('run.summary', { done, failed: progress.failed })} style={{ marginBottom: 12 }} />
      ) : null}
      <Table<PromotionSubject> tableLayout="fixed" size="small" rowKey="key" columns={columns} dataSource={subjects.slice(0, SHOWN)} pagination={false} scroll={{ y: 380 }} />
      {subjects.length > SHOWN ? <Typography.Text type="secondary">{t('run.more', { n: subjects.length - SHOWN })}</Typography.Text> : null}
    </Modal>
  );
}
