export type Lang = 'zh' | 'en';

export const DIALOG_TEXTS = {
  zh: { confirm: '确定', cancel: '取消' },
  en: { confirm: 'Confirm', cancel: 'Cancel' },
} as const satisfies Record<Lang, Record<string, string>>;
