import { createActor, fromPromise, type Actor } from 'xstate';
import type { TraversalOptions } from 'xstate/graph';
import { transitionPaths } from '../tests/support/transitionPaths';
import {
  DESIGNER_TOOLS,
  designerMachine,
  selectCanRedo,
  selectCanUndo,
  selectIsDirty,
  selectIsSaving,
  selectLoadingFont,
  selectProblem,
  selectRedoKind,
  selectUndoKind,
  type ChangeKind,
  type DesignerEmitted,
  type DesignerEvent,
  type DesignerInput,
  type DesignerSnapshot,
  type LoadFontsInput,
  type OpenDesignInput,
  type OpenDesignOutput,
  type SaveDesignInput,
  type SaveDesignOutput,
} from './designerMachine';

const START = '{"objects":[]}';
const INPUT: DesignerInput = { snapshot: START };
const FAMILY = 'Noto Sans SC';
const OPENED: OpenDesignOutput = { snapshot: '{"objects":["opened"]}', design: { id: 7, name: '主图' } };
const refused = { type: 'Http', code: 500, message: '服务器错误' };

// ---------------------------------------------------------------------------------------------------------------
// The graph: the real machine, walked with the user's events (each tool, changes, undo, redo, save and export, open,
// a font) and every answer its three actors can give. A vertex is what the page shows: states, tool, how much
// history there is on each side, dirty, the save waiting or running, the font loading, the problem shown.

type GraphEvent = DesignerEvent | { type: string; output?: unknown; error?: unknown };

const MAX_DEPTH = 2;

function eventsFor(snapshot: DesignerSnapshot): GraphEvent[] {
  const { context } = snapshot;
  const events: GraphEvent[] = [];
  const pristine = context.past.length === 0 && context.future.length === 0 && context.problem === null && context.pendingSave === null;
  // Each tool is taken up once and used once: a drawing tool hands back to select, pan stays in hand.
  if (context.tool !== 'select') {
    if (context.past.length > 0) return [];
    const next = '{"objects":["drawn"]}';
    return [{ type: 'designer.change', snapshot: next, kind: 'add' }, { type: 'designer.change', snapshot: next, kind: 'modify' }];
  }
  if (pristine && snapshot.matches({ fonts: 'idle' })) {
    for (const tool of DESIGNER_TOOLS) if (tool !== context.tool) events.push({ type: 'designer.tool', tool });
  }
  const once = context.past.length === 1 && context.future.length === 0;
  if (context.selection.length === 0 && once && context.design.id === null && !context.loadingFont) events.push({ type: 'designer.select', ids: ['text-1'] });
  if (context.problem) events.push({ type: 'designer.dismiss' });

  const document = (snapshot.value as { document: string }).document;
  const next = `{"objects":["v${context.past.length + 1}"]}`;
  switch (document) {
    case 'ready':
      if (context.past.length < MAX_DEPTH) {
        events.push({ type: 'designer.change', snapshot: next, kind: 'add' }, { type: 'designer.change', snapshot: next, kind: 'modify' });
      }
      if (pristine) events.push({ type: 'designer.open', id: 7 });
      // The same snapshot again (a click that moved nothing) is no change.
      if (once) events.push({ type: 'designer.change', snapshot: context.present.snapshot, kind: 'modify' });
      if (context.problem === null && !context.loadingFont && context.selection.length === 0) events.push({ type: 'designer.undo' }, { type: 'designer.redo' });
      if (once && context.problem === null) events.push({ type: 'designer.save', target: 'server', name: '主图' }, { type: 'designer.save', target: 'png' });
      break;
    case 'waitingForFonts':
      if (context.past.length < MAX_DEPTH) events.push({ type: 'designer.change', snapshot: next, kind: 'style' });
      break;
    case 'saving':
      events.push(
        { type: 'xstate.done.actor.saveDesign', output: context.pendingSave === 'server' ? { design: { id: 5, name: '主图' } } : undefined },
        { type: 'xstate.error.actor.saveDesign', error: refused },
      );
      break;
    case 'opening':
      events.push({ type: 'xstate.done.actor.openDesign', output: OPENED }, { type: 'xstate.error.actor.openDesign', error: refused });
      break;
  }

  if (snapshot.matches({ fonts: 'loading' })) {
    events.push({ type: 'xstate.done.actor.loadFonts' }, { type: 'xstate.error.actor.loadFonts', error: new Error('network') });
  } else if (once && context.problem === null && context.design.id === null) {
    events.push({ type: 'designer.font', family: FAMILY, text: '新品上市' });
  }
  return events;
}

