import { Select, Spin, Typography } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AttributeValue, DictionaryValue } from '@contract/create';
import type { OzonCatalog, ValuesQuery } from './catalog';

type DictionarySelectProps = {
  catalog: OzonCatalog;
  query: Omit<ValuesQuery, 'search' | 'lastValueId'>;
  value: AttributeValue[];
  onChange: (values: AttributeValue[]) => void;
  multiple: boolean;
  label: string;
  invalid: boolean;
  disabled?: boolean;
};

const SEARCH_DELAY_MS = 300;
/** Pixels from the list's end at which the next page is asked for. */
const LOAD_AHEAD_PX = 48;

type Options = { values: DictionaryValue[]; hasNext: boolean; search: string };

/**
 * One dictionary attribute: Ozon's values searched as the seller types (the server asks Ozon's search) and, without
 * a search, paged by `last_value_id` as the list scrolls: a dictionary may hold tens of thousands of values.
 */
export function DictionarySelect({ catalog, query, value, onChange, multiple, label, invalid, disabled }: DictionarySelectProps) {
  const { t } = useTranslation('attributeForm');
  const [options, setOptions] = useState<Options>({ values: [], hasNext: true, search: '' });
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);
  const request = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const { categoryId, typeId, attributeId } = query;

  const load = useCallback(
    async (search: string, after: DictionaryValue[]) => {
      const id = ++request.current;
      setLoading(true);
      setFailed(false);
      try {
        const last = after[after.length - 1];
        const page = await catalog.values({ categoryId, typeId, attributeId, ...(search ? { search } : last ? { lastValueId: last.id } : {}) });
        if (id !== request.current) return;
        setOptions({ values: [...after, ...page.values], hasNext: page.hasNext, search });
      } catch {
        if (id === request.current) setFailed(true);
      } finally {
        if (id === request.current) setLoading(false);
      }
    },
    [catalog, categoryId, typeId, attributeId],
  );

  useEffect(() => {
    setOptions({ values: [], hasNext: true, search: '' });
    request.current++;
    return () => {
      if (timer.current) clearTimeout(timer.current);
    };
  }, [categoryId, typeId, attributeId]);

  const onSearch = (text: string) => {
    if (timer.current) clearTimeout(timer.current);
    const search = text.trim();
    timer.current = setTimeout(() => void load(search, []), search ? SEARCH_DELAY_MS : 0);
  };
  const onOpenChange = (open: boolean) => {
    if (open && options.values.length === 0 && !loading) void load('', []);
  };
  const onPopupScroll = (event: React.UIEvent<HTMLDivElement>) => {
    const list = event.currentTarget;
    if (loading || options.search || !options.hasNext) return;
    if (list.scrollTop + list.clientHeight >= list.scrollHeight - LOAD_AHEAD_PX) void load('', options.values);
  };

  // The chosen values stay shown with their texts even when the loaded page does not hold them.
  const known = new Set(options.values.map((v) => v.id));
  const chosen = value.filter((v) => v.dictionaryValueId !== undefined && !known.has(v.dictionaryValueId));
  const selectOptions = [
    ...chosen.map((v) => ({ value: v.dictionaryValueId!, label: v.value, info: '' })),
    ...options.values.map((v) => ({ value: v.id, label: v.value, info: v.info && v.info !== v.value ? v.info : '' })),
  ];
  const selected = value.filter((v) => v.dictionaryValueId !== undefined).map((v) => ({ value: v.dictionaryValueId!, label: v.value }));
  const change = (next: { value: number; label?: React.ReactNode } | { value: number; label?: React.ReactNode }[] | undefined) => {
    const list = next === undefined ? [] : Array.isArray(next) ? next : [next];
    onChange(
      list.map((item) => {
        const found = options.values.find((v) => v.id === item.value) ?? value.find((v) => v.dictionaryValueId === item.value);
        const text = found ? found.value : String(item.label ?? item.value);
        return { dictionaryValueId: item.value, value: text };
      }),
    );
  };

  return (
    <Select
      aria-label={label}
      mode={multiple ? 'multiple' : undefined}
      labelInValue
      allowClear
      disabled={disabled}
      status={invalid ? 'error' : undefined}
      placeholder={t('dictionaryPlaceholder')}
      value={multiple ? selected : selected[0]}
      onChange={change}
      showSearch={{ filterOption: false, onSearch }}
      onOpenChange={onOpenChange}
      onPopupScroll={onPopupScroll}
      options={selectOptions}
      optionRender={(option) => (
        <span>
          {option.data.label}
          {option.data.info ? <Typography.Text type="secondary"> · {option.data.info}</Typography.Text> : null}
        </span>
      )}
      notFoundContent={loading ? <Spin size="small" /> : failed ? t('dictionaryFailed') : t('dictionaryEmpty')}
      popupRender={(menu) => (
        <>
          {menu}
          {options.values.length > 0 && (loading || (options.hasNext && !options.search)) ? (
            <Typography.Text type="secondary" style={{ display: 'block', padding: '4px 12px', fontSize: 12 }}>
              {loading ? t('dictionaryLoading') : t('dictionaryMore')}
            </Typography.Text>
          ) : null}
        </>
      )}
      style={{ width: '100%' }}
    />
  );
}
