import { reasonOf } from './chatSendMachine';
import { keepReferenced, packSnapshot, unpackSnapshot, type PictureSources } from './designerPictures';
import { and, assertEvent, assign, emit, enqueueActions, fromPromise, not, setup, type SnapshotFrom } from 'xstate';

/**
 * The poster designer's editor (/edit/edit-image) as one actor: the tool in hand, the selection, the history of the
 * design (undo and redo), whether it changed since it was saved, a save or export in flight, a design being opened,
 * and fonts being loaded. The canvas itself (fabric.js) lives in the page; the machine only holds what the page
 * renders and decides, so it stays testable without a canvas.
 *
 * History is a list of snapshots: the canvas's JSON after each change (`designer.change`). Undo and redo move along
 * it and ask the page to show a snapshot (`designer.apply`); a change after an undo drops the redo branch. The oldest
 * snapshot goes when the history is longer than `historyLimit`. Dirty is "the snapshot on screen is not the one last
 * saved to the server". Pictures inside the snapshots are kept once each, by content (`designerPictures.ts`): the
 * history holds references, so fifty edits of a design with a large picture hold that picture once.
 *
 * "Save as" saves the design on screen as a new design; the one it was opened from stays as it was, and the next
 * save goes to the new one.
 *
 *   document:  ready → saving → ready            (save or export the snapshot on screen; a failure keeps the design)
 *              ready → opening → ready           (a design from the server; one that fails to load changes nothing)
 *   fonts:     idle → loading → idle | failed    (a family loaded on demand before text uses it)
 *
 * A save or export asked for while fonts load waits for them (the page says "Loading fonts, please wait..."), so a
 * picture never goes out with a fallback font; when the fonts fail, the waiting save is dropped with the reason.
 */

export const DESIGNER_TOOLS = ['select', 'pan', 'text', 'rect', 'ellipse', 'triangle', 'line'] as const;
export type DesignerTool = (typeof DESIGNER_TOOLS)[number];
/** Tools that draw one object on the next click, then hand back to `select`. */
export const DRAWING_TOOLS: readonly DesignerTool[] = ['text', 'rect', 'ellipse', 'triangle', 'line'];

/** What a change did, for the history's labels (the undo button's tooltip). */
export type ChangeKind = 'add' | 'modify' | 'remove' | 'style' | 'order' | 'group' | 'background' | 'resize' | 'template' | 'open';

/** Where a save goes: the design on the server, or a file in one of the export formats. */
export type SaveTarget = 'server' | 'png' | 'jpeg' | 'svg' | 'json';

export type HistoryEntry = { snapshot: string; kind: ChangeKind };

export type DesignRef = { id: number | null; name: string };

export type DesignerInput = { snapshot: string; design?: DesignRef; historyLimit?: number };

export type SaveDesignInput = { target: SaveTarget; snapshot: string; design: DesignRef };
/** The server's design after a save (its id, for the next save to update it); nothing for a file export. */
export type SaveDesignOutput = { design: DesignRef } | void;

export type OpenDesignInput = { id: number };
/** A design that loaded and rendered: the page's actor checks the JSON opens before it answers. */
export type OpenDesignOutput = { snapshot: string; design: DesignRef };

export type LoadFontsInput = { family: string; text: string };

export type DesignerProblem =
  | { kind: 'fontsFailed'; family: string }
  | { kind: 'saveFailed'; target: SaveTarget; reason: string | null }
  | { kind: 'openFailed'; reason: string | null };

export type DesignerContext = {
  tool: DesignerTool;
  selection: string[];
  past: HistoryEntry[];
  present: HistoryEntry;
  future: HistoryEntry[];
  /** The snapshot last saved to (or opened from) the server; null before the first save. */
  saved: string | null;
  design: DesignRef;
  historyLimit: number;
  /** The save in flight, or waiting for fonts. */
  pendingSave: SaveTarget | null;
  /** The new design a "save as" in flight makes (the current one stays until the save is done). */
  saveAs: DesignRef | null;
  /** The pictures the history's snapshots refer to. */
  sources: PictureSources;
  /** Fonts loaded (by family): a second use of a family loads nothing. */
  fonts: string[];
  loadingFont: LoadFontsInput | null;
  problem: DesignerProblem | null;
};