function seen(snapshot: DesignerSnapshot): string {
  const { context } = snapshot;
  return JSON.stringify({
    value: snapshot.value,
    tool: context.tool,
    selection: context.selection.length,
    past: context.past.length,
    future: context.future.length,
    dirty: selectIsDirty(snapshot),
    pendingSave: context.pendingSave,
    loadingFont: context.loadingFont?.family ?? null,
    fonts: context.fonts,
    problem: context.problem?.kind ?? null,
    design: context.design.id,
  });
}

const traversal: TraversalOptions<DesignerSnapshot, DesignerEvent, DesignerInput> = {
  events: eventsFor as (snapshot: DesignerSnapshot) => DesignerEvent[],
  serializeState: (snapshot: DesignerSnapshot) => seen(snapshot),
  input: INPUT,
};


// ---------------------------------------------------------------------------------------------------------------
// The live actor the paths are replayed on, with fakes that answer when a step says so.

type Pending<I, O> = { input: I; resolve: (output: O) => void; reject: (error: unknown) => void };

function startHarness(input: DesignerInput = INPUT) {
  const calls = {
    save: [] as Pending<SaveDesignInput, SaveDesignOutput>[],
    open: [] as Pending<OpenDesignInput, OpenDesignOutput>[],
    fonts: [] as Pending<LoadFontsInput, void>[],
  };
  const emitted: DesignerEmitted[] = [];
  const machine = designerMachine.provide({
    actors: {
      saveDesign: fromPromise<SaveDesignOutput, SaveDesignInput>(({ input }) => new Promise((resolve, reject) => calls.save.push({ input, resolve, reject }))),
      openDesign: fromPromise<OpenDesignOutput, OpenDesignInput>(({ input }) => new Promise((resolve, reject) => calls.open.push({ input, resolve, reject }))),
      loadFonts: fromPromise<void, LoadFontsInput>(({ input }) => new Promise((resolve, reject) => calls.fonts.push({ input, resolve, reject }))),
    },
  });
  const actor: Actor<typeof machine> = createActor(machine, { input });
  actor.on('*', (event) => emitted.push(event as DesignerEmitted));
  actor.start();
  return { actor, calls, emitted };
}

type Harness = ReturnType<typeof startHarness>;
let h: Harness;

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const answer =
  <K extends keyof Harness['calls']>(key: K, how: 'resolve' | 'reject') =>
  async ({ event }: { event: GraphEvent }) => {
    const pending = h.calls[key].at(-1)! as Pending<unknown, unknown>;
    if (how === 'resolve') pending.resolve((event as { output?: unknown }).output);
    else pending.reject((event as { error?: unknown }).error);
    await settle();
  };

const eventExecs: Record<string, (step: { event: GraphEvent }) => unknown> = {
  'xstate.done.actor.saveDesign': answer('save', 'resolve'),
  'xstate.error.actor.saveDesign': answer('save', 'reject'),
  'xstate.done.actor.openDesign': answer('open', 'resolve'),
  'xstate.error.actor.openDesign': answer('open', 'reject'),
  'xstate.done.actor.loadFonts': answer('fonts', 'resolve'),
  'xstate.error.actor.loadFonts': answer('fonts', 'reject'),
};
const userEvent = ({ event }: { event: GraphEvent }) => h.actor.send(event as DesignerEvent);

