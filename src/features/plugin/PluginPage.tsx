import { Alert, App, Button, Card, Empty, Flex, Form, Input, List, Popconfirm, Skeleton, Space, Tag, Typography } from 'antd';
import { ChromeOutlined, CloudDownloadOutlined, LinkOutlined } from '@ant-design/icons';
import { useActorRef, useSelector } from '@xstate/react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { PluginInfo, PluginToken } from '@contract/plugin';
import { isApiFailure } from '@workers/api';
import {
  selectConnectFailure,
  selectConnectState,
  selectConnectedUser,
  selectConnecting,
  selectShownToken,
} from '@machines/pluginConnectMachine';
import { appActorOptions } from '@/app/createAppActor';
import { useDataClient } from '@/app/dataClient';
import { useFormats } from '@/app/formats';
import { download } from '@/components/download';
import { usePluginPresence, type PluginPresence } from './pluginBridge';
import { pluginConnectOn } from './pluginConnect';

const messageOf = (error: unknown) => (isApiFailure(error) ? error.message : String(error));
const COLLECTION_LIST = '/collection/collection-list';

/** A name for a new token that says which browser it went to ("Chrome · Windows"). */
function browserLabel(): string {
  const agent = navigator.userAgent;
  const browser = /Edg\//.test(agent) ? 'Edge' : /Chrome\//.test(agent) ? 'Chrome' : 'Chromium';
  const system = /Windows/.test(agent) ? 'Windows' : /Mac OS X/.test(agent) ? 'macOS' : /Linux/.test(agent) ? 'Linux' : '';
  return system ? `${browser} · ${system}` : browser;
}

/**
 * /plugin/download (the top bar's plugin link): the browser plugin's download made for this server, how to install
 * it, connecting it with a plugin token (handed to the installed plugin, or shown once), and the tokens to revoke.
 */
export function PluginPage() {
  const { t } = useTranslation('plugin');
  const client = useDataClient();
  const presence = usePluginPresence();
  const [info, setInfo] = useState<PluginInfo | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const load = useCallback(() => {
    setLoadError(null);
    client.plugin.info().then(setInfo, (error: unknown) => setLoadError(messageOf(error)));
  }, [client]);
  useEffect(load, [load]);

  return (
    <Flex vertical gap={16} style={{ maxWidth: 960 }}>
      {loadError ? (
        <Alert type="error" showIcon message={t('loadFailed', { reason: loadError })} action={<Button onClick={load}>{t('retry')}</Button>} />
      ) : !info ? (
        <Card>
          <Skeleton active />
        </Card>
      ) : (
        <>
          <DownloadCard info={info} presence={presence} />
          <ConnectCard presence={presence} onIssued={load} />
          <TokenList tokens={info.tokens} onChange={load} />
        </>
      )}
    </Flex>
  );
}

type DownloadCardProps = { info: PluginInfo; presence: PluginPresence | null };

