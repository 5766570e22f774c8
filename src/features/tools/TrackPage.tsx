import { CopyOutlined, DeleteOutlined, ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { useActorRef, useSelector } from '@xstate/react';
import { Alert, App, Button, Card, Collapse, Empty, Form, Input, Select, Space, Table, Tag, Timeline, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { fromPromise } from 'xstate';
import { useTranslation } from 'react-i18next';
import { isApiFailure } from '@workers/api';
import { CARRIERS, parseTrackNumbers, PREFIX, TRACK_MAX_NUMBERS, type Carrier, type PrefixesAnswer, type TrackResult, type TrackStatus } from '@contract/tracking';
import { FBS_STATUSES, type FbsStatus } from '@contract/fbsStatuses';
import { trackSearchMachine } from '@machines/trackSearchMachine';
import { selectIsAdmin } from '@machines/sessionMachine';
import { appActorOptions } from '@/app/createAppActor';
import { useDataClient } from '@/app/dataClient';
import { timeFormat } from '@/app/formats';
import { toLang } from '@/app/i18n';
import { SessionContext } from '@/app/session';

const STATUS_COLOR: Record<TrackStatus, string> = {
  infoReceived: 'default',
  inTransit: 'processing',
  pickup: 'gold',
  delivered: 'success',
  returned: 'purple',
  cancelled: 'default',
  exception: 'error',
  notFound: 'default',
};

const isFbsStatus = (text: string): text is FbsStatus => (FBS_STATUSES as readonly string[]).includes(text);

function reasonOf(error: unknown): string {
  return isApiFailure(error) ? error.message : String(error);
}

/** One number's answer: carrier, status, where the answer came from and how fresh, and its timeline. */
function ResultCard({ result }: { result: TrackResult }) {
  const { t, i18n } = useTranslation('tools');
  const { message } = App.useApp();
  const format = timeFormat(toLang(i18n.language));
  const carrier = result.carrier ? t(`track.carriers.${result.carrier}`) : '—';
  const at = (iso: string | null) => (iso ? format.format(new Date(iso)) : '—');
  const { t: orderText } = useTranslation('orders');
  // Own postings' events are Ozon's status codes: shown in the order list's words.
  const eventText = (text: string) => (result.carrier === 'ozon' && isFbsStatus(text) ? orderText(`statuses.${text}`) : text);
  const source = result.routedBy === 'own'
    ? t('track.ownData', { time: at(result.fetchedAt) })
    : result.fromCache
      ? t('track.cached', { time: at(result.fetchedAt), carrier })
      : t('track.fetched', { time: at(result.fetchedAt), carrier });
  return (
    <Card
      size="small"
      data-testid="track-result"
      data-number={result.number}
      title={
        <Space wrap size={8}>
          <Typography.Text strong copyable={{ text: result.number, icon: <CopyOutlined />, onCopy: () => void message.success(result.number) }}>
            {result.number}
          </Typography.Text>
          <Tag>{carrier}</Tag>
          <Typography.Text type="secondary">{t(`track.routedBy.${result.routedBy}`)}</Typography.Text>
        </Space>
      }
      extra={result.status ? <Tag color={STATUS_COLOR[result.status]} data-testid="track-status">{t(`track.statuses.${result.status}`)}</Tag> : null}
    >
      {result.posting ? <Typography.Paragraph type="secondary">{t('track.posting', { posting: result.posting.postingNumber, shop: result.posting.shopName })}</Typography.Paragraph> : null}
      {result.problem ? (
        <Alert
          type={result.fromCache ? 'warning' : 'error'}
          showIcon
          style={{ marginBottom: 12 }}
          message={t(`track.problems.${result.problem}`, { carrier })}
          description={[result.fromCache ? t('track.staleShown', { time: at(result.fetchedAt) }) : null, result.detail].filter(Boolean).join(' · ') || undefined}
        />
      ) : (
        <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>{source}</Typography.Paragraph>
      )}
      {result.events.length > 0 ? (
        <Timeline
          items={result.events.map((event, i) => ({
            color: i === 0 ? (result.status === 'exception' ? 'red' : 'blue') : 'gray',
            children: (
              <div>
                <Space size={8} wrap>
                  <Typography.Text strong={i === 0}>{t(`track.statuses.${event.status}`)}</Typography.Text>
                  <Typography.Text type="secondary">{format.format(new Date(event.time))}</Typography.Text>
                </Space>
                <div>
                  {eventText(event.text)}
                  {event.place ? <Typography.Text type="secondary"> · {event.place}</Typography.Text> : null}
                </div>
              </div>
            ),
          }))}
        />
      ) : !result.problem ? (
        <Typography.Text type="secondary">{t('track.noEvents')}</Typography.Text>
      ) : null}
    </Card>
  );
}

/** The prefix table and which carriers this server reads; administrators add and remove rows. */
function PrefixTable() {
  const { t } = useTranslation('tools');
  const client = useDataClient();
  const { message } = App.useApp();
  const isAdmin = SessionContext.useSelector(selectIsAdmin);
  const [table, setTable] = useState<PrefixesAnswer | null>(null);
  const [form] = Form.useForm<{ prefix: string; carrier: Exclude<Carrier, 'ozon'> }>();
  useEffect(() => {
    client.tools.trackPrefixes().then(setTable, (error: unknown) => void message.error(reasonOf(error)));
  }, [client, message]);
  const change = (work: Promise<PrefixesAnswer>) => work.then(setTable, (error: unknown) => void message.error(reasonOf(error)));
  const outer = CARRIERS.filter((carrier): carrier is Exclude<Carrier, 'ozon'> => carrier !== 'ozon');
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Space wrap>
        {table?.carriers.map(({ carrier, configured }) => (
          <Tag key={carrier} color={configured ? 'green' : 'default'}>
            {t(`track.carriers.${carrier}`)} · {configured ? t('track.configured') : t('track.notConfiguredShort')}
          </Tag>
        ))}
      </Space>
      <Table
        size="small"
        rowKey="prefix"
        pagination={false}
        dataSource={table?.prefixes ?? []}
        loading={!table}
        columns={[
          { title: t('track.prefix'), dataIndex: 'prefix' },
          { title: t('track.carrier'), dataIndex: 'carrier', render: (carrier: Carrier) => t(`track.carriers.${carrier}`) },
          { title: '', dataIndex: 'builtIn', render: (builtIn: boolean) => (builtIn ? t('track.builtIn') : t('track.added')) },
          ...(isAdmin
            ? [
                {
                  title: '',
                  key: 'remove',
                  render: (_: unknown, row: PrefixesAnswer['prefixes'][number]) =>
                    row.builtIn ? null : (
                      <Button size="small" type="link" danger icon={<DeleteOutlined />} onClick={() => change(client.tools.deleteTrackPrefix(row.prefix))}>
                        {t('track.remove')}
                      </Button>
                    ),
                },
              ]
            : []),
        ]}
      />
      <Typography.Text type="secondary">{t('track.autoRules')}</Typography.Text>
      {isAdmin ? (
        <Form form={form} layout="inline" onFinish={(values) => change(client.tools.saveTrackPrefix(values.prefix, values.carrier)).then(() => form.resetFields())}>
          <Form.Item name="prefix" rules={[{ required: true, pattern: PREFIX, transform: (v: string) => v?.trim().toUpperCase(), message: t('track.prefixInvalid') }]}>
            <Input placeholder={t('track.prefix')} maxLength={2} style={{ width: 90 }} />
          </Form.Item>
          <Form.Item name="carrier" rules={[{ required: true }]} initialValue="cainiao">
            <Select style={{ width: 160 }} options={outer.map((carrier) => ({ value: carrier, label: t(`track.carriers.${carrier}`) }))} />
          </Form.Item>
          <Button htmlType="submit">{t('track.addPrefix')}</Button>
        </Form>
      ) : null}
    </Space>
  );
}

/**
 * /track/track-search: up to 40 numbers at once, each answered by the carrier its posting, prefix or form names, with
 * the timeline in the user's time zone, where the answer came from and how fresh it is, and a carrier that is down
 * or refuses named on its own numbers only.
 */
export function TrackPage() {
  const { t } = useTranslation('tools');
  const client = useDataClient();
  const actor = useActorRef(
    useMemo(() => trackSearchMachine.provide({ actors: { track: fromTrack(client) } }), [client]),
    appActorOptions(),
  );
  const state = useSelector(actor, (snapshot) => snapshot);
  const [text, setText] = useState('');
  const parsed = useMemo(() => parseTrackNumbers(text), [text]);
  const searching = state.matches('searching');
  const results = state.context.results;
  const counts = useMemo(() => {
    const by = new Map<TrackStatus | 'problem', number>();
    for (const result of results) {
      const key = result.problem ? 'problem' : (result.status ?? 'notFound');
      by.set(key, (by.get(key) ?? 0) + 1);
    }
    return by;
  }, [results]);
  const canSearch = parsed.numbers.length > 0 && !parsed.tooMany;
  const search = () => canSearch && actor.send({ type: 'search', numbers: parsed.numbers });

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Card title={t('track.title')}>
        <Input.TextArea
          aria-label={t('track.input')}
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder={t('track.placeholder')}
          autoSize={{ minRows: 4, maxRows: 10 }}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) search();
          }}
        />
        <Space direction="vertical" size={4} style={{ marginTop: 8, width: '100%' }}>
          <Space wrap>
            <Button type="primary" data-testid="track-submit" icon={<SearchOutlined />} loading={searching} disabled={!canSearch} onClick={search}>
              {searching ? t('track.searching') : t('track.search')}
            </Button>
            <Typography.Text type="secondary">{t('track.recognised', { count: parsed.numbers.length })}</Typography.Text>
          </Space>
          {parsed.tooMany ? <Typography.Text type="danger">{t('track.tooMany', { count: parsed.numbers.length, max: TRACK_MAX_NUMBERS })}</Typography.Text> : null}
          {parsed.invalid.length > 0 ? <Typography.Text type="warning">{t('track.invalid', { numbers: parsed.invalid.slice(0, 10).join(', ') })}</Typography.Text> : null}
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>{t('track.hint')}</Typography.Text>
        </Space>
      </Card>

      {state.matches('failed') ? (
        <Alert
          type="error"
          showIcon
          message={t('track.failed', { reason: reasonOf(state.context.error) })}
          action={<Button size="small" icon={<ReloadOutlined />} onClick={() => actor.send({ type: 'retry' })}>{t('track.retry')}</Button>}
        />
      ) : null}

      {results.length > 0 ? (
        <>
          <Space wrap data-testid="track-summary">
            <Typography.Text strong>{t('track.summary', { count: results.length })}</Typography.Text>
            {[...counts].map(([key, count]) => (
              <Tag key={key} color={key === 'problem' ? 'error' : STATUS_COLOR[key]}>
                {key === 'problem' ? t('track.unanswered') : t(`track.statuses.${key}`)} {count}
              </Tag>
            ))}
          </Space>
          <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(360px, 1fr))', gap: 12 }}>
            {results.map((result) => (
              <ResultCard key={result.number} result={result} />
            ))}
          </div>
        </>
      ) : !searching && !state.matches('failed') ? (
        <Card>
          <Empty description={t('track.empty')} />
        </Card>
      ) : null}

      <Collapse items={[{ key: 'prefixes', label: t('track.prefixTable'), children: <PrefixTable /> }]} />
    </Space>
  );
}

function fromTrack(client: ReturnType<typeof useDataClient>) {
  return fromPromise<Awaited<ReturnType<typeof client.tools.track>>, { numbers: string[] }>(({ input }) => client.tools.track(input.numbers));
}
