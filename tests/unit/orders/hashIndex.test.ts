import { TEXT_SEPARATOR } from '../../../contract/orderChunk';
import { hashId, HashIndex, hashJoined } from '../../../contract/hashIndex';
import { TextColumn } from '../../../workers/lists/textColumn';

/** A plain Map beside the index: what every lookup must agree with. */
function checked(hash: (id: string) => number) {
  const index = new HashIndex();
  const ids: (string | undefined)[] = [];
  const reference = new Map<string, number>();
  const find = (id: string) => index.find(hash(id), (slot) => ids[slot] === id);
  return {
    index,
    add(id: string) {
      const slot = ids.length;
      ids.push(id);
      index.add(hash(id), slot);
      reference.set(id, slot);
    },
    remove(id: string) {
      const slot = reference.get(id)!;
      index.remove(hash(id), slot);
      reference.delete(id);
      ids[slot] = undefined;
    },
    expectAgrees(probes: string[]) {
      for (const id of probes) expect([id, find(id)]).toEqual([id, reference.get(id) ?? -1]);
      expect(index.size).toBe(reference.size);
    },
  };
}

describe('the hash index', () => {
  it('finds every id through growth, deletes and re-adds, as a Map does', () => {
    const t = checked(hashId);
    const all = Array.from({ length: 5000 }, (_, i) => `2:7050${i}-0002-1:${1000 + i}`);
    all.forEach((id) => t.add(id));
    t.expectAgrees([...all, 'missing', '']);
    all.filter((_, i) => i % 3 === 0).forEach((id) => t.remove(id));
    t.expectAgrees(all);
    // Deleted entries leave tombstones: re-adding and adding many more still finds each exactly once.
    all.filter((_, i) => i % 3 === 0).forEach((id) => t.add(id));
    Array.from({ length: 3000 }, (_, i) => `new-${i}`).forEach((id) => t.add(id));
    t.expectAgrees([...all, 'new-0', 'new-2999', 'new-3000']);
  });

  it('keeps every entry when room is reserved ahead, before and after entries were filed', () => {
    const t = checked(hashId);
    const first = Array.from({ length: 700 }, (_, i) => `a-${i}`);
    first.forEach((id) => t.add(id));
    t.index.reserve(10_000);
    t.expectAgrees([...first, 'a-700']);
    const more = Array.from({ length: 9_000 }, (_, i) => `b-${i}`);
    more.forEach((id) => t.add(id));
    t.index.reserve(100);
    t.expectAgrees([...first, ...more, 'b-9000']);
  });

  it('tells ids apart by comparing them when their hashes collide (here every hash is the same)', () => {
    const t = checked(() => 7);
    ['a', 'b', 'c', 'd'].forEach((id) => t.add(id));
    t.remove('b');
    t.expectAgrees(['a', 'b', 'c', 'd', 'e']);
    t.add('b');
    t.expectAgrees(['a', 'b', 'c', 'd', 'e']);
  });

  it('hashes ids inside a joined column as it hashes them one by one, and refuses a column of another count', () => {
    const ids = ['o-1', '', '订单-2', 'o-3'];
    const joined = ids.join(TEXT_SEPARATOR);
    const spans = hashJoined(joined, ids.length)!;
    expect([...spans.hashes]).toEqual(ids.map(hashId));
    expect(ids.map((_, i) => joined.substring(spans.starts[i]!, spans.starts[i + 1]! - 1))).toEqual(ids);
    expect(hashJoined(joined, 3)).toBeNull();
    expect(hashJoined(joined, 5)).toBeNull();
    // A text column gives the same hashes for its slots, joined or written one by one.
    const column = new TextColumn();
    column.copy(['x'], Uint32Array.of(0), 1, 0);
    column.appendJoined(1, joined, ids.length);
    expect([...column.hashes(5, (text, start, end) => hashId(text.slice(start, end)))]).toEqual(['x', ...ids].map(hashId));
  });
});
