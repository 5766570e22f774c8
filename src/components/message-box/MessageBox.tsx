import { useActorRef, useSelector } from '@xstate/react';
import { appActorOptions } from '@/app/createAppActor';
import { Button, Form, Input, Modal } from 'antd';
import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { messageBoxMachine, selectCurrentBox, selectPromptState } from '@machines/messageBoxMachine';
import type { AppLang } from '@/app/i18n';
import { nextZIndex } from '../dialog/zIndex';
import { createMessageBoxApi, type MessageBoxApi } from './messageBoxApi';
import { useComponentTexts } from '../useComponentTexts';

const MessageBoxContext = createContext<MessageBoxApi | null>(null);

export function useMessageBox(): MessageBoxApi {
  const api = useContext(MessageBoxContext);
  if (!api) throw new Error('useMessageBox needs a MessageBoxProvider above it');
  return api;
}

/** lang: the language of its own labels when not the app's (useComponentTexts). */
type MessageBoxProviderProps = { children?: ReactNode; lang?: AppLang };

/** Hosts the one visible message box; everything below may call useMessageBox(). */
export function MessageBoxProvider({ children, lang }: MessageBoxProviderProps) {
  const actor = useActorRef(messageBoxMachine, appActorOptions());
  const api = useMemo(() => createMessageBoxApi(actor), [actor]);
  useEffect(() => () => api.dispose(), [api]);
  return (
    <MessageBoxContext.Provider value={api}>
      {children}
      <MessageBoxView actor={actor} lang={lang} />
    </MessageBoxContext.Provider>
  );
}

type MessageBoxViewProps = { actor: ReturnType<typeof useActorRef<typeof messageBoxMachine>>; lang: AppLang | undefined };

function MessageBoxView({ actor, lang }: MessageBoxViewProps) {
  const box = useSelector(actor, selectCurrentBox);
  const prompt = useSelector(actor, selectPromptState, (a, b) => a.value === b.value && a.invalid === b.invalid && a.message === b.message);
  const [zIndex, setZIndex] = useState(() => nextZIndex());
  const boxId = box?.id;
  useEffect(() => {
    if (boxId) setZIndex(nextZIndex());
  }, [boxId]);

  const t = useComponentTexts(lang);
  const options = box?.options;
  const errorText = prompt.message ?? options?.inputErrorMessage ?? t('messageBox.invalid');
  return (
    <Modal
      open={box !== null}
      title={options?.title ?? t('messageBox.title')}
      zIndex={zIndex}
      width={420}
      destroyOnHidden
      onCancel={() => actor.send({ type: 'messageBox.close' })}
      footer={
        <>
          {options?.showCancel !== false && (
            <Button onClick={() => actor.send({ type: 'messageBox.cancel' })}>{options?.cancelText ?? t('messageBox.cancel')}</Button>
          )}
          <Button type="primary" onClick={() => actor.send({ type: 'messageBox.confirm' })}>
            {options?.confirmText ?? t('messageBox.confirm')}
          </Button>
        </>
      }
    >
      <p>{options?.message}</p>
      {options?.kind === 'prompt' && (
        <Form.Item validateStatus={prompt.invalid ? 'error' : undefined} help={prompt.invalid ? errorText : undefined}>
          <Input
            autoFocus
            aria-invalid={prompt.invalid}
            placeholder={options.inputPlaceholder}
            value={prompt.value}
            onChange={(e) => actor.send({ type: 'messageBox.input', value: e.target.value })}
            onPressEnter={() => actor.send({ type: 'messageBox.confirm' })}
          />
        </Form.Item>
      )}
    </Modal>
  );
}
