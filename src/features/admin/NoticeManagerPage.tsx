import { Alert, App as AntApp, Button, Card, Form, Input, Modal, Popconfirm, Space } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NOTICE_TEXT_MAX, type NoticeRow } from '@contract/notice';
import { DataTable, type DataTableColumn } from '@/components/data-table/DataTable';
import type { TableQuery } from '@/components/data-table/pager';
import { useDataClient } from '@/app/dataClient';
import { toAppLang } from '@/app/i18n';
import './admin.css';

type Row = NoticeRow & Record<string, unknown>;

/** The administrator's notice manager (spec §7): list, add, update, delete; the newest notice is the one users see. */
export function NoticeManagerPage() {
  const { t, i18n } = useTranslation();
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
    { id: 'text', header: t('admin.notices.text'), cell: ({ row }) => <span className="admin-notice-text">{row.original.text}</span> },
    { id: 'updateTime', header: t('admin.notices.updateTime'), cell: ({ row }) => row.original.updateTime },
    { id: 'author', header: t('admin.notices.author'), cell: ({ row }) => row.original.author ?? '—' },
    {
      id: 'actions',
      header: t('admin.users.actions'),
      cell: ({ row }) => (
        <Space size={4} className="admin-actions">
          <Button size="small" type="link" onClick={() => setEditing(row.original)}>
            {t('common.edit')}
          </Button>
          <Popconfirm
            title={t('admin.notices.confirmDelete')}
            onConfirm={() =>
              void client.notice
                .delete([row.original.id])
                .then(({ deleted }) => {
                  void message.success(t('admin.notices.deleted', { count: deleted }));
                  refresh();
                })
                .catch(() => undefined)
            }
          >
            <Button size="small" type="link" danger>
              {t('admin.notices.delete')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <Card
      title={t('route.noticeManager')}
      extra={
        <Button type="primary" onClick={() => setEditing('new')}>
          {t('admin.notices.add')}
        </Button>
      }
    >
      <Alert type="info" showIcon title={t('admin.notices.hint')} className="admin-hint" />
      <DataTable<Row> lang={toAppLang(i18n.language)} columns={columns} rows={page.list} total={page.total} refresh={refresh} />
      {editing && (
        <NoticeDialog
          notice={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void message.success(t('admin.notices.saved'));
            refresh();
          }}
        />
      )}
    </Card>
  );
}

function NoticeDialog({ notice, onClose, onSaved }: { notice: NoticeRow | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const client = useDataClient();
  const [form] = Form.useForm<{ text: string }>();
  return (
    <Modal
      open
      title={notice ? t('admin.notices.edit') : t('admin.notices.add')}
      onCancel={onClose}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
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
        <Form.Item name="text" label={t('admin.notices.text')} rules={[{ required: true, whitespace: true, message: t('common.required', { field: t('admin.notices.text') }) }]}>
          <Input.TextArea rows={4} maxLength={NOTICE_TEXT_MAX} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}