/** What each step must show on the live actor, beyond matching the model's vertex. */
function checkStep(event: GraphEvent, before: DesignerSnapshot, emittedBefore: number) {
  const snapshot = h.actor.getSnapshot();
  const { context } = snapshot;
  // Undo and redo are offered only when there is something to take back or do again, and never mid-save.
  expect(selectCanUndo(snapshot)).toBe(context.past.length > 0 && snapshot.matches({ document: 'ready' }));
  expect(selectCanRedo(snapshot)).toBe(context.future.length > 0 && snapshot.matches({ document: 'ready' }));
  if (snapshot.matches({ document: 'saving' })) {
    // The save takes the design on screen, after any font it waited for.
    expect(h.calls.save.at(-1)!.input.snapshot).toBe(context.present.snapshot);
  }
  // A save asked for while a font loads waits for it.
  if (event.type === 'designer.save' && before.context.loadingFont) expect(snapshot.matches({ document: 'waitingForFonts' })).toBe(true);
  if (snapshot.matches({ document: 'opening' })) expect(h.calls.open.at(-1)!.input).toEqual({ id: 7 });
  if (snapshot.matches({ fonts: 'loading' })) expect(h.calls.fonts.at(-1)!.input.family).toBe(selectLoadingFont(snapshot));
  // The canvas is told to show a snapshot exactly when undo, redo or an open changed the design on screen.
  const applies = h.emitted.slice(emittedBefore).filter((e) => e.type === 'designer.apply');
  const movedInHistory = ['designer.undo', 'designer.redo', 'xstate.done.actor.openDesign'].includes(event.type);
  if (movedInHistory && context.present.snapshot !== before.context.present.snapshot) {
    expect(applies).toEqual([{ type: 'designer.apply', snapshot: context.present.snapshot }]);
  } else {
    expect(applies).toEqual([]);
  }
  // A failed open changes nothing of the design on screen.
  if (event.type === 'xstate.error.actor.openDesign') {
    expect(context.present).toEqual(before.context.present);
    expect(selectProblem(snapshot)).toEqual({ kind: 'openFailed', reason: refused.message });
  }
  if (event.type === 'xstate.error.actor.saveDesign') expect(context.present).toEqual(before.context.present);
}

function describePath(path: { steps: readonly { event: GraphEvent }[]; state: DesignerSnapshot }): string {
  const events = path.steps.slice(1).map(({ event }) => {
    const e = event as { type: string; tool?: string; kind?: string; target?: string };
    const detail = e.tool ?? e.kind ?? e.target ?? '';
    return `${e.type.replace('xstate.', '').replace('designer.', '')}${detail ? `(${detail})` : ''}`;
  });
  return `${events.join(' → ')} ⇒ ${JSON.stringify(path.state.value)}`;
}

describe('designer machine: every reachable state and transition', () => {
  const { shortest, adjacency, paths } = transitionPaths<DesignerSnapshot>(designerMachine, traversal as never, seen);

  it('reaches every state: each tool, history both ways, saving, waiting for fonts, opening, failures', () => {
    const documents = new Set(shortest.map((path) => (path.state.value as { document: string }).document));
    expect([...documents].sort()).toEqual(['opening', 'ready', 'saving', 'waitingForFonts']);
    const fonts = new Set(shortest.map((path) => (path.state.value as { fonts: string }).fonts));
    expect([...fonts].sort()).toEqual(['failed', 'idle', 'loading']);
    expect(new Set(shortest.map((path) => path.state.context.tool))).toEqual(new Set(DESIGNER_TOOLS));
    expect(new Set(shortest.map((path) => path.state.context.problem?.kind ?? null))).toEqual(new Set([null, 'fontsFailed', 'saveFailed', 'openFailed']));
    expect(shortest.some((path) => path.state.context.future.length === MAX_DEPTH)).toBe(true);
    const edges = Object.values(adjacency).reduce((sum, vertex) => sum + Object.keys(vertex.transitions).length, 0);
    expect(paths.length).toBe(edges);
  });

  for (const path of paths) {
    it(describePath(path), async () => {
      h = startHarness();
      try {
        for (const step of path.steps) {
          const before = h.actor.getSnapshot();
          const emittedBefore = h.emitted.length;
          const exec = step.event.type === 'xstate.init' ? () => undefined : (eventExecs[step.event.type] ?? userEvent);
          await exec(step);
          expect(seen(h.actor.getSnapshot())).toBe(seen(step.state));
          checkStep(step.event, before, emittedBefore);
        }
      } finally {
        h.actor.stop();
      }
    });
  }
});

