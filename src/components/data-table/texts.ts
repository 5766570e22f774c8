import type { Lang } from '../dialog/texts';

export const DATA_TABLE_TEXTS = {
  zh: { query: '查询', reset: '重置', total: (n: number) => `共 ${n} 条`, empty: '暂无数据', selectAll: '全选', selectRow: '选择' },
  en: { query: 'Query', reset: 'Reset', total: (n: number) => `Total ${n}`, empty: 'No data', selectAll: 'Select all', selectRow: 'Select' },
} as const satisfies Record<Lang, Record<string, unknown>>;
