import { ReloadOutlined, SearchOutlined, UploadOutlined } from '@ant-design/icons';
import { useActorRef, useSelector } from '@xstate/react';
import { Alert, App, Button, Card, Descriptions, Empty, Input, Space, Spin, Table, Tag, Typography, Upload } from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { isApiFailure } from '@workers/api';
import { POSTCODE, type LookupAnswer, type PostcodeDataset, type PostcodeSearchAnswer, type PostOffice } from '@contract/postcodes';
import { fileImportMachine } from '@machines/fileImportMachine';
import { selectIsAdmin } from '@machines/sessionMachine';
import { appActorOptions } from '@/app/createAppActor';
import type { DataClient } from '@workers/client';
import { useDataClient } from '@/app/dataClient';
import { timeFormat } from '@/app/formats';
import { toLang } from '@/app/i18n';
import { SessionContext } from '@/app/session';

const reasonOf = (error: unknown) => (isApiFailure(error) ? error.message : String(error));
const place = (o: PostOffice) => [o.region, o.autonomous, o.area].filter(Boolean).join(', ');
const town = (o: PostOffice) => [o.city, o.settlement].filter(Boolean).join(', ');

type Answer = { kind: 'lookup'; index: string; data: LookupAnswer } | { kind: 'search'; q: string; data: PostcodeSearchAnswer };

/** One office: the post's database row, with its street address and hours when the post-office service gives them. */
function OfficeCard({ answer }: { answer: LookupAnswer & { index: string } }) {
  const { t } = useTranslation('tools');
  const { office, details, detailsProblem } = answer;
  const weekdays = t('post.weekdays', { returnObjects: true }) as string[];
  if (!office) {
    return (
      <Card>
        <Empty description={t('post.notFound', { index: answer.index })}>
          {answer.renumbered.length > 0 ? (
            <Space direction="vertical">
              <Typography.Text>{t('post.renumbered')}</Typography.Text>
              {answer.renumbered.map((o) => (
                <Typography.Text strong key={o.index}>
                  {o.index} · {o.name} · {town(o)}
                </Typography.Text>
              ))}
            </Space>
          ) : null}
        </Empty>
      </Card>
    );
  }
  return (
    <Card title={t('post.lookupTitle', { index: office.index })} data-testid="postcode-office">
      {details?.closed ? <Alert type="warning" showIcon message={t('post.officeClosed')} style={{ marginBottom: 12 }} /> : null}
      <Descriptions column={{ xs: 1, md: 2 }} size="small" bordered>
        <Descriptions.Item label={t('post.name')}>{office.name}</Descriptions.Item>
        <Descriptions.Item label={t('post.type')}>{office.type}</Descriptions.Item>
        <Descriptions.Item label={t('post.region')}>{place(office)}</Descriptions.Item>
        <Descriptions.Item label={t('post.city')}>{town(office) || '—'}</Descriptions.Item>
        <Descriptions.Item label={t('post.address')} span={2}>
          {details ? <Typography.Text copyable>{details.address}</Typography.Text> : <Typography.Text type="secondary">{detailsProblem ? t(`post.details.${detailsProblem}`) : '—'}</Typography.Text>}
        </Descriptions.Item>
        {details ? (
          <Descriptions.Item label={t('post.hours')} span={2}>
            <Space direction="vertical" size={0}>
              {details.hours.map((day) => (
                <Typography.Text key={day.weekday}>
                  <span style={{ display: 'inline-block', width: 48 }}>{weekdays[day.weekday - 1]}</span>
                  {day.open && day.close ? `${day.open}–${day.close}` : t('post.closedDay')}
                  {day.lunch.map((lunch) => (
                    <Typography.Text type="secondary" key={lunch.from}>
                      {' '}
                      · {t('post.lunch', lunch)}
                    </Typography.Text>
                  ))}
                </Typography.Text>
              ))}
            </Space>
          </Descriptions.Item>
        ) : null}
        <Descriptions.Item label={t('post.parent')}>{office.parent || '—'}</Descriptions.Item>
        <Descriptions.Item label={t('post.changed')}>{office.changed || '—'}</Descriptions.Item>
      </Descriptions>
    </Card>
  );
}

/** The administrator's load of the post's file, run by the file-import machine. */
function ImportButton({ client, onLoaded }: { client: DataClient; onLoaded: (dataset: PostcodeDataset) => void }) {
  const { t } = useTranslation('tools');
  const { message } = App.useApp();
  const machine = useMemo(
    () => fileImportMachine.provide({ actors: { load: fromPromise<unknown, { file: File }>(({ input }) => client.tools.importPostcodes(input.file)) } }),
    [client],
  );
  const actor = useActorRef(machine, appActorOptions());
  const state = useSelector(actor, (snapshot) => snapshot);
  useEffect(() => {
    const result = state.context.result as { dataset: PostcodeDataset } | null;
    if (state.matches('done') && result) {
      void message.success(t('post.imported', { rows: result.dataset.rows }));
      onLoaded(result.dataset);
      actor.send({ type: 'dismiss' });
    }
  }, [state, actor, message, onLoaded, t]);
  return (
    <Space direction="vertical">
      <Upload
        accept=".zip,.dbf"
        showUploadList={false}
        beforeUpload={(file) => {
          actor.send({ type: 'import', file });
          return false;
        }}
      >
        <Button icon={<UploadOutlined />} loading={state.matches('importing')}>
          {state.matches('importing') ? t('post.importing') : t('post.importButton')}
        </Button>
      </Upload>
      {state.matches('failed') ? (
        <Alert
          type="error"
          showIcon
          message={t('post.importFailed', { reason: reasonOf(state.context.error) })}
          action={<Button size="small" icon={<ReloadOutlined />} onClick={() => actor.send({ type: 'retry' })}>{t('post.retry')}</Button>}
        />
      ) : null}
    </Space>
  );
}