// ---------------------------------------------------------------------------------------------------------------

const KINDS: ChangeKind[] = ['add', 'modify', 'remove', 'style', 'order', 'group', 'background', 'resize', 'template'];

describe('designer machine: what the page notices', () => {
  afterEach(() => h.actor.stop());

  for (const kind of KINDS) {
    it(`undoes and redoes a change of kind ${kind}, and the canvas shows each snapshot`, () => {
      h = startHarness();
      const changed = `{"objects":["${kind}"]}`;
      h.actor.send({ type: 'designer.change', snapshot: changed, kind });
      expect(selectUndoKind(h.actor.getSnapshot())).toBe(kind);
      expect(selectIsDirty(h.actor.getSnapshot())).toBe(true);

      h.actor.send({ type: 'designer.undo' });
      expect(h.emitted.at(-1)).toEqual({ type: 'designer.apply', snapshot: START });
      expect(selectCanUndo(h.actor.getSnapshot())).toBe(false);
      expect(selectRedoKind(h.actor.getSnapshot())).toBe(kind);

      h.actor.send({ type: 'designer.redo' });
      expect(h.emitted.at(-1)).toEqual({ type: 'designer.apply', snapshot: changed });
      expect(selectCanRedo(h.actor.getSnapshot())).toBe(false);
      expect(h.actor.getSnapshot().context.present).toEqual({ snapshot: changed, kind });
    });
  }

  it('a change after an undo drops what could have been redone', () => {
    h = startHarness();
    h.actor.send({ type: 'designer.change', snapshot: 'a', kind: 'add' });
    h.actor.send({ type: 'designer.change', snapshot: 'b', kind: 'modify' });
    h.actor.send({ type: 'designer.undo' });
    h.actor.send({ type: 'designer.change', snapshot: 'c', kind: 'style' });
    expect(selectCanRedo(h.actor.getSnapshot())).toBe(false);
    h.actor.send({ type: 'designer.undo' });
    expect(h.emitted.at(-1)).toEqual({ type: 'designer.apply', snapshot: 'a' });
  });

  it('keeps at most the history limit, dropping the oldest', () => {
    h = startHarness({ snapshot: START, historyLimit: 3 });
    for (const s of ['a', 'b', 'c', 'd', 'e']) h.actor.send({ type: 'designer.change', snapshot: s, kind: 'modify' });
    for (let i = 0; i < 5; i++) h.actor.send({ type: 'designer.undo' });
    expect(h.actor.getSnapshot().context.present.snapshot).toBe('b');
    expect(selectCanUndo(h.actor.getSnapshot())).toBe(false);
  });

  it('a drawing tool draws one object and hands back to select; pan stays', () => {
    h = startHarness();
    h.actor.send({ type: 'designer.tool', tool: 'rect' });
    h.actor.send({ type: 'designer.change', snapshot: 'rect', kind: 'add' });
    expect(h.actor.getSnapshot().context.tool).toBe('select');
    h.actor.send({ type: 'designer.tool', tool: 'pan' });
    h.actor.send({ type: 'designer.change', snapshot: 'moved', kind: 'modify' });
    expect(h.actor.getSnapshot().context.tool).toBe('pan');
  });

  it('an export asked for while fonts load waits for them, then exports what is on screen', async () => {
    h = startHarness();
    h.actor.send({ type: 'designer.font', family: FAMILY, text: '新品' });
    h.actor.send({ type: 'designer.change', snapshot: 'text', kind: 'add' });
    h.actor.send({ type: 'designer.save', target: 'png' });
    expect(selectIsSaving(h.actor.getSnapshot())).toBe(true);
    expect(selectLoadingFont(h.actor.getSnapshot())).toBe(FAMILY);
    expect(h.calls.save).toHaveLength(0);
    // The user keeps editing meanwhile; the export takes the latest.
    h.actor.send({ type: 'designer.change', snapshot: 'text styled', kind: 'style' });
    h.calls.fonts[0]!.resolve();
    await settle();
    expect(h.emitted).toContainEqual({ type: 'designer.fontReady', family: FAMILY });
    expect(h.calls.save.map((c) => c.input)).toEqual([{ target: 'png', snapshot: 'text styled', design: { id: null, name: '' } }]);
    h.calls.save[0]!.resolve();
    await settle();
    expect(h.emitted.at(-1)).toEqual({ type: 'designer.saved', target: 'png' });
    // A file export does not make the design saved on the server.
    expect(selectIsDirty(h.actor.getSnapshot())).toBe(true);
  });

  it('a save waiting for fonts that fail is dropped and says the fonts failed', async () => {
    h = startHarness();
    h.actor.send({ type: 'designer.font', family: FAMILY, text: '新品' });
    h.actor.send({ type: 'designer.save', target: 'server', name: '主图' });
    h.calls.fonts[0]!.reject(new Error('404'));
    await settle();
    expect(h.calls.save).toHaveLength(0);
    expect(selectIsSaving(h.actor.getSnapshot())).toBe(false);
    expect(selectProblem(h.actor.getSnapshot())).toEqual({ kind: 'fontsFailed', family: FAMILY });
    // Trying the font again loads it again.
    h.actor.send({ type: 'designer.font', family: FAMILY, text: '新品' });
    expect(h.calls.fonts).toHaveLength(2);
    expect(selectProblem(h.actor.getSnapshot())).toBeNull();
  });

  it('a font already loaded is used at once, without loading again', async () => {
    h = startHarness();
    h.actor.send({ type: 'designer.font', family: FAMILY, text: 'a' });
    h.calls.fonts[0]!.resolve();
    await settle();
    h.actor.send({ type: 'designer.font', family: FAMILY, text: 'b' });
    expect(h.calls.fonts).toHaveLength(1);
    expect(h.emitted.filter((e) => e.type === 'designer.fontReady')).toHaveLength(2);
  });

  it('a server save remembers the design, so the design is clean until the next change', async () => {
    h = startHarness();
    h.actor.send({ type: 'designer.change', snapshot: 'a', kind: 'add' });
    h.actor.send({ type: 'designer.save', target: 'server', name: '  夏季主图 ' });
    expect(h.calls.save[0]!.input.design).toEqual({ id: null, name: '夏季主图' });
    h.calls.save[0]!.resolve({ design: { id: 12, name: '夏季主图' } });
    await settle();
    expect(selectIsDirty(h.actor.getSnapshot())).toBe(false);
    h.actor.send({ type: 'designer.change', snapshot: 'b', kind: 'modify' });
    expect(selectIsDirty(h.actor.getSnapshot())).toBe(true);
    h.actor.send({ type: 'designer.undo' });
    expect(selectIsDirty(h.actor.getSnapshot())).toBe(false);
    h.actor.send({ type: 'designer.save', target: 'server' });
    expect(h.calls.save[1]!.input.design).toEqual({ id: 12, name: '夏季主图' });
  });

  it('opening a design is undone like any change, back to what was on screen', async () => {
    h = startHarness();
    h.actor.send({ type: 'designer.change', snapshot: 'mine', kind: 'add' });
    h.actor.send({ type: 'designer.open', id: 7 });
    h.calls.open[0]!.resolve(OPENED);
    await settle();
    expect(h.emitted.at(-1)).toEqual({ type: 'designer.apply', snapshot: OPENED.snapshot });
    expect(selectIsDirty(h.actor.getSnapshot())).toBe(false);
    h.actor.send({ type: 'designer.undo' });
    expect(h.emitted.at(-1)).toEqual({ type: 'designer.apply', snapshot: 'mine' });
  });

  it('"save as" makes a new design and leaves the current one; the next save goes to the new one', async () => {
    h = startHarness({ snapshot: START, design: { id: 12, name: '夏季主图' } });
    h.actor.send({ type: 'designer.change', snapshot: 'copy', kind: 'add' });
    h.actor.send({ type: 'designer.save', target: 'server', name: ' 夏季主图 B ', asNew: true });
    expect(h.calls.save[0]!.input).toEqual({ target: 'server', snapshot: 'copy', design: { id: null, name: '夏季主图 B' } });
    // Until the server answers, the design on screen is still the one it was opened as.
    expect(h.actor.getSnapshot().context.design).toEqual({ id: 12, name: '夏季主图' });
    h.calls.save[0]!.resolve({ design: { id: 13, name: '夏季主图 B' } });
    await settle();
    expect(h.actor.getSnapshot().context.design).toEqual({ id: 13, name: '夏季主图 B' });
    expect(selectIsDirty(h.actor.getSnapshot())).toBe(false);
    h.actor.send({ type: 'designer.change', snapshot: 'copy 2', kind: 'modify' });
    h.actor.send({ type: 'designer.save', target: 'server' });
    expect(h.calls.save[1]!.input.design).toEqual({ id: 13, name: '夏季主图 B' });
  });

  it('a "save as" that fails keeps the design it was, so the next save still replaces that one', async () => {
    h = startHarness({ snapshot: START, design: { id: 12, name: '夏季主图' } });
    h.actor.send({ type: 'designer.change', snapshot: 'copy', kind: 'add' });
    h.actor.send({ type: 'designer.save', target: 'server', name: 'B', asNew: true });
    h.calls.save[0]!.reject(refused);
    await settle();
    expect(selectProblem(h.actor.getSnapshot())).toEqual({ kind: 'saveFailed', target: 'server', reason: refused.message });
    h.actor.send({ type: 'designer.save', target: 'server' });
    expect(h.calls.save[1]!.input.design).toEqual({ id: 12, name: '夏季主图' });
  });
});

