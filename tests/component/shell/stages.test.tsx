import { act, render, screen } from '@testing-library/react';
import { holdStages, useStages } from '@/app/layout/stages';

/** A screen of three parts mounted one per painted frame (the shell's way), showing how far it got. */
function Staged() {
  const stage = useStages(3);
  return <output aria-label="stage">{stage}</output>;
}

/** Runs the animation frames and the timers after them, `frames` times. */
async function frames(count: number) {
  for (let i = 0; i < count; i++) {
    await act(async () => {
      await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
      await new Promise((done) => setTimeout(done, 0));
    });
  }
}

const stage = () => Number(screen.getByLabelText('stage').textContent);

describe('the shell mounting in stages', () => {
  it('goes one part per frame, and waits while a page holds it for its first content', async () => {
    const release = holdStages(10_000);
    render(<Staged />);
    await frames(4);
    // Held: the first commit only.
    expect(stage()).toBe(0);

    release();
    await frames(4);
    expect(stage()).toBe(3);
    // A second release changes nothing (the page lets go both when its rows are painted and when it unmounts).
    release();
  });

  it('goes on by itself once the hold has lasted its grace time', async () => {
    // A grace time long enough that the two frames before the first check fit in it on a loaded machine.
    holdStages(1_500);
    render(<Staged />);
    await frames(2);
    expect(stage()).toBe(0);
    await act(async () => {
      await new Promise((done) => setTimeout(done, 1_600));
    });
    await frames(4);
    expect(stage()).toBe(3);
  });
});