/**
 * /tool/rus-post: a six-digit postcode answers its office (name, type, region, city, and the street address and hours
 * from the post-office service); words answer the offices whose place or name hold them all, and the offices
 * serving them read as a street address. Says which file of the post's database is loaded and how current it is.
 */
export function PostcodePage() {
  const { t, i18n } = useTranslation('tools');
  const client = useDataClient();
  const isAdmin = SessionContext.useSelector(selectIsAdmin);
  const format = timeFormat(toLang(i18n.language));
  const [text, setText] = useState('');
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [dataset, setDataset] = useState<PostcodeDataset | null>(null);

  useEffect(() => {
    client.tools.postcodeDataset().then(setDataset, () => undefined);
  }, [client]);

  const run = useCallback(
    (query: string) => {
      const value = query.trim();
      if (value.length < 2) return;
      setLoading(true);
      setError(null);
      const work: Promise<Answer> = POSTCODE.test(value)
        ? client.tools.postcodeLookup(value).then((data) => ({ kind: 'lookup', index: value, data }))
        : client.tools.postcodeSearch(value).then((data) => ({ kind: 'search', q: value, data }));
      work.then(
        (next) => {
          setAnswer(next);
          setDataset(next.data.dataset);
        },
        (failure: unknown) => setError(reasonOf(failure)),
      ).finally(() => setLoading(false));
    },
    [client],
  );

  const open = (index: string) => {
    setText(index);
    run(index);
  };
  const columns = [
    { title: t('post.columns.index'), dataIndex: 'index', render: (index: string) => <a onClick={() => open(index)}>{index}</a> },
    { title: t('post.columns.name'), dataIndex: 'name' },
    { title: t('post.columns.type'), dataIndex: 'type' },
    { title: t('post.columns.region'), key: 'region', render: (_: unknown, o: PostOffice) => place(o) },
    { title: t('post.columns.city'), key: 'city', render: (_: unknown, o: PostOffice) => town(o) },
  ];

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Card title={t('post.title')} extra={isAdmin ? <ImportButton client={client} onLoaded={setDataset} /> : null}>
        <Space.Compact style={{ width: '100%' }}>
          <Input
            aria-label={t('post.input')}
            value={text}
            onChange={(event) => setText(event.target.value)}
            onPressEnter={() => run(text)}
            placeholder={t('post.placeholder')}
            allowClear
          />
          <Button type="primary" data-testid="postcode-submit" icon={<SearchOutlined />} loading={loading} disabled={text.trim().length < 2} onClick={() => run(text)}>
            {t('post.search')}
          </Button>
        </Space.Compact>
        <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0, fontSize: 12 }} data-testid="postcode-dataset">
          {dataset?.file
            ? t('post.dataset', { file: dataset.file, rows: dataset.rows, changed: dataset.newestChange ?? '—', imported: dataset.importedAt ? format.format(new Date(dataset.importedAt)) : '—' })
            : t('post.noDataset')}
        </Typography.Paragraph>
      </Card>

      {error ? <Alert type="error" showIcon message={error} /> : null}
      {loading && !answer ? <Spin /> : null}
      {!answer && !loading && !error ? (
        <Card>
          <Empty description={t('post.empty')} />
        </Card>
      ) : null}

      {answer?.kind === 'lookup' ? <OfficeCard answer={{ ...answer.data, index: answer.index }} /> : null}
      {answer?.kind === 'search' ? (
        <>
          {answer.data.byAddress.length > 0 ? (
            <Card title={t('post.byAddress')} size="small" data-testid="postcode-by-address">
              <Space wrap>
                {answer.data.byAddress.map((o) => (
                  <Tag key={o.index} color="blue" style={{ cursor: 'pointer' }} onClick={() => open(o.index)}>
                    {o.index} · {o.name}
                  </Tag>
                ))}
              </Space>
            </Card>
          ) : null}
          {answer.data.addressProblem === 'unavailable' ? <Alert type="warning" showIcon message={t('post.addressUnavailable')} /> : null}
          <Card
            size="small"
            title={
              answer.data.total > answer.data.offices.length
                ? t('post.resultsCapped', { total: answer.data.total, shown: answer.data.offices.length })
                : t('post.results', { total: answer.data.total })
            }
          >
            <Table
              size="small"
              rowKey="index"
              dataSource={answer.data.offices}
              columns={columns}
              pagination={false}
              locale={{ emptyText: <Empty description={t('post.noResults')} /> }}
              data-testid="postcode-results"
            />
          </Card>
        </>
      ) : null}
    </Space>
  );
}
