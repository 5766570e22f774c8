import { isDatabaseUnavailable } from './db/availability';

type Log = { error(object: unknown, message: string): void; fatal?(object: unknown, message: string): void };

/**
 * The last line of defence of a running server: what escapes every handler and background loop is logged here
 * instead of ending the process. A rejection nobody handled is logged and the server goes on (each loop tries again
 * at its next turn). An exception nobody caught leaves the process in an unknown state, so it ends it (the process
 * manager starts it again) unless it is the database going away (a socket's 'error' event), which is safe to ride out.
 * Installed by main.ts only: tests build many apps in one process.
 */
export function installProcessGuards(log: Log): void {
  process.on('unhandledRejection', (reason) => {
    log.error({ err: reason }, isDatabaseUnavailable(reason) ? 'unhandled rejection (the database is unavailable)' : 'unhandled rejection');
  });
  process.on('uncaughtException', (error, origin) => {
    if (isDatabaseUnavailable(error)) {
      log.error({ err: error, origin }, 'uncaught exception (the database is unavailable); the server goes on');
      return;
    }
    (log.fatal ?? log.error).call(log, { err: error, origin }, 'uncaught exception; the server stops');
    process.exitCode = 1;
    // Give the log a moment to reach its destination.
    setTimeout(() => process.exit(1), 100).unref();
  });
}

/** The waits between tries while the database cannot be reached at start: first, doubling up to max. */
export const START_WAIT_MS = { first: 500, max: 10_000 };

/**
 * `work` (opening the database, migrating) tried again, with a growing wait and one line of log per try, for as long
 * as it fails because the database cannot be reached: an instance started while the database is down (or restarting)
 * waits for it. Any other failure (a wrong password, a broken migration) ends the wait at once.
 */
export async function whenDatabaseAnswers<T>(what: string, work: () => Promise<T>, log: (line: string) => void, waits = START_WAIT_MS): Promise<T> {
  let wait = waits.first;
  const since = Date.now();
  for (let attempt = 1; ; attempt++) {
    try {
      const result = await work();
      if (attempt > 1) log(`${what}: the database answered after ${((Date.now() - since) / 1000).toFixed(1)} s`);
      return result;
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      log(`${what}: the database cannot be reached (${(error as Error).message || (error as { code?: string }).code}); trying again in ${(wait / 1000).toFixed(1)} s`);
      await new Promise((done) => setTimeout(done, wait));
      wait = Math.min(wait * 2, waits.max);
    }
  }
}
