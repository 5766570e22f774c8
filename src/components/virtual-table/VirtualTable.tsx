import { tableFeatures, useTable, type ColumnDef, type RowData } from '@tanstack/react-table';
import { useVirtualizer, type Rect, type Virtualizer } from '@tanstack/react-virtual';
import { Checkbox } from 'antd';
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import type { AppLang } from '@/app/i18n';
import { loadLayout, moveColumn, saveLayout, type ColumnLayout } from './layout';
import { scrollScale } from './scroll';
import { isSelected, selectedCount, toggleAll, toggleRow, type RowSelection } from './selection';
import { useComponentTexts, type ComponentsT } from '../useComponentTexts';
import { useLatest } from '../useLatest';
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
  /**
   * Tells the table that rows behind `rowAt` arrived, so only the table body renders again (not the page around
   * it). Without it the table re-reads `rowAt` when its parent renders it.
   */
  subscribeRows?: (onRowsChanged: () => void) => () => void;
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
  /** The language of its own labels when not the app's (useComponentTexts). */
  lang?: AppLang;
  /** Shown over the body when there are no rows (loading, empty, error). */
  overlay?: ReactNode;
  /** The result's rows are still coming in (its total and first rows are known): the grid says it is busy. */
  busy?: boolean;
};

const SELECT_WIDTH = 44;
const DEFAULT_WIDTH = 140;
const MIN_WIDTH = 60;
/**
 * Rows per virtual item. TanStack Virtual lays out every item whenever the count changes (a loop over all of them
 * with a Map lookup each): at a million rows in blocks of four that was 10-37 ms of CPU, paid again each time a load
 * or a filter moved the total. In blocks of 64 a million rows are 15,625 items. The virtualizer keeps the scroll
 * offset and the blocks in view; rows have one fixed height, so the rows drawn are the viewport's, cut out of those
 * blocks (`visibleRows`), and a scroll within a block renders them too (`report` below).
 */
const BLOCK_ROWS = 64;
/** Rows drawn beyond each edge of the viewport. A fast scroll jumps past any overscan, so more only costs render time. */
const OVERSCAN_ROWS = 2;
/** Blocks beyond each edge of the viewport: none (rows are cut out of the blocks in view). */
const OVERSCAN_BLOCKS = 0;
const NO_ROWS: never[] = [];
const SELECT_STYLE: CSSProperties = { width: SELECT_WIDTH };
/** Rows laid out before the viewport's size is first observed, when its height is not a number of pixels. */
const INITIAL_ROWS = 24;
/** Scroll events closer than this (a frame and a half at 60 Hz) are one continuous scroll. */
const SCROLLING_GAP_MS = 25;
/** Columns drawn beyond each side of the viewport, so a short sideways scroll finds its cells already there. */
const OVERSCAN_COLUMNS = 1;

/** The data columns drawn: `ordered` from `from` to `to`, the first of them pushed right past those skipped. */
type ColumnWindow = { from: number; to: number; firstStyle: CSSProperties | undefined };

/**
 * The columns a viewport `width` wide shows when scrolled `left` sideways: [first, last] indexes into the columns
 * whose left edges are `starts` (row pixels, the select column included).
 */
function columnsInView(starts: readonly number[], widths: readonly number[], left: number, width: number): [number, number] {
  if (starts.length === 0) return [0, -1];
  let first = 0;
  while (first < starts.length - 1 && starts[first]! + widths[first]! <= left) first++;
  let last = first;
  while (last < starts.length - 1 && starts[last + 1]! < left + width) last++;
  return [first, last];
}

/** The viewport's width before it is observed: the window's (the table is never wider), or every column. */
const guessedWidth = () => (typeof window === 'undefined' ? Number.POSITIVE_INFINITY : window.innerWidth);

/**
 * The viewport's size from a ResizeObserver alone. TanStack Virtual's own observer also reads clientWidth and
 * clientHeight as the table mounts: a forced layout of the whole page inside the commit that mounts it (15-25 ms
 * at a cold start). The observer reports after the browser's own layout and before it paints, so the first frame
 * still has the right rows. Where there is no ResizeObserver the size is read at once.
 */
