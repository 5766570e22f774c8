import { fromPromise } from 'xstate';
import type { WatermarkJob, WatermarkJobDetail } from '@contract/watermark';
import type { DataClient } from '@workers/client';
import { watermarkJobMachine, type WatermarkRequest } from '@machines/watermarkJobMachine';

/** The watermark job's actors on the data worker; the machine (machines/watermarkJobMachine.ts) decides the rest. */
export function watermarkJobOn(client: DataClient) {
  return watermarkJobMachine.provide({
    actors: {
      startJob: fromPromise<WatermarkJob, WatermarkRequest>(({ input }) =>
        input.kind === 'restore'
          ? client.edit.restoreWatermark(input.jobId)
          : client.edit.applyWatermark({ templateId: input.templateId, shopId: input.shopId, productIds: input.productIds, send: input.send }),
      ),
      readJob: fromPromise<WatermarkJobDetail, { id: number }>(({ input }) => client.edit.watermarkJob(input.id)),
    },
  });
}