function DownloadCard({ info, presence }: DownloadCardProps) {
  const { t } = useTranslation('plugin');
  const client = useDataClient();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const steps = t('steps', { returnObjects: true }) as string[];
  const save = async () => {
    setBusy(true);
    try {
      download(`seller-plugin-${info.version}.zip`, await client.plugin.download());
    } catch (error) {
      void message.error(messageOf(error));
    } finally {
      setBusy(false);
    }
  };
  const detected = !presence
    ? { type: 'warning' as const, text: t('detected.none') }
    : info.version && presence.version !== info.version
      ? { type: 'warning' as const, text: t('detected.outdated', { version: presence.version }) }
      : presence.user
        ? { type: 'success' as const, text: t('detected.connected', { version: presence.version, name: presence.user.name }) }
        : { type: 'info' as const, text: t('detected.installed', { version: presence.version }) };
  return (
    <Card title={<Space><ChromeOutlined />{t('title')}</Space>}>
      <Flex vertical gap={12}>
        <Typography.Paragraph style={{ margin: 0 }}>{t('intro')}</Typography.Paragraph>
        {info.version ? (
          <Space wrap>
            <Button type="primary" icon={<CloudDownloadOutlined />} loading={busy} onClick={() => void save()}>
              {busy ? t('downloading') : t('download')}
            </Button>
            <Tag>{t('version', { version: info.version })}</Tag>
            {info.size !== null && <Tag>{t('size', { size: Math.ceil(info.size / 1024) })}</Tag>}
            <Typography.Text type="secondary">{t('browsers')}</Typography.Text>
          </Space>
        ) : (
          <Alert type="warning" showIcon message={t('notBuilt')} />
        )}
        <Alert type={detected.type} showIcon message={detected.text} data-testid="plugin-detected" />
        <Typography.Title level={5} style={{ margin: '8px 0 0' }}>
          {t('stepsTitle')}
        </Typography.Title>
        <ol style={{ margin: 0, paddingInlineStart: 22, lineHeight: 1.9 }}>
          {steps.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
      </Flex>
    </Card>
  );
}

type ConnectCardProps = { presence: PluginPresence | null; onIssued: () => void };

function ConnectCard({ presence, onIssued }: ConnectCardProps) {
  const { t } = useTranslation('plugin');
  const client = useDataClient();
  const machine = useMemo(() => pluginConnectOn(client, t('noAnswer')), [client, t]);
  const actor = useActorRef(machine, appActorOptions());
  const connecting = useSelector(actor, selectConnecting);
  const user = useSelector(actor, selectConnectedUser);
  const shown = useSelector(actor, selectShownToken);
  const failure = useSelector(actor, selectConnectFailure);
  const state = useSelector(actor, selectConnectState);
  const [label, setLabel] = useState(browserLabel);
  // A token was issued (handed over or shown): the list below gains it.
  useEffect(() => {
    if (state === 'connected' || state === 'showingToken') onIssued();
  }, [state, onIssued]);
  const close = () => actor.send({ type: 'action.close' });
  return (
    <Card title={t('connectTitle')}>
      <Flex vertical gap={12}>
        <Typography.Text type="secondary">{t('connectIntro')}</Typography.Text>
        <Form layout="inline" onFinish={() => actor.send({ type: 'connect.start', label, pluginInstalled: presence !== null })}>
          <Form.Item label={t('label')}>
            <Input value={label} maxLength={60} onChange={(e) => setLabel(e.target.value)} placeholder={t('labelPlaceholder')} style={{ width: 240 }} />
          </Form.Item>
          <Form.Item>
            <Button type="primary" htmlType="submit" icon={<LinkOutlined />} loading={connecting} disabled={!label.trim()}>
              {connecting ? t('connecting') : t('connect')}
            </Button>
          </Form.Item>
        </Form>
        {user && (
          <Alert
            type="success"
            showIcon
            message={t('connected', { name: user.name })}
            action={
              <Space>
                <Link href={COLLECTION_LIST}>{t('openCollection')}</Link>
                <Button size="small" onClick={close}>
                  {t('done')}
                </Button>
              </Space>
            }
          />
        )}
        {shown && (
          <Alert
            type="info"
            showIcon
            message={t('tokenTitle')}
            description={
              <Flex vertical gap={4}>
                {shown.reason && <Typography.Text type="warning">{t('tokenWhy', { reason: shown.reason })}</Typography.Text>}
                <Typography.Paragraph copyable={{ text: shown.token }} code style={{ margin: 0, wordBreak: 'break-all' }} data-testid="plugin-token">
                  {shown.token}
                </Typography.Paragraph>
                <Typography.Text type="secondary">{t('tokenHelp')}</Typography.Text>
              </Flex>
            }
            action={
              <Button size="small" onClick={close}>
                {t('done')}
              </Button>
            }
          />
        )}
        {failure !== null && (
          <Alert
            type="error"
            showIcon
            message={t('failed', { reason: failure })}
            action={
              <Space>
                <Button size="small" onClick={() => actor.send({ type: 'action.retry' })}>
                  {t('retry')}
                </Button>
                <Button size="small" onClick={close}>
                  {t('done')}
                </Button>
              </Space>
            }
          />
        )}
      </Flex>
    </Card>
  );
}

type TokenListProps = { tokens: PluginToken[]; onChange: () => void };

function TokenList({ tokens, onChange }: TokenListProps) {
  const { t } = useTranslation('plugin');
  const client = useDataClient();
  const { message } = App.useApp();
  const { time } = useFormats();
  const revoke = async (id: number) => {
    try {
      await client.plugin.revokeToken(id);
      void message.success(t('revoked'));
    } finally {
      onChange();
    }
  };
  return (
    <Card title={t('tokensTitle')}>
      {tokens.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('tokensEmpty')} />
      ) : (
        <List
          dataSource={tokens}
          rowKey="id"
          renderItem={(token) => (
            <List.Item
              actions={[
                <Popconfirm key="revoke" title={t('revokeConfirm')} onConfirm={() => revoke(token.id)}>
                  <Button danger size="small">
                    {t('revoke')}
                  </Button>
                </Popconfirm>,
              ]}
            >
              <List.Item.Meta
                title={
                  <Space>
                    {token.label}
                    <Typography.Text code>{token.hint}…</Typography.Text>
                  </Space>
                }
                description={
                  <Space wrap split="·">
                    <span>
                      {t('columns.createdAt')} {time.format(token.createdAt)}
                    </span>
                    <span>
                      {t('columns.lastUsedAt')} {token.lastUsedAt === null ? t('neverUsed') : time.format(token.lastUsedAt)}
                    </span>
                    <span>
                      {t('columns.expiresAt')} {time.format(token.expiresAt)}
                    </span>
                  </Space>
                }
              />
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}