function observeViewport(instance: Virtualizer<HTMLDivElement, Element>, callback: (rect: Rect) => void): (() => void) | undefined {
  const element = instance.scrollElement;
  const view = instance.targetWindow;
  if (!element || !view) return undefined;
  const report = () => callback({ width: element.clientWidth, height: element.clientHeight });
  if (!view.ResizeObserver) {
    report();
    return () => undefined;
  }
  const observer = new view.ResizeObserver(report);
  observer.observe(element, { box: 'content-box' });
  return () => observer.disconnect();
}

/**
 * The rows to draw, first to last (last < first: none): those the viewport shows at `offset` (full-list pixels), with
 * OVERSCAN_ROWS beyond each edge, within the blocks the virtualizer has in view.
 */
function visibleRows(blocks: readonly { index: number }[], offset: number, viewport: number, rowHeight: number, total: number): [number, number] {
  if (blocks.length === 0 || total === 0) return [0, -1];
  const from = Math.max(blocks[0]!.index * BLOCK_ROWS, Math.floor(offset / rowHeight) - OVERSCAN_ROWS);
  const to = Math.min(total, (blocks[blocks.length - 1]!.index + 1) * BLOCK_ROWS, Math.ceil((offset + viewport) / rowHeight) + OVERSCAN_ROWS);
  return [from, to - 1];
}

/**
 * The big-list table: TanStack Table for the columns, TanStack Virtual for the rows (the virtualized-rows example),
 * with a scaled scroll so a million rows stay reachable, a sticky header, resizable and re-orderable columns saved
 * per user, selection over the whole result, and grid semantics (role="grid", aria-rowcount = result total,
 * aria-rowindex per row) for assistive technology and automation.
 *
 * Rendering is kept to what changed: the header renders when columns, sort or selection change; a scroll renders
 * the body, where each row is memoised on its row object and selection, so only rows newly on screen render.
 */
