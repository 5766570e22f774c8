import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { VirtualTable, type VirtualTableColumn } from '@/components/virtual-table/VirtualTable';
import { EMPTY_SELECTION, selectedCount, type RowSelection } from '@/components/virtual-table/selection';

type Row = { id: string; name: string; amount: number };

const MILLION = 1_000_000;
const VIEWPORT = 400;
const ROW = 36;
const columns: VirtualTableColumn<Row>[] = [
  { id: 'name', header: 'Name', sortable: true, cell: (row) => row.name },
  { id: 'amount', header: 'Amount', align: 'right', sortable: true, cell: (row) => row.amount.toFixed(2) },
];
const rowAt = (index: number): Row => ({ id: `r${index}`, name: `row ${index + 1}`, amount: index });

// jsdom lays nothing out: give the scrolling element a viewport so the virtualizer has rows to show.
beforeAll(() => {
  if (!Element.prototype.scrollTo) {
    Element.prototype.scrollTo = function (this: Element, options?: ScrollToOptions | number) {
      if (typeof options === 'object' && options.top !== undefined) this.scrollTop = options.top;
    } as Element['scrollTo'];
  }
  // The virtualizer reads the viewport from clientHeight/clientWidth.
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
    return this.classList.contains('virtual-table') ? VIEWPORT : 0;
  });
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(function (this: HTMLElement) {
    return this.classList.contains('virtual-table') ? 1000 : 0;
  });
});
afterAll(() => vi.restoreAllMocks());
beforeEach(() => localStorage.clear());

type HarnessProps = { total: number; onRange?: (start: number, end: number) => void; initial?: RowSelection; cols?: VirtualTableColumn<Row>[] };

function Harness({ total, onRange = () => undefined, initial = EMPTY_SELECTION, cols = columns }: HarnessProps) {
  const [selection, setSelection] = useState<RowSelection>(initial);
  return (
    <>
      <output aria-label="selected">{selectedCount(selection, total)}</output>
      <VirtualTable<Row>
        storageKey="test:1"
        label="Orders"
        columns={cols}
        total={total}
        rowAt={rowAt}
        rowKey={(row) => row.id}
        onRangeChange={onRange}
        selection={selection}
        onSelectionChange={setSelection}
        rowHeight={ROW}
        height={VIEWPORT}
        lang="en"
      />
    </>
  );
}

const dataRows = () => screen.getAllByRole('row').filter((row) => row.getAttribute('aria-rowindex') !== '1');

