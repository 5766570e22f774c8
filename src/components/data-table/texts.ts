import type { Lang } from '../dialog/texts';

/** zh and en as everywhere, plus the shell's further languages (seller-tool §2.3: the table's labels are shell texts). */
export type TableLang = Lang | 'es' | 'ja' | 'pt';

export const DATA_TABLE_TEXTS = {
  zh: { query: '查询', reset: '重置', total: (n: number) => `共 ${n} 条`, empty: '暂无数据', selectAll: '全选', selectRow: '选择' },
  en: { query: 'Query', reset: 'Reset', total: (n: number) => `Total ${n}`, empty: 'No data', selectAll: 'Select all', selectRow: 'Select' },
  es: { query: 'Buscar', reset: 'Restablecer', total: (n: number) => `Total ${n}`, empty: 'Sin datos', selectAll: 'Seleccionar todo', selectRow: 'Seleccionar' },
  ja: { query: '検索', reset: 'リセット', total: (n: number) => `全 ${n} 件`, empty: 'データがありません', selectAll: 'すべて選択', selectRow: '選択' },
  pt: { query: 'Consultar', reset: 'Redefinir', total: (n: number) => `Total ${n}`, empty: 'Sem dados', selectAll: 'Selecionar tudo', selectRow: 'Selecionar' },
} as const satisfies Record<TableLang, Record<string, unknown>>;
