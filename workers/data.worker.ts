import '../contract/jitless';
import { expose } from 'comlink';
import type { DataApi } from './api';
import { createDataApi, createWorkerCore } from './dataApi';

// Calls go to the page's own origin: relative URLs resolve against the worker's location.
const api = createDataApi(createWorkerCore({ baseUrl: '' }), { push: { origin: self.location.origin } }) satisfies DataApi;

expose(api);
