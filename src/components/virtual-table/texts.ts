import type { Lang } from '../dialog/texts';

export const VIRTUAL_TABLE_TEXTS = {
  zh: {
    selectAll: (n: number) => `全选 ${n} 条`,
    selectRow: (n: number) => `选择第 ${n} 行`,
    resize: (column: string) => `调整“${column}”列宽`,
  },
  en: {
    selectAll: (n: number) => `Select all ${n} rows`,
    selectRow: (n: number) => `Select row ${n}`,
    resize: (column: string) => `Resize the ${column} column`,
  },
} as const satisfies Record<Lang, Record<string, unknown>>;
