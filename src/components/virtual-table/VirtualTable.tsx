import { tableFeatures, useTable, type ColumnDef, type RowData } from '@tanstack/react-table';
import { observeElementRect, useVirtualizer } from '@tanstack/react-virtual';
import { Checkbox } from 'antd';
import { useEffect, useMemo, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import type { Lang } from '../dialog/texts';
import { loadLayout, moveColumn, saveLayout, type ColumnLayout } from './layout';
import { scrollScale } from './scroll';
import { isSelected, selectedCount, toggleAll, toggleRow, type RowSelection } from './selection';
import { VIRTUAL_TABLE_TEXTS } from './texts';
import './virtualTable.css';

export const virtualTableFeatures = tableFeatures({});

export type VirtualTableColumn<T extends RowData> = {
  id: string;
  header: string;
  width?: number;
  align?: 'left' | 'right';
  sortable?: boolean;
  cell: (row: T) => ReactNode;
};

export type VirtualTableSort = { column: string; direction: 'asc' | 'desc' } | null;

export type VirtualTableProps<T extends RowData> = {
  /** Column layout is saved under this key (include the user id: layouts are per user). */
  storageKey: string;
  columns: VirtualTableColumn<T>[];
  /** Rows in the whole result; only the ones on screen are ever asked for. */
  total: number;
  /** The row at a result index, or undefined while its window is being fetched. */
  rowAt: (index: number) => T | undefined;
  rowKey: (row: T) => string;
  /** The rows on screen (plus overscan) changed: fetch their window. */
  onRangeChange: (start: number, end: number) => void;
  selection?: RowSelection;
  onSelectionChange?: (selection: RowSelection) => void;
  sort?: VirtualTableSort;
  onSortChange?: (sort: VirtualTableSort) => void;
  onRowOpen?: (row: T) => void;
  rowHeight?: number;
  height?: CSSProperties['height'];
  label: string;
  lang?: Lang;
  /** Shown over the body when there are no rows (loading, empty, error). */
  overlay?: ReactNode;
};

const SELECT_WIDTH = 44;
const DEFAULT_WIDTH = 140;
const MIN_WIDTH = 60;

/**
 * The big-list table: TanStack Table for the columns, TanStack Virtual for the rows (the virtualized-rows example),
 * with a scaled scroll so a million rows stay reachable, a sticky header, resizable and re-orderable columns saved
 * per user, selection over the whole result, and grid semantics (role="grid", aria-rowcount = result total,
 * aria-rowindex per row) for assistive technology and automation.
 */
export function VirtualTable<T extends RowData>({
  storageKey,
  columns,
  total,
  rowAt,
  rowKey,
  onRangeChange,
  selection,
  onSelectionChange,
  sort = null,
  onSortChange,
  onRowOpen,
  rowHeight = 36,
  height = 560,
  label,
  lang = 'zh',
  overlay,
}: VirtualTableProps<T>) {
  const texts = VIRTUAL_TABLE_TEXTS[lang];
  const scrollRef = useRef<HTMLDivElement>(null);
  const [viewport, setViewport] = useState(0);
  const columnIds = useMemo(() => columns.map((column) => column.id), [columns]);
  const [layout, setLayout] = useState<ColumnLayout>(() => loadLayout(storageKey, columnIds));
  useEffect(() => setLayout(loadLayout(storageKey, columnIds)), [storageKey, columnIds]);
  const updateLayout = (next: ColumnLayout) => {
    setLayout(next);
    saveLayout(storageKey, next);
  };

  const scale = scrollScale(total * rowHeight, viewport);
  const ratioRef = useRef(scale.ratio);
  ratioRef.current = scale.ratio;

  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 10,
    observeElementRect: (instance, callback) =>
      observeElementRect(instance, (rect) => {
        setViewport(rect.height);
        callback(rect);
      }),
    // The element scrolls over at most MAX_SCROLL_PX; the virtualizer thinks in full-list pixels.
    observeElementOffset: (instance, callback) => {
      const element = instance.scrollElement;
      if (!element) return undefined;
      const report = () => callback(element.scrollTop * ratioRef.current, true);
      report();
      element.addEventListener('scroll', report, { passive: true });
      return () => element.removeEventListener('scroll', report);
    },
    scrollToFn: (offset, { behavior }, instance) => {
      instance.scrollElement?.scrollTo({ top: offset / ratioRef.current, behavior });
    },
  });

  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? -1;
  // A new onRangeChange means a new result: its rows on screen are fetched even when the range stayed put.
  useEffect(() => {
    if (last >= first) onRangeChange(first, last + 1);
  }, [first, last, total, onRangeChange]);

  const ordered = useMemo(() => {
    const byId = new Map(columns.map((column) => [column.id, column]));
    return layout.order.map((id) => byId.get(id)).filter((column): column is VirtualTableColumn<T> => column !== undefined);
  }, [columns, layout.order]);
  const widthOf = (column: VirtualTableColumn<T>) => layout.widths[column.id] ?? column.width ?? DEFAULT_WIDTH;
  const selectable = selection !== undefined && onSelectionChange !== undefined;
  const totalWidth = ordered.reduce((sum, column) => sum + widthOf(column), selectable ? SELECT_WIDTH : 0);

  const loaded = items.map((item) => rowAt(item.index));
  const data = useMemo(() => loaded.filter((row): row is T => row !== undefined), [loaded.map((row) => (row ? rowKey(row) : '')).join('|')]); // eslint-disable-line react-hooks/exhaustive-deps
  const columnDefs = useMemo<ColumnDef<typeof virtualTableFeatures, T>[]>(
    () => ordered.map((column) => ({ id: column.id, header: column.header, accessorFn: (row: T) => row, cell: (info) => column.cell(info.row.original) })),
    [ordered],
  );
  const table = useTable({ features: virtualTableFeatures, columns: columnDefs, data, getRowId: (row) => rowKey(row) });
  const tableRows = new Map(table.getRowModel().rows.map((row) => [row.id, row]));

  // A scaled scroll moves rows by the full-list offset; they are placed relative to what the element scrolled.
  const scrolled = scrollRef.current?.scrollTop ?? 0;
  const shift = (virtualizer.scrollOffset ?? 0) - scrolled;
  const count = selection ? selectedCount(selection, total) : 0;

  const startResize = (column: VirtualTableColumn<T>, startX: number) => {
    const startWidth = widthOf(column);
    let latest = layout;
    const move = (event: PointerEvent) => {
      latest = { ...layout, widths: { ...layout.widths, [column.id]: Math.max(MIN_WIDTH, startWidth + event.clientX - startX) } };
      setLayout(latest);
    };
    const up = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      updateLayout(latest);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
  };

  const cycleSort = (column: VirtualTableColumn<T>) => {
    if (!column.sortable || !onSortChange) return;
    if (sort?.column !== column.id) onSortChange({ column: column.id, direction: 'asc' });
    else if (sort.direction === 'asc') onSortChange({ column: column.id, direction: 'desc' });
    else onSortChange(null);
  };

  return (
    <div
      ref={scrollRef}
      className="virtual-table"
      role="grid"
      aria-label={label}
      aria-rowcount={total}
      aria-colcount={ordered.length + (selectable ? 1 : 0)}
      aria-multiselectable={selectable || undefined}
      style={{ height }}
      tabIndex={0}
    >
      <div className="virtual-table__inner" style={{ width: totalWidth, height: scale.scrollHeight + rowHeight }}>
        <div className="virtual-table__header" role="row" aria-rowindex={1} style={{ height: rowHeight, width: totalWidth }}>
          {selectable && (
            <div role="columnheader" className="virtual-table__cell virtual-table__select" style={{ width: SELECT_WIDTH }}>
              <Checkbox
                aria-label={texts.selectAll(total)}
                checked={count > 0 && count === total}
                indeterminate={count > 0 && count < total}
                disabled={total === 0}
                onChange={() => onSelectionChange(toggleAll(selection, total))}
              />
            </div>
          )}
          {table.getHeaderGroups()[0]?.headers.map((header) => {
            const column = ordered.find((c) => c.id === header.column.id)!;
            const sorted = sort?.column === column.id ? sort.direction : null;
            return (
              <div
                key={header.id}
                role="columnheader"
                aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : column.sortable ? 'none' : undefined}
                className={`virtual-table__cell virtual-table__th${column.sortable ? ' is-sortable' : ''}`}
                style={{ width: widthOf(column), justifyContent: column.align === 'right' ? 'flex-end' : undefined }}
                draggable
                onDragStart={(event) => event.dataTransfer.setData('text/x-column', column.id)}
                onDragOver={(event) => event.preventDefault()}
                onDrop={(event) => {
                  const moved = event.dataTransfer.getData('text/x-column');
                  if (moved) updateLayout({ ...layout, order: moveColumn(layout.order, moved, column.id) });
                }}
              >
                <button type="button" className="virtual-table__sort" onClick={() => cycleSort(column)} disabled={!column.sortable}>
                  <table.FlexRender header={header} />
                  {sorted && <span aria-hidden="true">{sorted === 'asc' ? ' ▲' : ' ▼'}</span>}
                </button>
                <span
                  className="virtual-table__resizer"
                  role="separator"
                  aria-orientation="vertical"
                  aria-label={texts.resize(column.header)}
                  onPointerDown={(event) => {
                    event.preventDefault();
                    event.stopPropagation();
                    startResize(column, event.clientX);
                  }}
                />
              </div>
            );
          })}
        </div>
        {items.map((item, position) => {
          const row = loaded[position];
          const key = row ? rowKey(row) : null;
          const tableRow = key ? tableRows.get(key) : undefined;
          const chosen = key !== null && selection !== undefined && isSelected(selection, key);
          return (
            <div
              key={item.key}
              role="row"
              aria-rowindex={item.index + 2}
              aria-selected={selectable ? chosen : undefined}
              aria-busy={row ? undefined : true}
              className={`virtual-table__row${chosen ? ' is-selected' : ''}${item.index % 2 ? ' is-odd' : ''}`}
              style={{ height: rowHeight, width: totalWidth, transform: `translateY(${item.start - shift + rowHeight}px)` }}
              onDoubleClick={() => row && onRowOpen?.(row)}
            >
              {selectable && (
                <div role="gridcell" className="virtual-table__cell virtual-table__select" style={{ width: SELECT_WIDTH }}>
                  {key !== null && (
                    <Checkbox aria-label={texts.selectRow(item.index + 1)} checked={chosen} onChange={() => onSelectionChange(toggleRow(selection, key))} />
                  )}
                </div>
              )}
              {tableRow
                ? tableRow.getAllCells().map((cell) => {
                    const column = ordered.find((c) => c.id === cell.column.id)!;
                    return (
                      <div
                        key={cell.id}
                        role="gridcell"
                        className="virtual-table__cell"
                        style={{ width: widthOf(column), justifyContent: column.align === 'right' ? 'flex-end' : undefined }}
                        onClick={column.id === ordered[0]?.id ? () => row && onRowOpen?.(row) : undefined}
                      >
                        <table.FlexRender cell={cell} />
                      </div>
                    );
                  })
                : ordered.map((column) => (
                    <div key={column.id} role="gridcell" className="virtual-table__cell" style={{ width: widthOf(column) }}>
                      <span className="virtual-table__placeholder" />
                    </div>
                  ))}
            </div>
          );
        })}
      </div>
      {overlay && <div className="virtual-table__overlay">{overlay}</div>}
    </div>
  );
}
