import { assign, assertEvent, fromPromise, setup } from 'xstate';
import type { IssuedToken } from '../contract/plugin';
import type { PluginUser } from '../contract/pluginProtocol';
import { reasonOf } from './chatSendMachine';

/**
 * Connecting the browser plugin (/plugin/download). `connect.start` issues a plugin token (`issuing`); when the page
 * saw the plugin installed, `handingOver` gives the token to it through its bridge and ends `connected` as the
 * user the plugin now holds. Without the plugin, or when it does not take the token in time, the token is shown
 * once (`showingToken`) to paste into the plugin's popup; closing forgets it. A refused issue (too many tokens, no
 * permission) is `failed` with the server's reason, retried as it was asked.
 */

export type IssueInput = { label: string };
export type HandOverInput = { token: string };

export type PluginConnectContext = {
  label: string;
  pluginInstalled: boolean;
  issued: IssuedToken | null;
  user: PluginUser | null;
  reason: string | null;
};

export type PluginConnectEvent = { type: 'connect.start'; label: string; pluginInstalled: boolean } | { type: 'action.retry' } | { type: 'action.close' };

export const pluginConnectMachine = setup({
  types: { context: {} as PluginConnectContext, events: {} as PluginConnectEvent },
  actors: {
    issueToken: fromPromise<IssuedToken, IssueInput>(async () => {
      throw new Error('issueToken not provided');
    }),
    handOver: fromPromise<PluginUser, HandOverInput>(async () => {
      throw new Error('handOver not provided');
    }),
  },
  guards: {
    hasLabel: ({ event }) => event.type === 'connect.start' && event.label.trim() !== '',
    isPluginInstalled: ({ context }) => context.pluginInstalled,
  },
  actions: {
    takeRequest: assign(({ event }) => {
      assertEvent(event, 'connect.start');
      return { label: event.label.trim(), pluginInstalled: event.pluginInstalled, issued: null, user: null, reason: null };
    }),
    keepReason: assign({ reason: ({ event }) => reasonOf((event as { error?: unknown }).error) }),
    forgetToken: assign({ issued: null }),
  },
}).createMachine({
  id: 'pluginConnect',
  context: { label: '', pluginInstalled: false, issued: null, user: null, reason: null },
  initial: 'idle',
  states: {
    idle: {
      on: { 'connect.start': { guard: 'hasLabel', target: 'issuing', actions: 'takeRequest' } },
    },
    issuing: {
      invoke: {
        src: 'issueToken',
        input: ({ context }) => ({ label: context.label }),
        onDone: [
          { guard: 'isPluginInstalled', target: 'handingOver', actions: assign({ issued: ({ event }) => event.output }) },
          { target: 'showingToken', actions: assign({ issued: ({ event }) => event.output }) },
        ],
        onError: { target: 'failed', actions: 'keepReason' },
      },
    },
    handingOver: {
      invoke: {
        src: 'handOver',
        input: ({ context }) => ({ token: context.issued!.token }),
        onDone: { target: 'connected', actions: [assign({ user: ({ event }) => event.output }), 'forgetToken'] },
        onError: { target: 'showingToken', actions: 'keepReason' },
      },
    },
    connected: { on: { 'action.close': 'idle' } },
    showingToken: { exit: 'forgetToken', on: { 'action.close': 'idle' } },
    failed: { on: { 'action.retry': 'issuing', 'action.close': 'idle' } },
  },
});

export type PluginConnectSnapshot = { value: unknown; context: PluginConnectContext };

export const selectConnecting = (s: PluginConnectSnapshot) => s.value === 'issuing' || s.value === 'handingOver';
export const selectConnectedUser = (s: PluginConnectSnapshot) => (s.value === 'connected' ? s.context.user : null);
/** The token to copy into the plugin (shown once), and why the plugin did not take it itself, if it was asked. */
export const selectShownToken = (s: PluginConnectSnapshot) =>
  s.value === 'showingToken' && s.context.issued ? { token: s.context.issued.token, reason: s.context.reason } : null;
export const selectConnectFailure = (s: PluginConnectSnapshot) => (s.value === 'failed' ? (s.context.reason ?? '') : null);
/** Where the action stands: the page reloads its token list when a token was issued (connected or shown). */
export const selectConnectState = (s: PluginConnectSnapshot) => s.value as 'idle' | 'issuing' | 'handingOver' | 'connected' | 'showingToken' | 'failed';
