import { createRateLimiter } from '../../../server/marketplace/ozon/limiter';
import { OZON_ENDPOINTS } from '../../../server/marketplace/ozon/versions';

/** A limiter on a clock that only moves when someone waits, so each acquire's time is exact. */
function clocked() {
  let t = 0;
  const limiter = createRateLimiter({ now: () => t, sleep: async (ms) => void (t += ms) });
  const at = async (acquire: Promise<void>) => {
    await acquire;
    return t;
  };
  return { limiter, at };
}

describe('Ozon rate limiter lanes', () => {
  const endpoint = OZON_ENDPOINTS.productInfoLimit;

  it('lets a person\'s request out at once while background work has used the shop\'s burst', async () => {
    const { limiter, at } = clocked();
    const background: number[] = [];
    for (let i = 0; i < 5; i++) background.push(await at(limiter.acquire('1001', endpoint, 'background')));
    // Background work stops short of the whole burst...
    expect(background).toEqual([0, 0, 0, 0, 0]);
    // ...so what a seller clicked still goes out without waiting, where more background work would wait.
    expect(await at(limiter.acquire('1001', endpoint))).toBe(0);
    expect(await at(limiter.acquire('1001', endpoint, 'background'))).toBeGreaterThan(0);
  });

  it('costs background work almost nothing when nobody else asks', async () => {
    const run = async (lane: 'interactive' | 'background') => {
      const { limiter, at } = clocked();
      let last = 0;
      for (let i = 0; i < 400; i++) last = await at(limiter.acquire('1001', endpoint, lane));
      return last;
    };
    const [person, background] = [await run('interactive'), await run('background')];
    // The reserve is a few tokens of the first burst: 400 background requests end within 150 ms of 400 clicks.
    expect(background - person).toBeGreaterThanOrEqual(0);
    expect(background - person).toBeLessThan(150);
  });

  it('keeps other shops apart: one shop\'s background work never delays another shop', async () => {
    const { limiter, at } = clocked();
    for (let i = 0; i < 5; i++) await at(limiter.acquire('1001', endpoint, 'background'));
    const before = await at(limiter.acquire('1002', endpoint, 'background'));
    expect(before).toBe(0);
  });
});
