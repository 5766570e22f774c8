import { useActorRef, useSelector } from '@xstate/react';
import { appActorOptions } from '@/app/createAppActor';
import { Button, Modal } from 'antd';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { dialogMachine, selectIsOpen, type DialogCloseReason } from '@machines/dialogMachine';
import type { AppLang } from '@/app/i18n';
import { useComponentTexts } from '../useComponentTexts';
import { nextZIndex } from './zIndex';

export type DialogProps = {
  open: boolean;
  title?: ReactNode;
  children?: ReactNode;
  /** Default 50% (spec §9). */
  width?: string | number;
  /** Default 15vh (spec §9). */
  top?: string | number;
  closeOnEscape?: boolean;
  closeOnOutsideClick?: boolean;
  showCloseButton?: boolean;
  /** Hide the confirm/cancel footer, e.g. when the content brings its own buttons. */
  hideFooter?: boolean;
  confirmText?: ReactNode;
  cancelText?: ReactNode;
  confirmDisabled?: boolean;
  /** The language of its own labels when not the app's (useComponentTexts). */
  lang?: AppLang;
  onConfirm?: () => void;
  onCancel?: () => void;
  /** Every way the dialog closed, after onConfirm/onCancel; the host flips `open` here. */
  onClose?: (reason: DialogCloseReason) => void;
};

type AntdCancelEvent = { type?: string; target?: EventTarget | null };

/** antd folds the close button, Escape and a mask click into one onCancel; tell them apart so the rules can apply. */
function cancelSource(e: AntdCancelEvent): 'dialog.escape' | 'dialog.closeButton' | 'dialog.outsideClick' {
  if (e.type === 'keydown') return 'dialog.escape';
  const target = e.target instanceof Element ? e.target : null;
  if (target?.closest('.ant-modal-close')) return 'dialog.closeButton';
  return 'dialog.outsideClick';
}

export function Dialog({
  open,
  title,
  children,
  width = '50%',
  top = '15vh',
  closeOnEscape = true,
  closeOnOutsideClick = true,
  showCloseButton = true,
  hideFooter = false,
  confirmText,
  cancelText,
  confirmDisabled = false,
  lang,
  onConfirm,
  onCancel,
  onClose,
}: DialogProps) {
  const actor = useActorRef(dialogMachine, { ...appActorOptions(), input: { open, closeOnEscape, closeOnOutsideClick, showCloseButton } });
  const isOpen = useSelector(actor, selectIsOpen);
  const [zIndex, setZIndex] = useState(() => nextZIndex());
  const handlers = useRef({ onConfirm, onCancel, onClose });
  handlers.current = { onConfirm, onCancel, onClose };

  useEffect(() => {
    actor.send({ type: 'dialog.setRules', rules: { closeOnEscape, closeOnOutsideClick, showCloseButton } });
  }, [actor, closeOnEscape, closeOnOutsideClick, showCloseButton]);

  useEffect(() => {
    const sub = actor.on('closed', ({ reason }) => {
      if (reason === 'confirm') handlers.current.onConfirm?.();
      if (reason !== 'confirm' && reason !== 'programmatic') handlers.current.onCancel?.();
      handlers.current.onClose?.(reason);
    });
    return () => sub.unsubscribe();
  }, [actor]);

  useEffect(() => {
    const opened = actor.getSnapshot().matches('open');
    if (open && !opened) {
      setZIndex(nextZIndex());
      actor.send({ type: 'dialog.open' });
    }
    if (!open && opened) actor.send({ type: 'dialog.close' });
  }, [actor, open]);

  const t = useComponentTexts(lang);
  return (
    <Modal
      open={isOpen}
      title={title}
      width={width}
      style={{ top }}
      zIndex={zIndex}
      keyboard={closeOnEscape}
      mask={{ closable: closeOnOutsideClick }}
      closable={showCloseButton}
      onCancel={(e) => actor.send({ type: cancelSource(e as AntdCancelEvent) })}
      footer={
        hideFooter ? null : (
          <>
            <Button onClick={() => actor.send({ type: 'dialog.cancel' })}>{cancelText ?? t('dialog.cancel')}</Button>
            <Button type="primary" disabled={confirmDisabled} onClick={() => actor.send({ type: 'dialog.confirm' })}>
              {confirmText ?? t('dialog.confirm')}
            </Button>
          </>
        )
      }
    >
      {children}
    </Modal>
  );
}
