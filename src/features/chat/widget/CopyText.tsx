import { Button, message as antdMessage } from 'antd';
import type { Translate } from './translate';

/** Spec §2: text carrying one of these codes gets the prominent button form (they are tracking-number prefixes). */
const HIGHLIGHT_CODES = ['CN', 'LV', 'HK', 'LK', 'LQ', 'LD'];

export function isHighlightedCopy(text: string): boolean {
  return HIGHLIGHT_CODES.some((code) => text.includes(code));
}

type CopyTextProps = { text: string; t: Translate };

export function CopyText({ text, t }: CopyTextProps) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      void antdMessage.success(t('copySucceeded'));
    } catch {
      void antdMessage.error(t('copyFailed'));
    }
  };
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
