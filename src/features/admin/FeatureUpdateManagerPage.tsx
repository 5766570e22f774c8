import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, App as AntApp, Button, Card, Form, Input, Modal, Popconfirm, Select, Space, Switch, Tag } from 'antd';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_FEATURE_UPDATE_TITLE, FEATURE_UPDATE_SHOW_DAYS, type FeatureUpdate, type FeatureUpdateItem, type LocalizedText } from '@contract/notice';
import { DataTable, type DataTableColumn } from '@/components/data-table/DataTable';
import type { TableQuery } from '@/components/data-table/pager';
import { useDataClient } from '@/app/dataClient';
import { calendarDate, timeFormat } from '@/app/formats';
import { textIn } from '@contract/errors';
import { toLang } from '@/app/i18n';
import { appRoutes, flattenRoutes } from '@/app/routes';
import './admin.css';

type Row = FeatureUpdate & Record<string, unknown>;
/** A line's `path` is kept through an edit: the dialog leaves the line out while that page is under construction. */
type FeatureUpdateForm = { startDate: string; title: LocalizedText; items: FeatureUpdateItem[]; active: boolean };
type Status = { key: 'showing' | 'scheduled' | 'ended' | 'inactive'; date?: string };

const DAY_MS = 86_400_000;

/** Today's date in China, where the sellers are: the start date is a China date too (contract/notice.ts). */
function chinaToday(now = Date.now()): string {
  return new Date(now + 8 * 3_600_000).toISOString().slice(0, 10);
}
function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/**
 * What a seller would see: shown from the start date while fewer than FEATURE_UPDATE_SHOW_DAYS days have passed
 * (seller-tool §4). Only the newest active one that has started is served, so an older "showing" one may be hidden by
 * a newer one; the list's order (newest start first) makes that plain.
 */
function statusOf(update: FeatureUpdate, today = chinaToday()): Status {
  if (!update.active) return { key: 'inactive' };
  if (update.startDate > today) return { key: 'scheduled', date: update.startDate };
  const lastDay = addDays(update.startDate, FEATURE_UPDATE_SHOW_DAYS - 1);
  return lastDay >= today ? { key: 'showing', date: lastDay } : { key: 'ended' };
}

const STATUS_COLORS: Record<Status['key'], string> = { showing: 'green', scheduled: 'blue', ended: 'default', inactive: 'default' };

