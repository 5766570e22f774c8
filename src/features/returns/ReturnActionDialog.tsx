import { Alert, Button, Form, Input, InputNumber, Modal, Result, Select, Spin, Typography } from 'antd';
import { useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReturnDetail, ReturnRow, RfbsActionBody } from '@contract/returns';
import {
  selectReturnActionError,
  selectReturnActionResult,
  selectReturnActionState,
  selectReturnActionSubject,
  type ReturnActionActor,
} from '@machines/returnActionMachine';
import { useMoney } from '@/app/displayCurrency';
import { statusLabel } from './ReturnColumns';

type ReturnActionDialogProps = {
  actor: ReturnActionActor;
  /** The request the decision is about, as the list shows it, and its details (rejection reasons). */
  row: ReturnRow | null;
  detail: ReturnDetail | null;
};

type FormValues = { returnMethod?: string; backWay?: number | null; amount?: number | null; reasonId?: number; comment?: string };

/** The confirmation of one rFBS decision, asking what it needs; then Ozon's answer or its refusal with a retry. */
export function ReturnActionDialog({ actor, row, detail }: ReturnActionDialogProps) {
  const { t } = useTranslation('returns');
  const money = useMoney();
  const state = useSelector(actor, selectReturnActionState);
  const subject = useSelector(actor, selectReturnActionSubject);
  const error = useSelector(actor, selectReturnActionError);
  const result = useSelector(actor, selectReturnActionResult);
  const [form] = Form.useForm<FormValues>();
  const [reasonId, setReasonId] = useState<number | undefined>(undefined);
  useEffect(() => {
    if (state === 'confirming') {
      form.resetFields();
      setReasonId(undefined);
    }
  }, [state, subject, form]);
  if (!subject || state === 'idle') return null;
  const action = subject.action;
  const label = t(`rfbs.${action}`);
  const reasons = detail?.rejectionReasons ?? [];
  const reason = reasons.find((r) => r.id === reasonId);
  const price = row ? money.format(row.amount, row.currency).text : '';

  const submit = (values: FormValues) => {
    const id = subject.id;
    const body: RfbsActionBody =
      action === 'verify'
        ? { id, action, returnMethod: values.returnMethod?.trim() || undefined }
        : action === 'reject'
          ? { id, action, reasonId: values.reasonId!, comment: values.comment?.trim() || undefined }
          : action === 'compensate'
            ? { id, action, amount: values.amount! }
            : action === 'returnMoney'
              ? { id, action, backWay: values.backWay ?? undefined }
              : { id, action };
    actor.send({ type: 'action.confirm', body });
  };
  const close = () => actor.send({ type: state === 'confirming' ? 'action.cancel' : 'action.close' });

  const footer =
    state === 'confirming'
      ? [
          <Button key="cancel" onClick={close}>{t('rfbs.cancel')}</Button>,
          <Button key="ok" type="primary" danger={action === 'reject'} onClick={() => form.submit()}>{t('rfbs.submit')}</Button>,
        ]
      : state === 'failed'
        ? [
            <Button key="close" onClick={close}>{t('rfbs.close')}</Button>,
            <Button key="retry" type="primary" onClick={() => actor.send({ type: 'action.retry' })}>{t('retry')}</Button>,
          ]
        : state === 'done'
          ? [<Button key="close" type="primary" onClick={close}>{t('rfbs.close')}</Button>]
          : null;

  return (
    <Modal open title={t('rfbs.confirmTitle', { action: label, number: row?.postingNumber ?? '' })} onCancel={state === 'running' ? undefined : close} closable={state !== 'running'} maskClosable={false} footer={footer} destroyOnHidden>
      {state === 'confirming' && (
        <Form form={form} layout="vertical" onFinish={submit} requiredMark={false}>
          <Typography.Paragraph>
            {action === 'verify' && t('rfbs.confirmVerify')}
            {action === 'receive' && t('rfbs.confirmReceive')}
            {action === 'returnMoney' && t('rfbs.confirmReturnMoney', { amount: price })}
            {action === 'compensate' && t('rfbs.confirmCompensate')}
            {action === 'reject' && t('rfbs.confirmReject')}
          </Typography.Paragraph>
          {action === 'verify' && (
            <Form.Item name="returnMethod" label={t('rfbs.returnMethodLabel')}>
              <Input maxLength={200} />
            </Form.Item>
          )}
          {action === 'returnMoney' && (
            <Form.Item name="backWay" label={t('rfbs.backWay')}>
              <InputNumber min={0} precision={0} style={{ width: 200 }} />
            </Form.Item>
          )}
          {action === 'compensate' && (
            <Form.Item
              name="amount"
              label={t('rfbs.compensation')}
              extra={t('rfbs.compensationHint', { amount: price })}
              rules={[{ required: true, message: t('rfbs.compensationHint', { amount: price }) }, { validator: async (_, value: number | null) => {
                if (value !== null && value !== undefined && row && (value <= 0 || value >= row.amount)) throw new Error(t('rfbs.compensationHint', { amount: price }));
              } }]}
            >
              <InputNumber min={0} precision={2} style={{ width: 200 }} addonAfter={row?.currency} />
            </Form.Item>
          )}
          {action === 'reject' && (
            <>
              <Form.Item name="reasonId" label={t('rfbs.rejectReason')} rules={[{ required: true, message: t('rfbs.rejectReason') }]} extra={reason?.hint}>
                <Select<number> options={reasons.map((r) => ({ value: r.id, label: r.name }))} onChange={setReasonId} />
              </Form.Item>
              <Form.Item name="comment" label={t('rfbs.rejectComment')} rules={reason?.commentRequired ? [{ required: true, whitespace: true, message: t('rfbs.commentRequired') }] : []}>
                <Input.TextArea maxLength={1000} rows={3} />
              </Form.Item>
            </>
          )}
        </Form>
      )}
      {state === 'running' && <Spin tip={t('rfbs.running')}><div style={{ height: 80 }} /></Spin>}
      {state === 'done' && result && (
        <Result status="success" title={t('rfbs.done', { action: label, status: statusLabel(t, result.row) })} />
      )}
      {state === 'failed' && <Alert type="error" showIcon title={t('rfbs.failed', { reason: error ?? '' })} />}
    </Modal>
  );
}
