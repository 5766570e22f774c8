import { createContext, useContext, type ReactNode } from 'react';
import type { DataClient } from '@workers/client';

const DataClientContext = createContext<DataClient | null>(null);

export function DataClientProvider({ client, children }: { client: DataClient; children: ReactNode }) {
  return <DataClientContext.Provider value={client}>{children}</DataClientContext.Provider>;
}

/** The data worker's typed surface; tests hand in a fake through DataClientProvider. */
export function useDataClient(): DataClient {
  const client = useContext(DataClientContext);
  if (!client) throw new Error('useDataClient outside DataClientProvider');
  return client;
}
