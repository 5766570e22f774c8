import { SafetyOutlined } from '@ant-design/icons';
import { Alert, Form, Input, Modal, Typography } from 'antd';
import { proxy } from 'comlink';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { useActorRef, useSelector } from '@xstate/react';
import { selectStepUpError, selectStepUpReason, selectStepUpState, stepUpMachine } from '@machines/stepUpMachine';
import type { DataClient } from '@workers/client';
import { appActorOptions } from './createAppActor';

/**
 * The one-time code an access policy asks for (a call answered 401 `stepUp`, machines/stepUpMachine.ts): the call
 * waits in the worker; a code taken replays it, cancel lets it fail with the policy's words.
 */
export function StepUpDialog({ client }: { client: DataClient }) {
  const { t } = useTranslation();
  const logic = useMemo(
    () =>
      stepUpMachine.provide({
        actors: { giveCode: fromPromise(({ input }) => client.access.stepUp(input.code)) },
        actions: { cancelWaiting: () => void client.access.cancelStepUp() },
      }),
    [client],
  );
  const actor = useActorRef(logic, appActorOptions());
  const state = useSelector(actor, selectStepUpState);
  const reason = useSelector(actor, selectStepUpReason);
  const error = useSelector(actor, selectStepUpError);
  const [form] = Form.useForm<{ code: string }>();

  useEffect(() => {
    const subscription = client.subscribe('session.stepUpNeeded', proxy(({ message }) => actor.send({ type: 'stepUp.needed', message })));
    return () => void subscription.then((off) => off());
  }, [actor, client]);
  useEffect(() => {
    if (state === 'idle') form.resetFields();
  }, [state, form]);

  const submit = () => actor.send({ type: 'stepUp.submit', code: String(form.getFieldValue('code') ?? '') });
  return (
    <Modal
      open={state !== 'idle'}
      title={
        <span>
          <SafetyOutlined /> {t('stepUp.title')}
        </span>
      }
      okText={t('stepUp.submit')}
      cancelText={t('stepUp.cancel')}
      confirmLoading={state === 'giving'}
      onOk={submit}
      onCancel={() => actor.send({ type: 'stepUp.cancel' })}
      mask={{ closable: false }}
      destroyOnHidden
      width={440}
    >
      <Typography.Paragraph>{reason}</Typography.Paragraph>
      <Typography.Paragraph type="secondary">{t('stepUp.hint')}</Typography.Paragraph>
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} />}
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item name="code" label={t('stepUp.code')} style={{ marginBottom: 0 }}>
          <Input autoFocus autoComplete="one-time-code" inputMode="numeric" maxLength={8} onPressEnter={submit} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
