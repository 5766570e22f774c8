import { fromPromise } from 'xstate';
import type { CopyPreviewAnswer, CopyRecord } from '@contract/copy';
import type { DataClient } from '@workers/client';
import { copyActionMachine, type CopyChunkInput, type PreviewInput, type StatusInput } from '@machines/copyActionMachine';

/** The copy action's actors on the data worker; the machine (machines/copyActionMachine.ts) decides everything else. */
export function copyActionOn(client: DataClient) {
  return copyActionMachine.provide({
    actors: {
      preview: fromPromise<CopyPreviewAnswer, PreviewInput>(({ input }) => client.copy.preview(input)),
      copyChunk: fromPromise<CopyRecord[], CopyChunkInput>(({ input }) => client.copy.copy(input)),
      status: fromPromise<CopyRecord[], StatusInput>(({ input }) => client.copy.status(input.ids)),
      retry: fromPromise<CopyRecord[], StatusInput>(({ input }) => client.copy.retry(input.ids)),
    },
  });
}