describe('VirtualTable grid semantics', () => {
  it('is a grid whose aria-rowcount is the whole result, with only the rows on screen in the DOM', () => {
    render(<Harness total={MILLION} />);
    const grid = screen.getByRole('grid', { name: 'Orders' });
    expect(grid).toHaveAttribute('aria-rowcount', String(MILLION));
    expect(grid).toHaveAttribute('aria-multiselectable', 'true');
    const rows = dataRows();
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(40);
    // The header is row 1; data rows count from 2, in order.
    expect(screen.getAllByRole('row')[0]).toHaveAttribute('aria-rowindex', '1');
    expect(rows.map((row) => Number(row.getAttribute('aria-rowindex')))).toEqual(rows.map((_, i) => i + 2));
    expect(within(rows[0]!).getByRole('gridcell', { name: 'row 1' })).toBeInTheDocument();
    expect(screen.getAllByRole('columnheader').map((header) => header.textContent?.trim())).toEqual(['', 'Name', 'Amount']);
  });

  it('asks for the rows it shows', () => {
    const ranges: [number, number][] = [];
    render(<Harness total={MILLION} onRange={(start, end) => ranges.push([start, end])} />);
    expect(ranges.at(-1)![0]).toBe(0);
    expect(ranges.at(-1)![1]).toBe(dataRows().length);
  });

  it('follows a scroll of a few rows: the rows drawn are those on screen, not a whole block of the virtualizer', () => {
    const ranges: [number, number][] = [];
    render(<Harness total={1_000} onRange={(start, end) => ranges.push([start, end])} />);
    const grid = screen.getByRole('grid');
    act(() => {
      grid.scrollTop = 5 * ROW;
      fireEvent.scroll(grid);
    });
    // Row 6 (index 5) tops the viewport: two rows drawn above it, the viewport's rows and two below.
    const indexes = dataRows().map((row) => Number(row.getAttribute('aria-rowindex')) - 2);
    expect(indexes[0]).toBe(3);
    expect(indexes.at(-1)).toBe(Math.ceil((5 * ROW + VIEWPORT) / ROW) + 2 - 1);
    expect(ranges.at(-1)).toEqual([3, indexes.at(-1)! + 1]);
    expect(within(dataRows()[2]!).getByRole('gridcell', { name: 'row 6' })).toBeInTheDocument();
  });

  it('draws the columns in view sideways (one more each side), each cell with its aria-colindex, and those a sideways scroll brings in', () => {
    // Twelve 200 px columns after the 44 px select column, in a viewport 1000 px wide.
    const wide = Array.from({ length: 12 }, (_, c): VirtualTableColumn<Row> => ({ id: `c${c}`, header: `C${c}`, width: 200, cell: (row) => `${row.name} c${c}` }));
    render(<Harness total={100} cols={wide} />);
    const grid = screen.getByRole('grid');
    expect(grid).toHaveAttribute('aria-colcount', '13');
    // Every header stays (they are one row), with its place among the columns.
    expect(screen.getAllByRole('columnheader').map((header) => header.getAttribute('aria-colindex'))).toEqual(Array.from({ length: 13 }, (_, i) => String(i + 1)));
    const drawn = () => within(dataRows()[0]!).getAllByRole('gridcell').map((cell) => Number(cell.getAttribute('aria-colindex')));
    // C0 to C4 show (C4 starts at 844 px), C5 is the one beyond; the select column is always there.
    expect(drawn()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(within(dataRows()[0]!).getByRole('gridcell', { name: 'row 1 c5' })).toBeInTheDocument();

    act(() => {
      grid.scrollLeft = 1100;
      fireEvent.scroll(grid);
    });
    // C5 (1044-1244 px) to C10 (from 2044 px) show at 1100-2100 px; C4 and C11 are drawn beyond them.
    expect(drawn()).toEqual([1, 6, 7, 8, 9, 10, 11, 12, 13]);
    const [, firstDrawn] = within(dataRows()[0]!).getAllByRole('gridcell');
    expect(firstDrawn).toHaveTextContent('row 1 c4');
    // C4 keeps its place: pushed right by the four columns before it.
    expect(firstDrawn).toHaveStyle({ marginLeft: '800px', width: '200px' });

    // A scroll within the columns drawn draws nothing new.
    act(() => {
      grid.scrollLeft = 1150;
      fireEvent.scroll(grid);
    });
    expect(drawn()).toEqual([1, 6, 7, 8, 9, 10, 11, 12, 13]);
    // Back at the start: C0 to C5 again, C0 in its place.
    act(() => {
      grid.scrollLeft = 0;
      fireEvent.scroll(grid);
    });
    expect(drawn()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(within(dataRows()[0]!).getAllByRole('gridcell')[1]).not.toHaveStyle({ marginLeft: '800px' });
  });

  it('reaches the last of a million rows although the scroll area stays under the browser cap', () => {
    render(<Harness total={MILLION} />);
    const grid = screen.getByRole('grid');
    const inner = grid.firstElementChild as HTMLElement;
    const height = Number.parseFloat(inner.style.height);
    // Chromium will not size an element past about 33.5 million px; 36 million would be cut.
    expect(height).toBeLessThan(33_554_432);
    expect(height).toBeLessThan(MILLION * ROW);

    act(() => {
      grid.scrollTop = height - VIEWPORT;
      fireEvent.scroll(grid);
    });
    const indexes = dataRows().map((row) => Number(row.getAttribute('aria-rowindex')));
    expect(Math.max(...indexes)).toBe(MILLION + 1);
    expect(screen.getByRole('gridcell', { name: `row ${MILLION}` })).toBeInTheDocument();
  });
});

describe('VirtualTable selection over the whole result', () => {
  it('selects all N rows with the header box, then counts the ones unticked', () => {
    render(<Harness total={MILLION} />);
    const all = screen.getByRole('checkbox', { name: `Select all ${MILLION} rows` });
    fireEvent.click(all);
    expect(screen.getByLabelText('selected')).toHaveTextContent(String(MILLION));
    expect(all).toBeChecked();
    // Rows never fetched count as selected too: every row on screen says so.
    expect(dataRows().every((row) => row.getAttribute('aria-selected') === 'true')).toBe(true);

    fireEvent.click(screen.getByRole('checkbox', { name: 'Select row 2' }));
    expect(screen.getByLabelText('selected')).toHaveTextContent(String(MILLION - 1));
    expect(dataRows()[1]).toHaveAttribute('aria-selected', 'false');
    expect(all).not.toBeChecked();

    // Not everything is selected, so the header box selects all again; then a second click clears.
    fireEvent.click(all);
    expect(screen.getByLabelText('selected')).toHaveTextContent(String(MILLION));
    fireEvent.click(all);
    expect(screen.getByLabelText('selected')).toHaveTextContent('0');
    expect(dataRows().some((row) => row.getAttribute('aria-selected') === 'true')).toBe(false);
  });

  it('selects single rows without touching the rest', () => {
    render(<Harness total={50} />);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select row 3' }));
    expect(screen.getByLabelText('selected')).toHaveTextContent('1');
    expect(dataRows().filter((row) => row.getAttribute('aria-selected') === 'true').map((row) => row.getAttribute('aria-rowindex'))).toEqual(['4']);
  });

  it('offers nothing to select in an empty result', () => {
    render(<Harness total={0} />);
    expect(screen.getByRole('grid')).toHaveAttribute('aria-rowcount', '0');
    expect(screen.getByRole('checkbox', { name: 'Select all 0 rows' })).toBeDisabled();
  });
});

describe('VirtualTable rows that arrive from the worker', () => {
  /** Rows come in when `arrive` says so, as the order list's windows do; the table listens with subscribeRows. */
  function LoadingHarness({ store }: { store: { loaded: Set<number>; listeners: Set<() => void> } }) {
    return (
      <VirtualTable<Row>
        storageKey="test:arrive"
        label="Orders"
        columns={columns}
        total={1_000}
        rowAt={(index) => (store.loaded.has(index) ? rowAt(index) : undefined)}
        subscribeRows={(listener) => {
          store.listeners.add(listener);
          return () => store.listeners.delete(listener);
        }}
        rowKey={(row) => row.id}
        onRangeChange={() => undefined}
        rowHeight={ROW}
        height={VIEWPORT}
        lang="en"
      />
    );
  }

  function setUp() {
    const store = { loaded: new Set<number>(), listeners: new Set<() => void>() };
    // Animation frames run only when the test says so.
    const frames: FrameRequestCallback[] = [];
    vi.spyOn(window, 'requestAnimationFrame').mockImplementation((callback) => frames.push(callback));
    vi.spyOn(window, 'cancelAnimationFrame').mockImplementation(() => undefined);
    // The table tells a scroll series from a jump by the time between scroll events: a frame apart here, whatever
    // the machine's load makes of real time.
    let clock = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => clock);
    render(<LoadingHarness store={store} />);
    const grid = screen.getByRole('grid');
    const scrollTo = (row: number) =>
      act(() => {
        clock += 16;
        grid.scrollTop = row * ROW;
        fireEvent.scroll(grid);
      });
    const arrive = (from: number, to: number) => {
      for (let index = from; index < to; index++) store.loaded.add(index);
      for (const listener of store.listeners) listener();
    };
    const nextTask = () => act(() => new Promise((done) => setTimeout(done, 0)));
    const runFrames = () => act(() => frames.splice(0).forEach((callback) => callback(performance.now())));
    return { scrollTo, arrive, nextTask, runFrames };
  }
  afterEach(() => {
    vi.mocked(window.requestAnimationFrame).mockRestore();
    vi.mocked(window.cancelAnimationFrame).mockRestore();
    vi.mocked(performance.now).mockRestore();
  });

  it('after a jump, shows the rows as soon as they arrive, without waiting for an animation frame', async () => {
    const { scrollTo, arrive, nextTask } = setUp();
    scrollTo(500);
    expect(screen.queryByRole('gridcell', { name: 'row 501' })).toBeNull();
    expect(dataRows()[2]).toHaveAttribute('aria-busy', 'true');
    arrive(490, 520);
    await nextTask();
    expect(screen.getByRole('gridcell', { name: 'row 501' })).toBeInTheDocument();
    expect(dataRows().some((row) => row.hasAttribute('aria-busy'))).toBe(false);
  });

  it('while the list is scrolled frame after frame, draws the rows that arrive with the next frame, in one render', async () => {
    const { scrollTo, arrive, nextTask, runFrames } = setUp();
    scrollTo(300);
    scrollTo(500);
    arrive(490, 505);
    arrive(505, 520);
    await nextTask();
    expect(screen.queryByRole('gridcell', { name: 'row 501' })).toBeNull();
    runFrames();
    expect(screen.getByRole('gridcell', { name: 'row 501' })).toBeInTheDocument();
    expect(dataRows().some((row) => row.hasAttribute('aria-busy'))).toBe(false);
  });
});
