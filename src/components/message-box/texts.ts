import type { Lang } from '../dialog/texts';

export const MESSAGE_BOX_TEXTS = {
  zh: { confirm: '确定', cancel: '取消', invalid: '输入的数据不合法', title: '提示' },
  en: { confirm: 'OK', cancel: 'Cancel', invalid: 'the data entered is not valid', title: 'Notice' },
} as const satisfies Record<Lang, Record<string, string>>;
