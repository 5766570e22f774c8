import { DownloadOutlined } from '@ant-design/icons';
import { App, Button, Dropdown, Progress, Space, Tooltip, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EXPORT_MAX_ROWS } from '@contract/research';
import { isApiFailure } from '@workers/api';
import type { ExportFormat, ExportProgress } from '@workers/researchExport';
import { toLang } from '@/app/i18n';
import { download } from '@/components/download';
import { listenerOf } from '@/components/virtual-table/useListActor';
import { formatCount } from './format';

const FORMATS: readonly ExportFormat[] = ['xlsx', 'csv'];

/**
 * A research list's export in its toolbar: Excel or CSV of the page's query (written in the worker, page after page),
 * a progress bar counting the rows while it runs, and a cancel. `start` runs the export; `cancel` aborts it.
 */
export function ResearchExport({
  disabled,
  fileName,
  start,
  cancel,
}: {
  disabled: boolean;
  /** Without the extension. */
  fileName: string;
  start: (format: ExportFormat, onProgress: ExportProgress) => Promise<Blob>;
  cancel: () => Promise<void>;
}) {
  const { t, i18n } = useTranslation('research');
  const lang = toLang(i18n.language);
  const { message } = App.useApp();
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const runs = useRef(0);
  /** Whether an export runs (leaving the page stops it); `cancel` read when it does (a worker call is a new function each render). */
  const running = useRef(false);
  const cancelRef = useRef(cancel);
  cancelRef.current = cancel;
  useEffect(() => () => void (running.current && cancelRef.current().catch(() => undefined)), []);

  const run = async (format: ExportFormat) => {
    const seq = ++runs.current;
    let written = 0;
    running.current = true;
    setProgress({ done: 0, total: 0 });
    try {
      const file = await start(
        format,
        listenerOf((done: number, total: number) => {
          written = done;
          if (seq === runs.current) setProgress({ done, total });
        }),
      );
      if (seq !== runs.current) return;
      download(`${fileName}-${new Date().toISOString().slice(0, 10)}.${format}`, file);
      void message.success(t('export.done', { total: formatCount(lang, written) }));
    } catch (failure) {
      if (seq !== runs.current || (isApiFailure(failure) && failure.type === 'Aborted')) return;
      void message.error(isApiFailure(failure) ? failure.message : t('export.failed'));
    } finally {
      if (seq === runs.current) {
        running.current = false;
        setProgress(null);
      }
    }
  };
  if (progress) {
    const percent = progress.total > 0 ? Math.floor((progress.done / progress.total) * 100) : 0;
    return (
      <Space role="progressbar" aria-label={t('export.button')} aria-valuenow={percent}>
        <Progress percent={percent} size="small" style={{ width: 160 }} status="active" />
        <Typography.Text>{t('export.progress', { done: formatCount(lang, progress.done), total: progress.total > 0 ? formatCount(lang, progress.total) : '…' })}</Typography.Text>
        <Button
          size="small"
          onClick={() => {
            runs.current++;
            running.current = false;
            setProgress(null);
            void cancel();
          }}
        >
          {t('export.cancel')}
        </Button>
      </Space>
    );
  }
  return (
    <Tooltip title={t('export.hint', { max: formatCount(lang, EXPORT_MAX_ROWS) })}>
      <Dropdown disabled={disabled} menu={{ items: FORMATS.map((format) => ({ key: format, label: t(`export.${format}`) })), onClick: ({ key }) => void run(key as ExportFormat) }}>
        <Button icon={<DownloadOutlined />}>{t('export.button')}</Button>
      </Dropdown>
    </Tooltip>
  );
}