export type DesignerEvent =
  | { type: 'designer.tool'; tool: DesignerTool }
  | { type: 'designer.select'; ids: string[] }
  | { type: 'designer.change'; snapshot: string; kind: ChangeKind }
  | { type: 'designer.undo' }
  | { type: 'designer.redo' }
  /** `asNew`: save as a new design (with `name`), leaving the current one as it is. */
  | { type: 'designer.save'; target: SaveTarget; name?: string; asNew?: boolean }
  | { type: 'designer.open'; id: number }
  | { type: 'designer.font'; family: string; text: string }
  | { type: 'designer.dismiss' };

/** What the page must do on the canvas: show a snapshot (undo, redo, open), use a font that has loaded. */
export type DesignerEmitted =
  | { type: 'designer.apply'; snapshot: string }
  | { type: 'designer.fontReady'; family: string }
  | { type: 'designer.saved'; target: SaveTarget };

const DEFAULT_HISTORY_LIMIT = 100;

export const designerMachine = setup({
  types: {
    context: {} as DesignerContext,
    input: {} as DesignerInput,
    events: {} as DesignerEvent,
    emitted: {} as DesignerEmitted,
  },
  actors: {
    saveDesign: fromPromise<SaveDesignOutput, SaveDesignInput>(async () => {
      throw new Error('saveDesign not provided');
    }),
    openDesign: fromPromise<OpenDesignOutput, OpenDesignInput>(async () => {
      throw new Error('openDesign not provided');
    }),
    loadFonts: fromPromise<void, LoadFontsInput>(async () => {
      throw new Error('loadFonts not provided');
    }),
  },
  guards: {
    canUndo: ({ context }) => context.past.length > 0,
    canRedo: ({ context }) => context.future.length > 0,
    isNewSnapshot: ({ context, event }) => event.type === 'designer.change' && packSnapshot(event.snapshot, context.sources).snapshot !== context.present.snapshot,
    isFontLoaded: ({ context, event }) => event.type === 'designer.font' && context.fonts.includes(event.family),
    isWaitingForFonts: ({ context }) => context.loadingFont !== null,
    hasFontsFailed: ({ context }) => context.problem?.kind === 'fontsFailed',
  },
  actions: {
    setTool: assign({
      tool: ({ event }) => {
        assertEvent(event, 'designer.tool');
        return event.tool;
      },
    }),
    setSelection: assign({
      selection: ({ event }) => {
        assertEvent(event, 'designer.select');
        return event.ids;
      },
    }),
    commitChange: assign(({ context, event }) => {
      assertEvent(event, 'designer.change');
      const { snapshot, sources } = packSnapshot(event.snapshot, context.sources);
      const past = [...context.past, context.present].slice(-context.historyLimit);
      return {
        past,
        present: { snapshot, kind: event.kind },
        future: [],
        // What went out of the history (its oldest step, the redo branch) takes its pictures with it.
        sources: keepReferenced(sources, [...past.map((entry) => entry.snapshot), snapshot]),
        // A drawing tool draws one object, then the pointer selects again.
        tool: event.kind === 'add' && DRAWING_TOOLS.includes(context.tool) ? ('select' as const) : context.tool,
      };
    }),
    undo: assign(({ context }) => ({
      past: context.past.slice(0, -1),
      present: context.past.at(-1)!,
      future: [context.present, ...context.future],
      selection: [],
    })),
    redo: assign(({ context }) => ({
      past: [...context.past, context.present],
      present: context.future[0]!,
      future: context.future.slice(1),
      selection: [],
    })),
    applyPresent: emit(({ context }): DesignerEmitted => ({ type: 'designer.apply', snapshot: unpackSnapshot(context.present.snapshot, context.sources) })),
    queueSave: assign(({ context, event }) => {
      assertEvent(event, 'designer.save');
      const name = event.name?.trim() ?? '';
      if (event.asNew && event.target === 'server') return { pendingSave: event.target, saveAs: { id: null, name: name || context.design.name }, problem: null };
      return {
        pendingSave: event.target,
        saveAs: null,
        design: name ? { ...context.design, name } : context.design,
        problem: null,
      };
    }),
    saveDone: enqueueActions(({ context, event, enqueue }) => {
      const output = (event as { output?: SaveDesignOutput }).output;
      const target = context.pendingSave!;
      if (output?.design) enqueue.assign({ design: output.design, saved: context.present.snapshot });
      enqueue.assign({ pendingSave: null, saveAs: null });
      enqueue.emit({ type: 'designer.saved', target });
    }),
    saveFailed: assign(({ context, event }) => ({
      pendingSave: null,
      saveAs: null,
      problem: { kind: 'saveFailed' as const, target: context.pendingSave!, reason: reasonOf((event as { error?: unknown }).error) },
    })),
    opened: assign(({ context, event }) => {
      const { snapshot: raw, design } = (event as unknown as { output: OpenDesignOutput }).output;
      const { snapshot, sources } = packSnapshot(raw, context.sources);
      const past = [...context.past, context.present].slice(-context.historyLimit);
      return {
        past,
        present: { snapshot, kind: 'open' as const },
        future: [],
        sources: keepReferenced(sources, [...past.map((entry) => entry.snapshot), snapshot]),
        selection: [],
        design,
        saved: snapshot,
        problem: null,
      };
    }),
    openFailed: assign({ problem: ({ event }) => ({ kind: 'openFailed' as const, reason: reasonOf((event as { error?: unknown }).error) }) }),
    startFont: assign(({ event }) => {
      assertEvent(event, 'designer.font');
      return { loadingFont: { family: event.family, text: event.text }, problem: null };
    }),
    fontLoaded: enqueueActions(({ context, enqueue }) => {
      const family = context.loadingFont!.family;
      enqueue.assign({ fonts: [...context.fonts, family], loadingFont: null });
      enqueue.emit({ type: 'designer.fontReady', family });
    }),
    fontFailed: assign(({ context }) => ({
      problem: { kind: 'fontsFailed' as const, family: context.loadingFont!.family },
      loadingFont: null,
    })),
    // A save that waited for fonts that failed would go out with a fallback font: it is dropped, the reason shown.
    dropSave: assign({ pendingSave: null }),
    emitFontReady: emit(({ event }): DesignerEmitted => {
      assertEvent(event, 'designer.font');
      return { type: 'designer.fontReady', family: event.family };
    }),
    dismiss: assign({ problem: null }),
  },
}).createMachine({
  id: 'designer',
  type: 'parallel',
  context: ({ input }) => {
    const { snapshot, sources } = packSnapshot(input.snapshot, {});
    return {
      tool: 'select',
      selection: [],
      past: [],
      present: { snapshot, kind: 'template' },
      future: [],
      saved: input.design?.id ? snapshot : null,
      design: input.design ?? { id: null, name: '' },
      historyLimit: input.historyLimit ?? DEFAULT_HISTORY_LIMIT,
      pendingSave: null,
      saveAs: null,
      sources,
      fonts: [],
      loadingFont: null,
      problem: null,
    };
  },
  on: {
    'designer.tool': { actions: 'setTool' },
    'designer.select': { actions: 'setSelection' },
    'designer.dismiss': { actions: 'dismiss' },
  },
  states: {
    document: {
      initial: 'ready',
      states: {
        ready: {
          on: {
            'designer.change': { guard: 'isNewSnapshot', actions: 'commitChange' },
            'designer.undo': { guard: 'canUndo', actions: ['undo', 'applyPresent'] },
            'designer.redo': { guard: 'canRedo', actions: ['redo', 'applyPresent'] },
            'designer.save': [
              { guard: 'isWaitingForFonts', target: 'waitingForFonts', actions: 'queueSave' },
              { target: 'saving', actions: 'queueSave' },
            ],
            'designer.open': 'opening',
          },
        },
        waitingForFonts: {
          always: [
            { guard: and([not('isWaitingForFonts'), 'hasFontsFailed']), target: 'ready', actions: 'dropSave' },
            { guard: not('isWaitingForFonts'), target: 'saving' },
          ],
          on: {
            // The design on screen still changes while the save waits; the save takes the snapshot it finds.
            'designer.change': { guard: 'isNewSnapshot', actions: 'commitChange' },
          },
        },
        saving: {
          invoke: {
            id: 'saveDesign',
            src: 'saveDesign',
            input: ({ context }) => ({ target: context.pendingSave!, snapshot: unpackSnapshot(context.present.snapshot, context.sources), design: context.saveAs ?? context.design }),
            onDone: { target: 'ready', actions: 'saveDone' },
            onError: { target: 'ready', actions: 'saveFailed' },
          },
        },
        opening: {
          invoke: {
            id: 'openDesign',
            src: 'openDesign',
            input: ({ event }) => {
              assertEvent(event, 'designer.open');
              return { id: event.id };
            },
            onDone: { target: 'ready', actions: ['opened', 'applyPresent'] },
            onError: { target: 'ready', actions: 'openFailed' },
          },
        },
      },
    },
    fonts: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'designer.font': [
              { guard: 'isFontLoaded', actions: 'emitFontReady' },
              { target: 'loading', actions: 'startFont' },
            ],
          },
        },
        loading: {
          invoke: {
            id: 'loadFonts',
            src: 'loadFonts',
            input: ({ context }) => context.loadingFont!,
            onDone: { target: 'idle', actions: 'fontLoaded' },
            onError: { target: 'failed', actions: 'fontFailed' },
          },
        },
        failed: {
          on: {
            'designer.font': [
              { guard: 'isFontLoaded', target: 'idle', actions: 'emitFontReady' },
              { target: 'loading', actions: 'startFont' },
            ],
            'designer.dismiss': 'idle',
          },
        },
      },
    },
  },
});

