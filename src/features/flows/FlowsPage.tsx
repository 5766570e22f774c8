import { Alert, Button, Card, Col, Empty, Result, Row, Space, Spin, Tabs, Tag, Tree, Typography } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MACHINES } from '@machines/registry';
import { useDataClient } from '@/app/dataClient';
import { FLOWS_FLAG_KEY } from '@/app/flows/channel';
import { activeStatePaths, machineGraph, type FlowGraph } from './graph';
import { layoutToSvg, type Layout } from './layout';
import { actorLabel, createLiveStore, useLive, type LiveActor } from './live';
import { StateChart } from './StateChart';
import './flows.css';

type Selection = { kind: 'actor'; key: string } | { kind: 'machine'; id: string };

const SEQUENCE_WINDOW_MS = 5 * 60_000;

function download(name: string, type: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

function formatTime(time: number): string {
  const date = new Date(time);
  return `${date.toLocaleTimeString([], { hour12: false })}.${String(date.getMilliseconds()).padStart(3, '0')}`;
}

function valueText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * /flows: every machine of the app drawn from its definition, the running actors of every app window of this browser
 * (live, from the flows channel), each actor's events with the state and context after each (pick one to see that
 * moment), and the events between actors over the last minutes. Works offline: nothing leaves the app's origin.
 */
