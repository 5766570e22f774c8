import { CopyOutlined } from '@ant-design/icons';
import { Button, message as antdMessage } from 'antd';
import type { Translate } from './translate';

/** Spec §2: text carrying one of these codes gets the prominent button form (they are tracking-number prefixes). */
const HIGHLIGHT_CODES = ['CN', 'LV', 'HK', 'LK', 'LQ', 'LD'];

export function isHighlightedCopy(text: string): boolean {
  return HIGHLIGHT_CODES.some((code) => text.includes(code));
}

type CopyTextProps = { text: string; t: Translate };

/**
 * The browser's clipboard needs a secure page (https or localhost); a back office opened at a LAN address over http
 * has none, and there the old copy command still works.
 */
function copyByCommand(text: string): boolean {
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
  }
}

/** Copies the text and says whether it worked (spec §2: "copy succeeded" / "copy failed"). */
export async function copyToClipboard(text: string, t: Translate): Promise<void> {
  let copied: boolean;
  try {
    if (!navigator.clipboard) throw new Error('no clipboard');
    await navigator.clipboard.writeText(text);
    copied = true;
  } catch {
    copied = copyByCommand(text);
  }
  if (copied) void antdMessage.success(t('copySucceeded'));
  else void antdMessage.error(t('copyFailed'));
}

export function CopyText({ text, t }: CopyTextProps) {
  const copy = () => copyToClipboard(text, t);
  return isHighlightedCopy(text) ? (
    <Button size="small" type="primary" ghost onClick={copy}>
      {t('copy')}
    </Button>
  ) : (
    <Button size="small" type="text" aria-label={t('copy')} icon={<CopyOutlined aria-hidden />} onClick={copy} />
  );
}