/** The administrator publishes the feature-update dialog's announcements (seller-tool §2.4): start date, title, items in zh and en. */
export function FeatureUpdateManagerPage() {
  const { t, i18n } = useTranslation(['admin', 'shell']);
  const lang = toLang(i18n.language);
  const client = useDataClient();
  const { message } = AntApp.useApp();
  const [page, setPage] = useState<{ list: Row[]; total: number }>({ list: [], total: 0 });
  const [editing, setEditing] = useState<FeatureUpdate | 'new' | null>(null);
  const lastQuery = useRef<TableQuery>({ page: 1, rows: 20 });

  const refresh = (query: TableQuery = lastQuery.current) => {
    lastQuery.current = query;
    client.notice
      .listFeatureUpdates(query)
      .then((data) => setPage({ list: data.list as Row[], total: data.total }))
      .catch(() => undefined);
  };

  const remove = (update: FeatureUpdate) =>
    void client.notice
      .deleteFeatureUpdates([update.id])
      .then(({ deleted }) => {
        void message.success(t('featureUpdates.deleted', { count: deleted }));
        refresh();
      })
      .catch(() => undefined);

  const columns: DataTableColumn<Row>[] = [
    { id: 'startDate', header: t('featureUpdates.startDate'), cell: ({ row }) => <span className="admin-nowrap">{calendarDate(lang, row.original.startDate)}</span> },
    { id: 'title', header: t('featureUpdates.title'), cell: ({ row }) => <span className="admin-nowrap">{textIn(row.original.title, lang)}</span> },
    {
      id: 'items',
      header: t('featureUpdates.items'),
      cell: ({ row }) => (
        <ol className="admin-items">
          {row.original.items.map((item, index) => (
            <li key={index}>
              {textIn(item, lang)}
              {item.path && <Tag className="admin-item-path">{item.path}</Tag>}
            </li>
          ))}
        </ol>
      ),
    },
    {
      id: 'status',
      header: t('featureUpdates.status'),
      cell: ({ row }) => {
        const status = statusOf(row.original);
        return (
          <Tag color={STATUS_COLORS[status.key]} className="admin-nowrap">
            {t(`featureUpdates.${status.key}`, { date: status.date })}
          </Tag>
        );
      },
    },
    {
      id: 'updatedAt',
      header: t('featureUpdates.updatedAt'),
      cell: ({ row }) => <span className="admin-nowrap">{timeFormat(lang).format(row.original.updatedAt)}</span>,
    },
    {
      id: 'actions',
      header: t('users.actions'),
      cell: ({ row }) => (
        <Space size={4} className="admin-actions">
          <Button size="small" type="link" onClick={() => setEditing(row.original)} aria-label={`${t('shell:common.edit')} ${row.original.startDate}`}>
            {t('shell:common.edit')}
          </Button>
          <Popconfirm title={t('featureUpdates.confirmDelete')} onConfirm={() => remove(row.original)}>
            <Button size="small" type="link" danger aria-label={`${t('featureUpdates.delete')} ${row.original.startDate}`}>
              {t('featureUpdates.delete')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <Card
      title={t('shell:route.featureUpdateManager')}
      extra={
        <Button type="primary" onClick={() => setEditing('new')}>
          {t('featureUpdates.add')}
        </Button>
      }
    >
      <Alert type="info" showIcon title={t('featureUpdates.hint')} className="admin-hint" />
      <DataTable<Row> columns={columns} rows={page.list} total={page.total} refresh={refresh} />
      {editing && (
        <FeatureUpdateDialog
          update={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void message.success(t('featureUpdates.saved'));
            refresh();
          }}
        />
      )}
    </Card>
  );
}

type FeatureUpdateDialogProps = { update: FeatureUpdate | null; onClose: () => void; onSaved: () => void };

function FeatureUpdateDialog({ update, onClose, onSaved }: FeatureUpdateDialogProps) {
  const { t } = useTranslation(['admin', 'shell']);
  const client = useDataClient();
  const [form] = Form.useForm<FeatureUpdateForm>();
  const [saving, setSaving] = useState(false);
  const initial: FeatureUpdateForm = update
    ? { startDate: update.startDate, title: update.title, items: update.items, active: update.active }
    : { startDate: chinaToday(), title: DEFAULT_FEATURE_UPDATE_TITLE, items: [{ zh: '', en: '' }], active: true };
  const required = (field: string) => [{ required: true, whitespace: true, message: t('shell:common.required', { field }) }];
  // The pages a line may be about: every titled page of the menu, named as the menu names it.
  const pageOptions = useMemo(
    () =>
      flattenRoutes(appRoutes)
        .filter((route) => route.page && route.titleKey && !route.hidden && route.path.startsWith('/'))
        .map((route) => ({ value: route.path, label: `${t(`shell:${route.titleKey!}`)} · ${route.path}` })),
    [t],
  );
  // A line whose page is no longer in the menu keeps its path as it is.
  const options = [
    ...pageOptions,
    ...initial.items.filter((item) => item.path && !pageOptions.some((o) => o.value === item.path)).map((item) => ({ value: item.path!, label: item.path! })),
  ];

  const save = async (values: FeatureUpdateForm) => {
    setSaving(true);
    try {
      if (update) await client.notice.updateFeatureUpdate({ id: update.id, ...values });
      else await client.notice.addFeatureUpdate(values);
      onSaved();
    } catch {
      // The worker already showed the server's message.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      width={720}
      title={update ? t('featureUpdates.edit') : t('featureUpdates.add')}
      onCancel={onClose}
      okText={t('shell:common.save')}
      cancelText={t('shell:common.cancel')}
      confirmLoading={saving}
      onOk={() => form.submit()}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={initial} onFinish={(values) => void save(values)}>
        <Space wrap align="start">
          <Form.Item name="startDate" label={t('featureUpdates.startDate')} rules={[{ required: true, message: t('featureUpdates.dateInvalid') }]}>
            <Input type="date" />
          </Form.Item>
          <Form.Item name="active" label={t('featureUpdates.active')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Space>
        <div className="admin-pair">
          <Form.Item name={['title', 'zh']} label={t('featureUpdates.titleZh')} rules={required(t('featureUpdates.titleZh'))}>
            <Input maxLength={500} />
          </Form.Item>
          <Form.Item name={['title', 'en']} label={t('featureUpdates.titleEn')} rules={required(t('featureUpdates.titleEn'))}>
            <Input maxLength={500} />
          </Form.Item>
        </div>
        <Form.List name="items">
          {(fields, { add, remove }) => (
            <fieldset className="admin-fieldset">
              <legend>{t('featureUpdates.items')}</legend>
              {fields.map((field, index) => (
                <div key={field.key} className="admin-pair admin-pair--removable">
                  <Form.Item name={[field.name, 'zh']} label={t('featureUpdates.itemZh', { n: index + 1 })} rules={required(t('featureUpdates.itemZh', { n: index + 1 }))}>
                    <Input.TextArea autoSize={{ minRows: 1, maxRows: 4 }} maxLength={500} />
                  </Form.Item>
                  <Form.Item name={[field.name, 'en']} label={t('featureUpdates.itemEn', { n: index + 1 })} rules={required(t('featureUpdates.itemEn', { n: index + 1 }))}>
                    <Input.TextArea autoSize={{ minRows: 1, maxRows: 4 }} maxLength={500} />
                  </Form.Item>
                  <Button
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    disabled={fields.length === 1}
                    aria-label={t('featureUpdates.removeItem', { n: index + 1 })}
                    title={t('featureUpdates.removeItem', { n: index + 1 })}
                    onClick={() => remove(field.name)}
                  />
                  <Form.Item
                    name={[field.name, 'path']}
                    label={t('featureUpdates.itemPath', { n: index + 1 })}
                    tooltip={t('featureUpdates.itemPathHint')}
                    className="admin-item-page"
                  >
                    <Select allowClear showSearch={{ optionFilterProp: 'label' }} options={options} placeholder={t('featureUpdates.itemPathNone')} />
                  </Form.Item>
                </div>
              ))}
              {/* The server takes at most 20 items (contract/notice.ts). */}
              <Button type="dashed" block icon={<PlusOutlined />} disabled={fields.length >= 20} onClick={() => add({ zh: '', en: '' })}>
                {t('featureUpdates.addItem')}
              </Button>
            </fieldset>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}