export function FlowsPage() {
  const { t } = useTranslation('flows');
  const store = useMemo(() => createLiveStore(), []);
  const live = useLive(store);
  const [selection, setSelection] = useState<Selection | null>(null);
  const [picked, setPicked] = useState<number | null>(null);
  // Actors come and go: every actor's children are shown unless the developer folded it.
  const [folded, setFolded] = useState<ReadonlySet<string>>(new Set());
  const client = useDataClient();
  const [flagWasOff] = useState(() => process.env.NODE_ENV !== 'development' && localStorage.getItem(FLOWS_FLAG_KEY) !== '1');
  /** null while the server is asked whether FLOWS_PAGE allows this page. */
  const [allowed, setAllowed] = useState<boolean | null>(process.env.NODE_ENV === 'development' ? true : null);
  const layoutRef = useRef<Layout | null>(null);

  useEffect(() => {
    if (process.env.NODE_ENV === 'development') return;
    let current = true;
    client.flows.settings().then(
      ({ enabled }) => {
        if (!current) return;
        // Opening this page turns recording on for this browser's app windows (those started before it need a
        // reload); a server whose FLOWS_PAGE is off turns it off again.
        if (enabled) localStorage.setItem(FLOWS_FLAG_KEY, '1');
        else localStorage.removeItem(FLOWS_FLAG_KEY);
        setAllowed(enabled);
      },
      () => current && setAllowed(false),
    );
    return () => {
      current = false;
    };
  }, [client]);

  useEffect(() => (allowed ? store.connect() : undefined), [store, allowed]);

  const actors = [...live.actors.values()];
  const sessionActor = actors.find((actor) => actor.machineId === 'session');
  const current: Selection = selection ?? (sessionActor ? { kind: 'actor', key: sessionActor.key } : { kind: 'machine', id: 'session' });
  const actor: LiveActor | null = current.kind === 'actor' ? (live.actors.get(current.key) ?? null) : null;
  const machineId = current.kind === 'machine' ? current.id : (actor?.machineId ?? null);
  const machine = machineId ? MACHINES[machineId] : undefined;
  const graph = useMemo<FlowGraph | null>(() => (machine ? machineGraph(machine) : null), [machine]);
  const moment = actor ? (picked !== null ? actor.moments.find((item) => item.seq === picked) : actor.moments.at(-1)) : undefined;
  const active = useMemo(() => (moment ? activeStatePaths(moment.value) : new Set<string>()), [moment]);
  const onLayout = useCallback((layout: Layout) => {
    layoutRef.current = layout;
  }, []);

  const select = (next: Selection) => {
    setSelection(next);
    setPicked(null);
  };

  const tree = useMemo<DataNode[]>(() => {
    const byParent = new Map<string | null, LiveActor[]>();
    for (const item of live.actors.values()) {
      const parent = item.parentKey && live.actors.has(item.parentKey) ? item.parentKey : null;
      byParent.set(parent, [...(byParent.get(parent) ?? []), item]);
    }
    const node = (item: LiveActor): DataNode => {
      const last = item.moments.at(-1);
      const stopped = last && last.status !== 'active';
      return {
        key: item.key,
        title: (
          <span data-actor={item.machineId ?? ''} data-status={last?.status ?? 'active'}>
            {actorLabel(item)} {last ? <Typography.Text type="secondary">· {valueText(last.value)}</Typography.Text> : null}
            {stopped ? <Tag style={{ marginLeft: 4 }}>{last.status}</Tag> : null}
          </span>
        ),
        children: (byParent.get(item.key) ?? []).map(node),
      };
    };
    return (byParent.get(null) ?? []).map(node);
  }, [live]);

  const since = Date.now() - SEQUENCE_WINDOW_MS;
  const sequence = live.events.filter((event) => event.time >= since).slice(-200);
  const labelOf = (key: string | null) => {
    if (!key) return t('outside');
    const item = live.actors.get(key);
    return item ? actorLabel(item) : key;
  };

  if (allowed === null) return <Spin style={{ display: 'block', margin: 48 }} />;
  if (!allowed) return <Result status="info" title={t('off')} subTitle={t('offHow')} />;

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('intro')}
      </Typography.Paragraph>
      {flagWasOff ? <Alert type="info" showIcon title={t('enabled')} /> : null}
      <Row gutter={16}>
        <Col span={6}>
          <Card size="small">
            <Tabs
              items={[
                {
                  key: 'actors',
                  label: `${t('actors')} (${live.actors.size})`,
                  children:
                    tree.length === 0 ? (
                      <Empty description={t('noActors')} />
                    ) : (
                      <Tree
                        treeData={tree}
                        expandedKeys={[...live.actors.keys()].filter((key) => !folded.has(key))}
                        onExpand={(_keys, info) => {
                          const key = String(info.node.key);
                          setFolded((previous) => {
                            const next = new Set(previous);
                            if (info.expanded) next.delete(key);
                            else next.add(key);
                            return next;
                          });
                        }}
                        selectedKeys={current.kind === 'actor' ? [current.key] : []}
                        onSelect={(keys) => keys[0] !== undefined && select({ kind: 'actor', key: String(keys[0]) })}
                      />
                    ),
                },
                {
                  key: 'machines',
                  label: t('machines'),
                  children: (
                    <Space orientation="vertical" size={2}>
                      {Object.keys(MACHINES).map((id) => (
                        <Button key={id} type={machineId === id && current.kind === 'machine' ? 'primary' : 'text'} size="small" onClick={() => select({ kind: 'machine', id })}>
                          {id}
                        </Button>
                      ))}
                    </Space>
                  ),
                },
              ]}
            />
          </Card>
        </Col>
        <Col span={12}>
          <Card
            size="small"
            title={
              <span data-testid="flows-title">
                {machineId ?? t('unknownMachine')}
                {moment ? <Typography.Text type="secondary"> · {valueText(moment.value)}</Typography.Text> : null}
                {picked !== null ? <Tag color="gold" style={{ marginLeft: 8 }}>{t('past')}</Tag> : null}
              </span>
            }
            extra={
              <Space>
                {picked !== null ? (
                  <Button size="small" onClick={() => setPicked(null)}>
                    {t('backToLive')}
                  </Button>
                ) : null}
                <Button size="small" disabled={!graph} onClick={() => layoutRef.current && download(`${machineId}.svg`, 'image/svg+xml', layoutToSvg(layoutRef.current, active))}>
                  SVG
                </Button>
                <Button size="small" disabled={!graph} onClick={() => graph && download(`${machineId}.json`, 'application/json', JSON.stringify(graph, null, 2))}>
                  JSON
                </Button>
              </Space>
            }
          >
            {graph ? <StateChart graph={graph} active={active} onLayout={onLayout} /> : <Empty description={t('unknownMachine')} />}
          </Card>
        </Col>
        <Col span={6}>
          <Card size="small" title={t('events')}>
            {!actor ? (
              <Empty description={t('pickActor')} />
            ) : (
              <div className="flow-events" data-testid="flow-events">
                {actor.moments
                  .slice()
                  .reverse()
                  .map((item) => (
                    <div
                      key={item.seq}
                      role="button"
                      tabIndex={0}
                      className={`flow-event${picked === item.seq ? ' flow-event-picked' : ''}`}
                      data-event={item.eventType}
                      onClick={() => setPicked(item.seq)}
                      onKeyDown={(event) => event.key === 'Enter' && setPicked(item.seq)}
                    >
                      {formatTime(item.time)} {item.eventType} → {valueText(item.value)}
                    </div>
                  ))}
              </div>
            )}
            {moment ? (
              <>
                <Typography.Text strong>{t('context')}</Typography.Text>
                <pre className="flow-json">{JSON.stringify(moment.context, null, 2)}</pre>
                {moment.event ? (
                  <>
                    <Typography.Text strong>{t('payload')}</Typography.Text>
                    <pre className="flow-json" data-testid="flow-payload">{JSON.stringify(moment.event, null, 2)}</pre>
                  </>
                ) : null}
              </>
            ) : null}
          </Card>
        </Col>
      </Row>
      <Card size="small" title={t('sequence')}>
        {sequence.length === 0 ? (
          <Empty description={t('noEvents')} />
        ) : (
          <div className="flow-events" data-testid="flow-sequence">
            {sequence
              .slice()
              .reverse()
              .map((event) => (
                <div key={event.key} className="flow-event">
                  {formatTime(event.time)} {labelOf(event.sourceKey)} → {labelOf(event.targetKey)}: <b>{event.event.type}</b>
                </div>
              ))}
          </div>
        )}
      </Card>
    </Space>
  );
}
