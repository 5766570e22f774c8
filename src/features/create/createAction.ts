import { fromPromise } from 'xstate';
import type { CreateTask } from '@contract/create';
import type { DataClient } from '@workers/client';
import { createProductMachine, type CreateInput, type CreateStatusInput } from '@machines/createProductMachine';

/** The create action's actors on the data worker; the machine (machines/createProductMachine.ts) decides the rest. */
export function createActionOn(client: DataClient) {
  return createProductMachine.provide({
    actors: {
      create: fromPromise<CreateTask, CreateInput>(({ input }) => client.create.create(input)),
      status: fromPromise<CreateTask, CreateStatusInput>(({ input }) => client.create.status(input)),
    },
  });
}
