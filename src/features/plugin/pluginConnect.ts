import { fromPromise } from 'xstate';
import type { IssuedToken } from '@contract/plugin';
import type { PluginUser } from '@contract/pluginProtocol';
import type { DataClient } from '@workers/client';
import { pluginConnectMachine, type HandOverInput, type IssueInput } from '@machines/pluginConnectMachine';
import { handOverToken } from './pluginBridge';

/** The plugin page's connect action on the data worker and the plugin's bridge (machines/pluginConnectMachine.ts). */
export function pluginConnectOn(client: DataClient, noAnswer: string) {
  return pluginConnectMachine.provide({
    actors: {
      issueToken: fromPromise<IssuedToken, IssueInput>(({ input }) => client.plugin.issueToken(input.label)),
      handOver: fromPromise<PluginUser, HandOverInput>(({ input }) => handOverToken(input.token, noAnswer)),
    },
  });
}