export type DesignerSnapshot = SnapshotFrom<typeof designerMachine>;

export const selectTool = (s: DesignerSnapshot) => s.context.tool;
export const selectSelection = (s: DesignerSnapshot) => s.context.selection;
export const selectCanUndo = (s: DesignerSnapshot) => s.context.past.length > 0 && s.matches({ document: 'ready' });
export const selectCanRedo = (s: DesignerSnapshot) => s.context.future.length > 0 && s.matches({ document: 'ready' });
/** Changed since it was last saved; a design never saved is dirty once it has a change to lose (not a blank start). */
export const selectIsDirty = (s: DesignerSnapshot) => (s.context.saved === null ? s.context.past.length > 0 : s.context.present.snapshot !== s.context.saved);
export const selectIsSaving = (s: DesignerSnapshot) => s.matches({ document: 'saving' }) || s.matches({ document: 'waitingForFonts' });
export const selectSaveTarget = (s: DesignerSnapshot) => s.context.pendingSave;
export const selectIsOpening = (s: DesignerSnapshot) => s.matches({ document: 'opening' });
export const selectLoadingFont = (s: DesignerSnapshot) => s.context.loadingFont?.family ?? null;
export const selectProblem = (s: DesignerSnapshot) => s.context.problem;
export const selectDesign = (s: DesignerSnapshot) => s.context.design;
export const selectPresent = (s: DesignerSnapshot) => unpackSnapshot(s.context.present.snapshot, s.context.sources);
/** What undo and redo would take back or do again (for their tooltips). */
export const selectUndoKind = (s: DesignerSnapshot): ChangeKind | null => (s.context.past.length ? s.context.present.kind : null);
export const selectRedoKind = (s: DesignerSnapshot): ChangeKind | null => s.context.future[0]?.kind ?? null;
