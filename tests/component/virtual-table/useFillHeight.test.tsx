import { act, render, screen } from '@testing-library/react';
import { useFillHeight } from '@/components/virtual-table/useFillHeight';

function Page({ top }: { top: { value: number; size: number } }) {
  const { fillRef, height } = useFillHeight(240);
  return (
    <div>
      <div>filters</div>
      <div
        ref={(element) => {
          if (element) {
            element.getBoundingClientRect = () =>
              ({ top: top.value, left: 0, width: top.size, height: top.size, bottom: top.value + top.size, right: top.size, x: 0, y: top.value, toJSON: () => ({}) }) as DOMRect;
          }
          return fillRef(element);
        }}
      >
        <span data-testid="height">{height}</span>
      </div>
    </div>
  );
}

describe('a big list filling the window', () => {
  it('takes the window from where the table starts, follows a resize, and keeps its height while its tab is hidden', () => {
    window.innerHeight = 900;
    const top = { value: 220, size: 100 };
    render(<Page top={top} />);
    expect(screen.getByTestId('height').textContent).toBe(String(900 - 220 - 16));

    window.innerHeight = 700;
    act(() => void window.dispatchEvent(new Event('resize')));
    expect(screen.getByTestId('height').textContent).toBe(String(700 - 220 - 16));

    // A hidden tab measures zero: the last height stays, so showing the tab again draws at once.
    top.size = 0;
    window.innerHeight = 1200;
    act(() => void window.dispatchEvent(new Event('resize')));
    expect(screen.getByTestId('height').textContent).toBe(String(700 - 220 - 16));

    // A small window never squeezes the table below its minimum.
    top.size = 100;
    window.innerHeight = 300;
    act(() => void window.dispatchEvent(new Event('resize')));
    expect(screen.getByTestId('height').textContent).toBe('240');
  });
});