// ---------------------------------------------------------------------------------------------------------------

/** A fabric snapshot with a picture (as fabric writes it: a data URL in `src`) and a text that changes per edit. */
const withPicture = (picture: string, text: string, extra: string[] = []) =>
  JSON.stringify({ version: '6.9.1', width: 1000, height: 1000, objects: [{ type: 'Image', src: picture, left: 10 }, ...extra.map((src) => ({ type: 'Image', src })), { type: 'Textbox', text }] });
/** A picture's data URL of about `bytes`; a new string each call, as each canvas export makes one. */
const pictureOf = (bytes: number, seed = 'A') => `data:image/png;base64,${seed.repeat(bytes)}`;
const heldChars = (s: DesignerSnapshot) =>
  [...s.context.past, s.context.present, ...s.context.future].reduce((sum, entry) => sum + entry.snapshot.length, 0) +
  Object.values(s.context.sources).reduce((sum, source) => sum + source.length, 0);

describe('designer machine: pictures in the history are kept once', () => {
  afterEach(() => h.actor.stop());

  it('fifty edits of a design with a 2 MB picture keep one copy of it, and undo gives the picture back', () => {
    const MB2 = 2 * 1024 * 1024;
    h = startHarness({ snapshot: withPicture(pictureOf(MB2), 'start') });
    for (let k = 1; k <= 50; k++) h.actor.send({ type: 'designer.change', snapshot: withPicture(pictureOf(MB2), `edit ${k}`), kind: 'modify' });
    const snapshot = h.actor.getSnapshot();
    expect(snapshot.context.past).toHaveLength(50);
    expect(Object.keys(snapshot.context.sources)).toHaveLength(1);
    // Everything the history holds: the picture once, and fifty-one small snapshots.
    expect(heldChars(snapshot)).toBeLessThan(MB2 + 51 * 200);

    for (let k = 0; k < 25; k++) h.actor.send({ type: 'designer.undo' });
    expect(h.emitted.at(-1)).toEqual({ type: 'designer.apply', snapshot: withPicture(pictureOf(MB2), 'edit 25') });
    h.actor.send({ type: 'designer.save', target: 'png' });
    expect(h.calls.save[0]!.input.snapshot).toBe(withPicture(pictureOf(MB2), 'edit 25'));
  });

  it('keeps each different picture once, and lets go of a picture no step of the history shows any more', () => {
    h = startHarness({ snapshot: withPicture(pictureOf(5_000, 'A'), 'a'), historyLimit: 3 });
    h.actor.send({ type: 'designer.change', snapshot: withPicture(pictureOf(5_000, 'A'), 'b', [pictureOf(5_000, 'B')]), kind: 'add' });
    expect(Object.keys(h.actor.getSnapshot().context.sources)).toHaveLength(2);
    // Undo, then another change: the redo branch, the only one with picture B, goes, and B with it.
    h.actor.send({ type: 'designer.undo' });
    h.actor.send({ type: 'designer.change', snapshot: withPicture(pictureOf(5_000, 'A'), 'c'), kind: 'modify' });
    expect(Object.keys(h.actor.getSnapshot().context.sources)).toHaveLength(1);
    // Picture C comes in; when the history limit drops the oldest steps, A (no longer shown anywhere) goes.
    for (const text of ['d', 'e', 'f', 'g']) h.actor.send({ type: 'designer.change', snapshot: withPicture(pictureOf(5_000, 'C'), text), kind: 'modify' });
    expect(Object.values(h.actor.getSnapshot().context.sources)).toEqual([pictureOf(5_000, 'C')]);
  });

  it('a text that looks like a reference, and small pictures, stay as they were', () => {
    const tricky = JSON.stringify({ objects: [{ type: 'Textbox', text: '"\u0001abc"' }, { type: 'Image', src: 'data:image/png;base64,iVBOR' }] });
    h = startHarness({ snapshot: START });
    h.actor.send({ type: 'designer.change', snapshot: tricky, kind: 'add' });
    expect(h.actor.getSnapshot().context.present.snapshot).toBe(tricky);
    h.actor.send({ type: 'designer.undo' });
    h.actor.send({ type: 'designer.redo' });
    expect(h.emitted.at(-1)).toEqual({ type: 'designer.apply', snapshot: tricky });
  });

  it('an opened design with a picture is kept the same way, and the same snapshot again is no change', async () => {
    const picture = pictureOf(10_000);
    h = startHarness();
    h.actor.send({ type: 'designer.open', id: 7 });
    h.calls.open[0]!.resolve({ snapshot: withPicture(picture, 'opened'), design: { id: 7, name: '主图' } });
    await settle();
    expect(h.emitted.at(-1)).toEqual({ type: 'designer.apply', snapshot: withPicture(picture, 'opened') });
    expect(h.actor.getSnapshot().context.present.snapshot.length).toBeLessThan(300);
    h.actor.send({ type: 'designer.change', snapshot: withPicture(pictureOf(10_000), 'opened'), kind: 'modify' });
    expect(h.actor.getSnapshot().context.past).toHaveLength(1);
    expect(selectIsDirty(h.actor.getSnapshot())).toBe(false);
  });
});
