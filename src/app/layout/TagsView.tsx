import { CloseOutlined } from '@ant-design/icons';
import { useSelector } from '@xstate/react';
import { Button } from 'antd';
import { useEffect, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { selectActiveTab, selectCanCloseByIcon, selectTabs, type TabEntry } from '@machines/tabsMachine';
import { TabsContext } from '../tabs';
import type { RouteTitleKey } from '../routes';

/** The context menu's width (spec §2.3, §9). */
export const CONTEXT_MENU_WIDTH = 105;

type ContextMenuState = { path: string; x: number; y: number } | null;

/** The row of tabs of visited pages (spec §2.3). */
export function TagsView() {
  const { t } = useTranslation();
  const tabs = TabsContext.useSelector(selectTabs);
  const active = TabsContext.useSelector(selectActiveTab);
  const canClose = TabsContext.useSelector(selectCanCloseByIcon);
  const actor = TabsContext.useActorRef();
  const [menu, setMenu] = useState<ContextMenuState>(null);

  useEffect(() => {
    if (!menu) return;
    const close = () => setMenu(null);
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && close();
    window.addEventListener('click', close);
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('click', close);
      window.removeEventListener('keydown', onKey);
    };
  }, [menu]);

  const menuTab = menu ? tabs.find((tab) => tab.path === menu.path) : undefined;
  return (
    <div className="tags-view">
      <div className="tags-view__list" role="tablist" aria-label={t('tagsView.closeAll')}>
        {tabs.map((tab) => (
          <Tag
            key={tab.path}
            tab={tab}
            active={tab.path === active}
            closable={canClose && !tab.affix}
            onClose={() => actor.send({ type: 'tab.close', path: tab.path })}
            onContextMenu={(event) => {
              event.preventDefault();
              setMenu({ path: tab.path, x: event.clientX, y: event.clientY });
            }}
          />
        ))}
      </div>
      <Button size="small" type="text" className="tags-view__close-all" onClick={() => actor.send({ type: 'tabs.closeAll' })}>
        {t('tagsView.closeAll')}
      </Button>
      {menu && menuTab && (
        <ul className="tags-view__menu" role="menu" style={{ left: menu.x, top: menu.y, width: CONTEXT_MENU_WIDTH }}>
          <MenuItem label={t('tagsView.refresh')} onClick={() => actor.send({ type: 'tab.refresh', path: menu.path })} />
          {!menuTab.affix && <MenuItem label={t('tagsView.close')} onClick={() => actor.send({ type: 'tab.close', path: menu.path })} />}
          <MenuItem label={t('tagsView.closeOthers')} onClick={() => actor.send({ type: 'tab.closeOthers', path: menu.path })} />
          <MenuItem label={t('tagsView.closeAll')} onClick={() => actor.send({ type: 'tabs.closeAll' })} />
        </ul>
      )}
    </div>
  );
}

function MenuItem({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <li role="menuitem" tabIndex={-1} onClick={onClick} onKeyDown={(event) => event.key === 'Enter' && onClick()}>
      {label}
    </li>
  );
}

type TagProps = {
  tab: TabEntry;
  active: boolean;
  closable: boolean;
  onClose: () => void;
  onContextMenu: (event: MouseEvent) => void;
};

function Tag({ tab, active, closable, onClose, onContextMenu }: TagProps) {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const view = useSelector(tab.ref, (snapshot) => snapshot.context);
  // The tabs machine keeps the route's title key (BasicLayout) as a plain string.
  const title = t(view.title as RouteTitleKey);
  return (
    <div
      role="tab"
      // Named by its title alone: the close button inside would otherwise be read as part of the tab's name.
      aria-label={title}
      aria-selected={active}
      tabIndex={active ? 0 : -1}
      className={`tags-view__tag${active ? ' tags-view__tag--active' : ''}`}
      onClick={() => navigate(view.fullPath)}
      onKeyDown={(event) => event.key === 'Enter' && navigate(view.fullPath)}
      // Middle-click closes, as in a browser's own tab strip.
      onMouseDown={(event) => event.button === 1 && event.preventDefault()}
      onAuxClick={(event) => {
        if (event.button === 1 && !tab.affix) onClose();
      }}
      onContextMenu={onContextMenu}
    >
      <span className="tags-view__dot" aria-hidden="true" />
      {title}
      {closable && (
        <button
          type="button"
          className="tags-view__close"
          aria-label={t('tagsView.closeTab', { title })}
          onClick={(event) => {
            event.stopPropagation();
            onClose();
          }}
        >
          <CloseOutlined />
        </button>
      )}
    </div>
  );
}
