import { assign, fromPromise, setup } from 'xstate';

/**
 * Loading a file that replaces data on the server (an administrator's import): one at a time, the outcome kept on
 * screen (what was loaded, or why nothing was), a failed one retried with the same file. The page provides `load`.
 * An import of several files (the market's products and keywords) gives the others in `also`.
 */
export const fileImportMachine = setup({
  types: {
    context: {} as { file: File | null; also: File[]; result: unknown; error: unknown },
    events: {} as { type: 'import'; file: File; also?: File[] } | { type: 'retry' } | { type: 'dismiss' },
  },
  actors: {
    load: fromPromise<unknown, { file: File; also?: File[] }>(() => Promise.reject(new Error('load is provided by the page'))),
  },
}).createMachine({
  id: 'fileImport',
  initial: 'idle',
  context: { file: null, also: [], result: null, error: null },
  states: {
    idle: { on: { import: { target: 'importing', actions: assign({ file: ({ event }) => event.file, also: ({ event }) => event.also ?? [], error: null, result: null }) } } },
    importing: {
      invoke: {
        src: 'load',
        input: ({ context }) => ({ file: context.file!, also: context.also }),
        onDone: { target: 'done', actions: assign({ result: ({ event }) => event.output }) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => event.error }) },
      },
    },
    done: { on: { dismiss: 'idle', import: { target: 'importing', actions: assign({ file: ({ event }) => event.file, also: ({ event }) => event.also ?? [], error: null, result: null }) } } },
    failed: {
      on: {
        retry: { target: 'importing', actions: assign({ error: null }) },
        dismiss: 'idle',
        import: { target: 'importing', actions: assign({ file: ({ event }) => event.file, also: ({ event }) => event.also ?? [], error: null }) },
      },
    },
  },
});
