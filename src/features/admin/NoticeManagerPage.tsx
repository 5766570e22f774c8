import { Alert, App as AntApp, Button, Card, Form, Input, Modal, Popconfirm, Space } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NOTICE_TEXT_MAX, type NoticeRow } from '@contract/notice';
import { DataTable, type DataTableColumn } from '@/components/data-table/DataTable';
import type { TableQuery } from '@/components/data-table/pager';
import { useDataClient } from '@/app/dataClient';
import { useFormats } from '@/app/formats';
import { noticeTimeMs } from '@contract/session';
import './admin.css';

type Row = NoticeRow & Record<string, unknown>;

/** The administrator's notice manager (spec §7): list, add, update, delete; the newest notice is the one users see. */
export function NoticeManagerPage() {
  const { t } = useTranslation(['admin', 'shell']);
  const formats = useFormats();
  const client = useDataClient();
  const { message } = AntApp.useApp();
  const [page, setPage] = useState<{ list: Row[]; total: number }>({ list: [], total: 0 });
  const [editing, setEditing] = useState<NoticeRow | 'new' | null>(null);
  const lastQuery = useRef<TableQuery>({ page: 1, rows: 20 });

  const refresh = (query: TableQuery = lastQuery.current) => {
    lastQuery.current = query;
    client.notice
      .list(query)
      .then((data) => setPage({ list: data.list as Row[], total: data.total }))
      .catch(() => undefined);
  };

  const columns: DataTableColumn<Row>[] = [
    { id: 'text', header: t('notices.text'), cell: ({ row }) => <span className="admin-notice-text">{row.original.text}</span> },
    { id: 'updateTime', header: t('notices.updateTime'), cell: ({ row }) => formats.time.format(noticeTimeMs(row.original.updateTime)) },
    { id: 'author', header: t('notices.author'), cell: ({ row }) => row.original.author ?? '—' },
    {
      id: 'actions',
      header: t('users.actions'),
      cell: ({ row }) => (
        <Space size={4} className="admin-actions">
          <Button size="small" type="link" onClick={() => setEditing(row.original)}>
            {t('shell:common.edit')}
          </Button>
          <Popconfirm
            title={t('notices.confirmDelete')}
            onConfirm={() =>
              void client.notice
                .delete([row.original.id])
                .then(({ deleted }) => {
                  void message.success(t('notices.deleted', { count: deleted }));
                  refresh();
                })
                .catch(() => undefined)
            }
          >
            <Button size="small" type="link" danger>
              {t('notices.delete')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <Card
      title={t('shell:route.noticeManager')}
      extra={
        <Button type="primary" onClick={() => setEditing('new')}>
          {t('notices.add')}
        </Button>
      }
    >
      <Alert type="info" showIcon title={t('notices.hint')} className="admin-hint" />
      <DataTable<Row> columns={columns} rows={page.list} total={page.total} refresh={refresh} />
      {editing && (
        <NoticeDialog
          notice={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void message.success(t('notices.saved'));
            refresh();
          }}
        />
      )}
    </Card>
  );
}

function NoticeDialog({ notice, onClose, onSaved }: { notice: NoticeRow | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation(['admin', 'shell']);
  const client = useDataClient();
  const [form] = Form.useForm<{ text: string }>();
  return (
    <Modal
      open
      title={notice ? t('notices.edit') : t('notices.add')}
      onCancel={onClose}
      okText={t('shell:common.save')}
      cancelText={t('shell:common.cancel')}
      onOk={() => form.submit()}
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ text: notice?.text ?? '' }}
        onFinish={({ text }) =>
          void (notice ? client.notice.update({ id: notice.id, text }) : client.notice.add({ text })).then(onSaved).catch(() => undefined)
        }
      >
        <Form.Item name="text" label={t('notices.text')} rules={[{ required: true, whitespace: true, message: t('shell:common.required', { field: t('notices.text') }) }]}>
          <Input.TextArea rows={4} maxLength={NOTICE_TEXT_MAX} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}
