import { BugOutlined } from '@ant-design/icons';
import { Badge, Button, Empty, Modal, Table } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { clearErrorLog, useErrorLog } from '../errorLog';
import { useFormats } from '../formats';

/** The navbar's badge: shown once something went wrong, it opens the error log (spec §2.3). */
export function ErrorLogButton() {
  const { t } = useTranslation();
  const formats = useFormats();
  const entries = useErrorLog();
  const [open, setOpen] = useState(false);
  if (entries.length === 0) return null;
  return (
    <>
      <Badge count={entries.length} size="small" offset={[-4, 4]}>
        <Button type="text" danger icon={<BugOutlined />} aria-label={t('errorLog.title')} title={t('errorLog.title')} onClick={() => setOpen(true)} />
      </Badge>
      <Modal
        open={open}
        title={t('errorLog.title')}
        width="70%"
        onCancel={() => setOpen(false)}
        footer={[
          <Button key="clear" danger onClick={clearErrorLog}>
            {t('errorLog.clear')}
          </Button>,
        ]}
      >
        {entries.length === 0 ? (
          <Empty description={t('errorLog.empty')} />
        ) : (
          <Table
            size="small"
            rowKey={(entry) => `${entry.time}-${entry.error}`}
            pagination={false}
            dataSource={entries}
            columns={[
              { title: t('errorLog.time'), dataIndex: 'time', render: (time: number) => formats.seconds.format(time) },
              { title: t('errorLog.message'), dataIndex: 'error' },
              { title: t('errorLog.info'), dataIndex: 'info' },
              { title: t('errorLog.url'), dataIndex: 'url' },
            ]}
          />
        )}
      </Modal>
    </>
  );
}
