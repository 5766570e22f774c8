import { Button, message as antdMessage } from 'antd';
import type { Translate } from './translate';

/** Spec §2: text carrying one of these codes gets the prominent button form (they are tracking-number prefixes). */
const HIGHLIGHT_CODES = ['CN', 'LV', 'HK', 'LK', 'LQ', 'LD'];

export function isHighlightedCopy(text: string): boolean {
  return HIGHLIGHT_CODES.some((code) => text.includes(code));
}

type CopyTextProps = { text: string; t: Translate };

/** Copies the text and says whether it worked (spec §2: "copy succeeded" / "copy failed"). */
export async function copyToClipboard(text: string, t: Translate): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    void antdMessage.success(t('copySucceeded'));
  } catch {
    void antdMessage.error(t('copyFailed'));
  }
}

export function CopyText({ text, t }: CopyTextProps) {
  const copy = () => copyToClipboard(text, t);
  return isHighlightedCopy(text) ? (
    <Button size="small" type="primary" ghost onClick={copy}>
      {t('copy')}
    </Button>
  ) : (
    <Button size="small" type="text" aria-label={t('copy')} onClick={copy}>
      ⧉
    </Button>
  );
}