function VirtualTableView<T extends RowData>({
  storageKey,
  columns,
  total,
  rowAt,
  subscribeRows,
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
  lang,
  overlay,
  busy = false,
}: VirtualTableProps<T>) {
  const t = useComponentTexts(lang);
  const scrollRef = useRef<HTMLDivElement>(null);
  const [viewport, setViewport] = useState(0);
  /**
   * Where the viewport is sideways: its scrollLeft as of the last scroll event and its observed width (0 until the
   * observer reports). Rendering reads these; a change renders only when it brings an undrawn column into view.
   */
  const sidewaysRef = useRef({ left: 0, width: 0 });
  /** Counts the sideways moves past the columns drawn: each draws them again. */
  const [columnsMoved, moveColumns] = useReducer((n: number) => n + 1, 0);
  const [, rowsChanged] = useReducer((n: number) => n + 1, 0);
  const [, scrolledWithin] = useReducer((n: number) => n + 1, 0);
  /** The full-list offset the last commit drew its rows for. */
  const drawnOffsetRef = useRef(0);
  /** When the last two scroll events came (performance.now()). */
  const scrollTimesRef = useRef({ last: -Infinity, before: -Infinity });
  // Rows that arrive while the list is being scrolled (a scroll event each frame) are drawn at the next animation
  // frame, all windows of that frame in one render: drawn at once they would be rendered again, unseen, by the next
  // frame's scroll. Rows that arrive after a jump (a scroll with none in the frames before it: a click in the
  // scrollbar's track, a key, a jump to a row) or once scrolling has stopped are what the user waits for: they are
  // rendered at once, in their own task, so the next frame has only their layout and paint to do. Rendered in that
  // frame's animation callback, their render and their layout made one frame too long for 60 fps (at a million rows
  // about one frame in fourteen of a series of jumps took 33 ms), and the rows showed a frame later.
  useEffect(() => {
    if (!subscribeRows) return undefined;
    let frame = 0;
    let task = 0;
    const draw = () => {
      cancelAnimationFrame(frame);
      clearTimeout(task);
      frame = 0;
      task = 0;
      flushSync(rowsChanged);
    };
    const off = subscribeRows(() => {
      if (frame || task) return;
      const { last, before } = scrollTimesRef.current;
      const now = performance.now();
      const scrolling = now - last < SCROLLING_GAP_MS && last - before < SCROLLING_GAP_MS;
      if (scrolling) frame = requestAnimationFrame(draw);
      else task = window.setTimeout(draw, 0);
    });
    return () => {
      off();
      cancelAnimationFrame(frame);
      clearTimeout(task);
    };
  }, [subscribeRows]);

  const columnIds = useMemo(() => columns.map((column) => column.id), [columns]);
  const [layout, setLayout] = useState<ColumnLayout>(() => loadLayout(storageKey, columnIds));
  useEffect(() => setLayout(loadLayout(storageKey, columnIds)), [storageKey, columnIds]);

  const scale = scrollScale(total * rowHeight, viewport);
  const ratioRef = useRef(scale.ratio);
  ratioRef.current = scale.ratio;
  /** The element's scrollTop as of its last scroll event: a render reads this, not the element (no forced layout). */
  const scrolledRef = useRef(0);

  const blockHeight = rowHeight * BLOCK_ROWS;
  const virtualizer = useVirtualizer({
    count: Math.ceil(total / BLOCK_ROWS),
    getScrollElement: () => scrollRef.current,
    estimateSize: () => blockHeight,
    overscan: OVERSCAN_BLOCKS,
    // Until the observer reports: the height given, when it is a number of pixels.
    initialRect: { width: 0, height: typeof height === 'number' ? height : INITIAL_ROWS * rowHeight },
    observeElementRect: (instance, callback) =>
      observeViewport(instance, (rect) => {
        setViewport(rect.height);
        sidewaysRef.current.width = rect.width;
        if (columnsOutOfView()) moveColumns();
        callback(rect);
      }),
    // The element scrolls over at most MAX_SCROLL_PX; the virtualizer thinks in full-list pixels.
    observeElementOffset: (instance, callback) => {
      const element = instance.scrollElement;
      if (!element) return undefined;
      const report = () => {
        const times = scrollTimesRef.current;
        times.before = times.last;
        times.last = performance.now();
        scrolledRef.current = element.scrollTop;
        const offset = scrolledRef.current * ratioRef.current;
        callback(offset, true);
        // The virtualizer has rendered if its blocks in view changed; within a block the rows are ours to move: a
        // new first row, or any move of a scaled scroll (its rows move `ratio` pixels per scrolled pixel).
        const drawn = drawnOffsetRef.current;
        const rowsMoved = drawn !== offset && (ratioRef.current !== 1 || Math.floor(drawn / rowHeight) !== Math.floor(offset / rowHeight));
        // Sideways, a render only when an undrawn column comes into view.
        const left = element.scrollLeft;
        const sideways = left !== sidewaysRef.current.left;
        sidewaysRef.current.left = left;
        const columnsCameIn = sideways && columnsOutOfView();
        if (rowsMoved || columnsCameIn) {
          flushSync(() => {
            if (rowsMoved) scrolledWithin();
            if (columnsCameIn) moveColumns();
          });
        }
      };
      // The element was just created: it has not scrolled. Told without reading it (a read here, or the scroll
      // state's read of its extent, forces the whole page's layout inside the commit that mounts the table).
      scrolledRef.current = 0;
      callback(0, false);
      element.addEventListener('scroll', report, { passive: true });
      return () => element.removeEventListener('scroll', report);
    },
    scrollToFn: (offset, { behavior }, instance) => {
      const top = offset / ratioRef.current;
      // Where the element already is (the virtualizer's first scroll, to 0, as the table mounts): no write, which
      // would force the page's layout.
      if (top === scrolledRef.current && behavior !== 'smooth') return;
      instance.scrollElement?.scrollTo({ top, behavior });
    },
  });

  const blocks = virtualizer.getVirtualItems();
  const offset = virtualizer.scrollOffset ?? 0;
  const [first, last] = visibleRows(blocks, offset, virtualizer.scrollRect?.height ?? 0, rowHeight, total);
  useLayoutEffect(() => {
    drawnOffsetRef.current = offset;
  }, [offset]);
  // Asked for before the browser paints (a layout effect), so a window fetched this frame can still show in it.
  // A new onRangeChange means a new result: its rows on screen are fetched even when the range stayed put.
  useLayoutEffect(() => {
    if (last >= first) onRangeChange(first, last + 1);
  }, [first, last, total, onRangeChange]);

  const ordered = useMemo(() => {
    const byId = new Map(columns.map((column) => [column.id, column]));
    return layout.order.map((id) => byId.get(id)).filter((column): column is VirtualTableColumn<T> => column !== undefined);
  }, [columns, layout.order]);
  const widths = useMemo(() => ordered.map((column) => layout.widths[column.id] ?? column.width ?? DEFAULT_WIDTH), [ordered, layout.widths]);
  // One style object per column, shared by every cell of that column: rows compare props by identity.
  const cellStyles = useMemo(
    () => ordered.map((column, i): CSSProperties => ({ width: widths[i], justifyContent: column.align === 'right' ? 'flex-end' : undefined })),
    [ordered, widths],
  );
  const selectable = selection !== undefined && onSelectionChange !== undefined;
  const totalWidth = widths.reduce((sum, width) => sum + width, selectable ? SELECT_WIDTH : 0);
  const starts = useMemo(() => {
    let x = selectable ? SELECT_WIDTH : 0;
    return widths.map((width) => (x += width) - width);
  }, [widths, selectable]);

  // Columns are windowed like rows: a row holds the cells of the columns in view (and one beyond each side), the
  // first of them pushed right by the widths of those before it. A wide table draws about half its cells, and the
  // cells it draws are all on screen, so the browser lays them out in one pass.
  const columnWindow = useMemo((): ColumnWindow => {
    const { left, width } = sidewaysRef.current;
    const [first, last] = columnsInView(starts, widths, left, width || guessedWidth());
    const from = Math.max(0, first - OVERSCAN_COLUMNS);
    const to = Math.min(starts.length - 1, last + OVERSCAN_COLUMNS);
    const skipped = from < starts.length ? starts[from]! - (selectable ? SELECT_WIDTH : 0) : 0;
    return { from, to, firstStyle: skipped > 0 ? { ...cellStyles[from], marginLeft: skipped } : cellStyles[from] };
    // The place sideways is a ref (scroll and resize callbacks keep it); columnsMoved says it left the columns drawn.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [starts, widths, cellStyles, selectable, columnsMoved]);
  /** The columns the last commit drew, and the column edges they were cut from. */
  const drawnColumnsRef = useLatest({ columnWindow, starts, widths });
  /** Whether the viewport shows a column not drawn (read by the scroll and resize callbacks: refs only). */
  const columnsOutOfView = () => {
    const { left, width } = sidewaysRef.current;
    if (width === 0) return false;
    const { columnWindow: drawn, starts: edges, widths: sizes } = drawnColumnsRef.current;
    const [first, last] = columnsInView(edges, sizes, left, width);
    return first < drawn.from || last > drawn.to;
  };

  // Stable callbacks for the memoised rows and header: they read the latest props when called.
  const latest = useLatest({ selection, onSelectionChange, onRowOpen, rowKey, sort, onSortChange, layout, total });
  const toggle = useCallback((key: string) => {
    const { selection, onSelectionChange } = latest.current;
    if (selection && onSelectionChange) onSelectionChange(toggleRow(selection, key));
  }, [latest]);
  const open = useCallback((row: T) => latest.current.onRowOpen?.(row), [latest]);
  const toggleEverything = useCallback(() => {
    const { selection, onSelectionChange, total } = latest.current;
    if (selection && onSelectionChange) onSelectionChange(toggleAll(selection, total));
  }, [latest]);
  const cycleSort = useCallback((column: VirtualTableColumn<T>) => {
    const { sort, onSortChange } = latest.current;
    if (!column.sortable || !onSortChange) return;
    if (sort?.column !== column.id) onSortChange({ column: column.id, direction: 'asc' });
    else if (sort.direction === 'asc') onSortChange({ column: column.id, direction: 'desc' });
    else onSortChange(null);
  }, [latest]);
  const moveTo = useCallback((moved: string, before: string) => {
    const next = { ...latest.current.layout, order: moveColumn(latest.current.layout.order, moved, before) };
    setLayout(next);
    saveLayout(storageKey, next);
  }, [latest, storageKey]);
  const startResize = useCallback((column: VirtualTableColumn<T>, startWidth: number, startX: number) => {
    const base = latest.current.layout;
    let current = base;
    const move = (event: PointerEvent) => {
      current = { ...base, widths: { ...base.widths, [column.id]: Math.max(MIN_WIDTH, startWidth + event.clientX - startX) } };
      setLayout(current);
    };
    const up = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      setLayout(current);
      saveLayout(storageKey, current);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
  }, [latest, storageKey]);

  // A scaled scroll moves rows by the full-list offset; the block of rows is placed relative to what the element
  // scrolled, as one transform, so the rows inside keep their props while the list scrolls.
  const shift = offset - scrolledRef.current;
  const count = selection ? selectedCount(selection, total) : 0;
  const top = first * rowHeight - shift + rowHeight;
  const indexes: number[] = [];
  for (let index = first; index <= last; index++) indexes.push(index);
  // Row elements are recycled: a row's key is its slot on screen, so scrolling updates the elements in place (new
  // text in the same cells) instead of removing, creating or moving them; a moved or new element costs the browser a
  // style and layout pass of its whole subtree.
  return (
    <div
      ref={scrollRef}
      className="virtual-table"
      role="grid"
      aria-label={label}
      aria-rowcount={total}
      aria-busy={busy || undefined}
      aria-colcount={ordered.length + (selectable ? 1 : 0)}
      aria-multiselectable={selectable || undefined}
      style={{ height }}
      tabIndex={0}
    >
      <div className="virtual-table__inner" style={{ width: totalWidth, height: scale.scrollHeight + rowHeight }}>
        <HeaderRow<T>
          ordered={ordered}
          cellStyles={cellStyles}
          rowHeight={rowHeight}
          totalWidth={totalWidth}
          t={t}
          sort={sort}
          selectable={selectable}
          count={count}
          total={total}
          onToggleAll={toggleEverything}
          onSort={cycleSort}
          onMove={moveTo}
          onResize={startResize}
        />
        <div className="virtual-table__body" style={{ width: totalWidth, transform: `translateY(${top}px)` }}>
          {indexes.map((index, slot) => {
            const row = rowAt(index);
            const key = row ? rowKey(row) : null;
            return (
              <BodyRow<T>
                key={slot}
                index={index}
                row={row}
                rowId={key}
                chosen={key !== null && selection !== undefined && isSelected(selection, key)}
                selectable={selectable}
                ordered={ordered}
                cellStyles={cellStyles}
                columnWindow={columnWindow}
                rowHeight={rowHeight}
                t={t}
                onToggle={toggle}
                onOpen={open}
              />
            );
          })}
        </div>
      </div>
      {overlay && <div className="virtual-table__overlay">{overlay}</div>}
    </div>
  );
}

/** Memoised: a parent that renders for its own reasons (a keystroke in the search box) leaves the table alone. */
export const VirtualTable = memo(VirtualTableView) as typeof VirtualTableView;

type HeaderRowProps<T extends RowData> = {
  ordered: VirtualTableColumn<T>[];
  cellStyles: CSSProperties[];
  rowHeight: number;
  totalWidth: number;
  t: ComponentsT;
  sort: VirtualTableSort;
  selectable: boolean;
  count: number;
  total: number;
  onToggleAll: () => void;
  onSort: (column: VirtualTableColumn<T>) => void;
  onMove: (moved: string, before: string) => void;
  onResize: (column: VirtualTableColumn<T>, startWidth: number, startX: number) => void;
};

/** The sticky header: TanStack Table's column model (no rows: the body draws them from the windows on screen). */
const HeaderRow = memo(function HeaderRow<T extends RowData>({
  ordered,
  cellStyles,
  rowHeight,
  totalWidth,
  t,
  sort,
  selectable,
  count,
  total,
  onToggleAll,
  onSort,
  onMove,
  onResize,
}: HeaderRowProps<T>) {
  const columnDefs = useMemo<ColumnDef<typeof virtualTableFeatures, T>[]>(
    () => ordered.map((column) => ({ id: column.id, header: column.header, accessorFn: (row: T) => row })),
    [ordered],
  );
  const table = useTable({ features: virtualTableFeatures, columns: columnDefs, data: NO_ROWS as T[] });
  const headers = table.getHeaderGroups()[0]?.headers ?? [];
  return (
    <div className="virtual-table__header" role="row" aria-rowindex={1} style={{ height: rowHeight, width: totalWidth }}>
      {selectable && (
        <div role="columnheader" aria-colindex={1} className="virtual-table__cell virtual-table__select" style={SELECT_STYLE}>
          <Checkbox
            aria-label={t('virtualTable.selectAll', { total })}
            checked={count > 0 && count === total}
            indeterminate={count > 0 && count < total}
            disabled={total === 0}
            onChange={onToggleAll}
          />
        </div>
      )}
      {headers.map((header, i) => {
        const column = ordered[i]!;
        const sorted = sort?.column === column.id ? sort.direction : null;
        return (
          <div
            key={header.id}
            role="columnheader"
            aria-colindex={i + (selectable ? 2 : 1)}
            aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : column.sortable ? 'none' : undefined}
            className={`virtual-table__cell virtual-table__th${column.sortable ? ' is-sortable' : ''}`}
            style={cellStyles[i]}
            draggable
            onDragStart={(event) => event.dataTransfer.setData('text/x-column', column.id)}
            onDragOver={(event) => event.preventDefault()}
            onDrop={(event) => {
              const moved = event.dataTransfer.getData('text/x-column');
              if (moved) onMove(moved, column.id);
            }}
          >
            <button type="button" className="virtual-table__sort" onClick={() => onSort(column)} disabled={!column.sortable}>
              <span className="virtual-table__sort-label">
                <table.FlexRender header={header} />
              </span>
              {sorted && <span aria-hidden="true">{sorted === 'asc' ? ' ▲' : ' ▼'}</span>}
            </button>
            <span
              className="virtual-table__resizer"
              role="separator"
              aria-orientation="vertical"
              aria-label={t('virtualTable.resize', { column: column.header })}
              onPointerDown={(event) => {
                event.preventDefault();
                event.stopPropagation();
                onResize(column, Number(cellStyles[i]?.width ?? DEFAULT_WIDTH), event.clientX);
              }}
            />
          </div>
        );
      })}
    </div>
  );
}) as <T extends RowData>(props: HeaderRowProps<T>) => ReactNode;

type BodyRowProps<T extends RowData> = {
  index: number;
  row: T | undefined;
  rowId: string | null;
  chosen: boolean;
  selectable: boolean;
  ordered: VirtualTableColumn<T>[];
  cellStyles: CSSProperties[];
  columnWindow: ColumnWindow;
  rowHeight: number;
  t: ComponentsT;
  onToggle: (key: string) => void;
  onOpen: (row: T) => void;
};

/**
 * One data row. Its props are the row object, its place and its selection, so a row that stays on screen while
 * the list scrolls, or while another window arrives, does not render again.
 */
const BodyRow = memo(function BodyRow<T extends RowData>({
  index,
  row,
  rowId,
  chosen,
  selectable,
  ordered,
  cellStyles,
  columnWindow,
  rowHeight,
  t,
  onToggle,
  onOpen,
}: BodyRowProps<T>) {
  // A row still being fetched keeps the same cells (empty, drawn as skeleton bars): when its window arrives only
  // their text changes. Its cells are no grid cells until then, and the row says it is busy.
  const loaded = row !== undefined && rowId !== null;
  const cellRole = loaded ? 'gridcell' : undefined;
  const { from, to, firstStyle } = columnWindow;
  /** aria-colindex of column 0 (counted from 1, after the select column). */
  const colOffset = selectable ? 2 : 1;
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selectable && loaded ? chosen : undefined}
      aria-busy={loaded ? undefined : true}
      className={`virtual-table__row${chosen ? ' is-selected' : ''}${index % 2 ? ' is-odd' : ''}${loaded ? '' : ' is-loading'}`}
      style={{ height: rowHeight }}
      onDoubleClick={loaded ? () => onOpen(row) : undefined}
    >
      {selectable && (
        <div role={cellRole} aria-colindex={1} className="virtual-table__cell virtual-table__select" style={SELECT_STYLE}>
          {loaded && (
            <input
              type="checkbox"
              className="virtual-table__check"
              aria-label={t('virtualTable.selectRow', { row: index + 1 })}
              checked={chosen}
              onChange={() => onToggle(rowId)}
            />
          )}
        </div>
      )}
      {ordered.slice(from, to + 1).map((column, k) => {
        const i = from + k;
        return (
          <div
            key={column.id}
            role={cellRole}
            aria-colindex={i + colOffset}
            className="virtual-table__cell"
            style={k === 0 ? firstStyle : cellStyles[i]}
            onClick={loaded && i === 0 ? () => onOpen(row) : undefined}
          >
            {loaded ? column.cell(row) : null}
          </div>
        );
      })}
    </div>
  );
}) as <T extends RowData>(props: BodyRowProps<T> & { key?: React.Key }) => ReactNode;
