import { fromPromise } from 'xstate';
import type { CollectAnswer, UploadRecord } from '@contract/collection';
import type { DataClient } from '@workers/client';
import { collectionActionMachine, type CollectInput, type UploadInput } from '@machines/collectionActionMachine';

/** The collection page's actions on the data worker; the machine (machines/collectionActionMachine.ts) decides the rest. */
export function collectionActionOn(client: DataClient) {
  return collectionActionMachine.provide({
    actors: {
      collect: fromPromise<CollectAnswer, CollectInput>(({ input }) => client.collection.collect({ url: input.url })),
      upload: fromPromise<UploadRecord[], UploadInput>(({ input }) => client.collection.upload(input)),
    },
  });
}
