import { CloseOutlined, NotificationOutlined } from '@ant-design/icons';
import { createActorContext, useSelector as useActorSelector } from '@xstate/react';
import { App as AntApp, Button, Modal } from 'antd';
import { proxy } from 'comlink';
import { useEffect, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { fromCallback, fromPromise } from 'xstate';
import type { Unsubscribe } from '@workers/api';
import type { DataClient } from '@workers/client';
import { featureUpdateMachine, selectFeatureUpdate, selectFeatureUpdateOpen } from '@machines/featureUpdateMachine';
import { noticeMachine, selectVisibleNotice, type NoticeEvent } from '@machines/noticeMachine';
import { selectRoleTime } from '@machines/sessionMachine';
import { versionCheckMachine } from '@machines/versionCheckMachine';
import { appActorOptions, createAppActor } from '../createAppActor';
import { useDataClient } from '../dataClient';
import { useFormats } from '../formats';
import { noticeTimeMs } from '@contract/session';
import type { FeatureUpdateItem } from '@contract/notice';
import { textIn } from '@contract/errors';
import { appRoutes, findRoute, isBuilt, type AppRoute } from '../routes';
import { useLatest } from '@/components/useLatest';
import { toLang } from '../i18n';
import { SessionContext } from '../session';

export const NOTICE_DISMISSED_KEY = 'noticeDismissed';
export const FEATURE_UPDATE_ACK_KEY = 'featureUpdateAcknowledged';
/** Set to "1" in local storage to stop the version checks (spec §2.4 "a paused flag"). */
export const VERSION_CHECK_PAUSED_KEY = 'versionCheckPaused';

/** Follow or plug validity is current: the notice check runs and the feature-update dialog may show (spec §4). */
export function hasCurrentValidity(roleTime: { followValidTime: number | null; plugValidTime: number | null }, now = Date.now()): boolean {
  return (roleTime.followValidTime ?? 0) > now || (roleTime.plugValidTime ?? 0) > now;
}

function createNoticeLogic(client: DataClient) {
  return noticeMachine.provide({
    actors: {
      // The worker's 65 s check and the server's 'notice' push both feed the banner; the first answer comes at once.
      noticePoller: fromCallback<NoticeEvent, void>(({ sendBack }) => {
        let stopped = false;
        const offs: Promise<Unsubscribe>[] = [
          client.subscribe('notice.checked', proxy(({ notice }) => sendBack({ type: 'notice.received', notice }))),
          client.subscribe(
            'push.message',
            proxy(({ message }) => {
              if (message.type === 'notice') sendBack({ type: 'notice.received', notice: message.notice });
            }),
          ),
        ];
        void client.session
          .noticeCheck()
          .then((notice) => !stopped && sendBack({ type: 'notice.received', notice }))
          .catch(() => undefined);
        void client.pollers.startNoticeCheck();
        return () => {
          stopped = true;
          for (const off of offs) void off.then((unsubscribe) => unsubscribe());
          void client.pollers.stop('noticeCheck');
        };
      }),
    },
    actions: { persistDismissed: (_, updateTime) => localStorage.setItem(NOTICE_DISMISSED_KEY, updateTime) },
  });
}

export const NoticeContext = createActorContext(noticeMachine);

/** `started`: the shell's start-up is over (useAfterStartup); the notice check waits for it. */
export function NoticeProvider({ started = true, children }: { started?: boolean; children: ReactNode }) {
  const client = useDataClient();
  const roleTime = SessionContext.useSelector(selectRoleTime);
  const enabled = started && hasCurrentValidity(roleTime);
  const logic = useMemo(() => createNoticeLogic(client), [client]);
  return (
    <NoticeContext.Provider logic={logic} options={appActorOptions({ input: { dismissed: localStorage.getItem(NOTICE_DISMISSED_KEY), enabled } })}>
      <NoticeValidity enabled={enabled} />
      {children}
    </NoticeContext.Provider>
  );
}

function NoticeValidity({ enabled }: { enabled: boolean }) {
  const actor = NoticeContext.useActorRef();
  useEffect(() => {
    actor.send({ type: 'notice.setEnabled', enabled });
  }, [actor, enabled]);
  return null;
}

/**
 * The closable notice banner of the top bar (spec §2.3): notice date and text on one line between the breadcrumb and
 * the bar's buttons, the whole text in its tooltip. It takes the bar's free space rather than a row of its own: the
 * notice comes a second or two after a page is drawn, and a row of its own pushed the whole page 38 px down under
 * the user's pointer (a click meant for the first row of a list landed on the second).
 */
export function NoticeBanner() {
  const { t } = useTranslation();
  const formats = useFormats();
  const notice = NoticeContext.useSelector(selectVisibleNotice);
  const actor = NoticeContext.useActorRef();
  if (!notice) return <div className="shell-header__spacer" />;
  const date = formats.date.format(noticeTimeMs(notice.updateTime));
  return (
    <div className="shell-header__spacer shell-notice" role="region" aria-label={t('notice.label')}>
      <NotificationOutlined className="shell-notice__icon" aria-hidden />
      <span className="shell-notice__text" title={`${date} ${notice.text}`}>
        <time className="shell-notice__date">{date}</time>
        {notice.text}
      </span>
      <Button
        type="text"
        size="small"
        className="shell-notice__close"
        icon={<CloseOutlined />}
        aria-label={t('notice.close')}
        onClick={() => actor.send({ type: 'notice.dismiss' })}
      />
    </div>
  );
}

/** The version checker (spec §2.4): a persistent notification when a newer release asks for a reload. */
export function VersionNotifier() {
  const client = useDataClient();
  const { notification } = AntApp.useApp();
  const { t } = useTranslation();
  useEffect(() => {
    const actor = createAppActor(
      versionCheckMachine.provide({ actors: { fetchVersion: fromPromise(() => client.session.versionFile()) } }),
      { input: { paused: localStorage.getItem(VERSION_CHECK_PAUSED_KEY) === '1' } },
    );
    const sub = actor.on('version.updateAvailable', () => {
      notification.info({
        key: 'version-update',
        title: t('version.title'),
        description: t('version.text'),
        duration: 0,
        style: { cursor: 'pointer' },
        onClick: () => window.location.reload(),
        onClose: () => actor.send({ type: 'version.dismiss' }),
      });
    });
    actor.start();
    return () => {
      sub.unsubscribe();
      actor.stop();
    };
  }, [client, notification, t]);
  return null;
}

/** An announced line is shown once the page it names works (the route table says so): none is announced early. */
export function isAnnounceable(item: FeatureUpdateItem, routes: readonly AppRoute[] = appRoutes): boolean {
  if (!item.path) return true;
  const route = findRoute(item.path, routes);
  return route !== null && isBuilt(route);
}

type FeatureUpdateDialogProps = { onRefresh: () => void };

/** The feature-update announcement (spec §2.4): title, list, "关闭" and "我已阅读不再提示", 50% wide. */
export function FeatureUpdateDialog({ onRefresh }: FeatureUpdateDialogProps) {
  const client = useDataClient();
  const roleTime = SessionContext.useSelector(selectRoleTime);
  const { t, i18n } = useTranslation();
  const lang = toLang(i18n.language);
  const actor = useMemo(() => {
    const stored = Number(localStorage.getItem(FEATURE_UPDATE_ACK_KEY));
    return createAppActor(
      featureUpdateMachine.provide({
        actors: { fetchCurrent: fromPromise(() => client.notice.currentFeatureUpdate()) },
        actions: { persistAcknowledged: (_, id) => localStorage.setItem(FEATURE_UPDATE_ACK_KEY, String(id)) },
      }),
      { input: { acknowledgedId: Number.isInteger(stored) && stored > 0 ? stored : null, roleTime, now: Date.now } },
    );
    // The rule is decided once per session with the validity known at login.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client]);
  const refresh = useLatest(onRefresh);
  useEffect(() => {
    const sub = actor.on('featureUpdate.refresh', () => refresh.current());
    actor.start();
    return () => {
      sub.unsubscribe();
      actor.stop();
    };
  }, [actor, refresh]);
  const open = useActorSelector(actor, selectFeatureUpdateOpen);
  const update = useActorSelector(actor, selectFeatureUpdate);
  const items = update?.items.filter((item) => isAnnounceable(item)) ?? [];
  if (!update || items.length === 0) return null;
  return (
    <Modal
      open={open}
      width="50%"
      title={textIn(update.title, lang)}
      onCancel={() => actor.send({ type: 'featureUpdate.close' })}
      footer={[
        <Button key="close" onClick={() => actor.send({ type: 'featureUpdate.close' })}>
          {t('featureUpdate.close')}
        </Button>,
        <Button key="confirm" type="primary" onClick={() => actor.send({ type: 'featureUpdate.confirm' })}>
          {t('featureUpdate.confirm')}
        </Button>,
      ]}
    >
      <ol className="feature-update__list">
        {items.map((item) => (
          <li key={item.zh}>{textIn(item, lang)}</li>
        ))}
      </ol>
    </Modal>
  );
}
