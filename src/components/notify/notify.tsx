import { notification } from 'antd';
import type { ArgsProps } from 'antd/es/notification';

/** Spec §9: 4,500 ms, top-right, 16 px apart, kept while the pointer is over it. */
export const NOTIFY_DURATION_MS = 4500;
export const NOTIFY_PLACEMENT = 'topRight' as const;
export const NOTIFY_GAP_PX = 16;

export type NotifyKind = 'success' | 'info' | 'warning' | 'error';

export const NOTIFY_CONFIG = {
  placement: NOTIFY_PLACEMENT,
  duration: NOTIFY_DURATION_MS / 1000,
  pauseOnHover: true,
  // Stacking would overlap the notices; the spec lays them out one under another.
  stack: false,
  top: 24,
} as const;

/** The hook form, for components under antd's App; renders `contextHolder` once. */
export function useNotify() {
  const [api, contextHolder] = notification.useNotification(NOTIFY_CONFIG);
  const notify = (kind: NotifyKind, args: ArgsProps) =>
    api[kind]({ ...args, style: { marginBottom: NOTIFY_GAP_PX, ...args.style } });
  return { notify, contextHolder };
}
