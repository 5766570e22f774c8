import type { Lang } from '@contract/errors';
import { amountFormat } from '@/app/formats';

const whole = (lang: Lang) => new Intl.NumberFormat(lang === 'zh' ? 'zh-CN' : 'en-US', { maximumFractionDigits: 0 });
export const formatRub = (lang: Lang, value: number) => `${amountFormat(lang).format(value)} ₽`;
export const formatCount = (lang: Lang, value: number) => whole(lang).format(value);
export const formatGrowth = (value: number | null) => (value === null ? '—' : `${value > 0 ? '+' : ''}${value.toFixed(1)}%`);
export const formatDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
