import type { FastifyInstance } from 'fastify';
import { TOOL_ENDPOINTS } from '../../../contract/tools';
import { ApiError } from '../../http/errors';
import { route } from '../../http/route';
import { convertExact, findRate, rateHistory, ratesFor, RatesError, refreshRates, type RatesDeps, type StoredRate } from './rates';

export type ToolsRoutesOptions = {
  /** How often the bank's rates are read again; 0 turns the schedule off (tests). Default: hourly. */
  refreshEveryMs?: number;
};

const SOURCE = 'cbr' as const;

/** The catalogue's answer for a rates failure: 400 naming the field of an unknown currency, 502 with nothing stored. */
function asApiError(error: unknown): never {
  if (error instanceof RatesError) {
    if (error.reason === 'unknownCurrency') throw new ApiError(400, 'unknownCurrency', error.field);
    throw new ApiError(502, 'ratesUnavailable');
  }
  throw error;
}

function rateOf(rates: readonly StoredRate[], code: string, field: string): StoredRate {
  try {
    return findRate(rates, code, field);
  } catch (error) {
    return asApiError(error);
  }
}

/**
 * Tools open to every signed-in user. Exchange rates: the Bank of Russia's official rates, read at start and then
 * hourly and kept, so conversion keeps working (with the date of the rate shown) while the bank cannot be reached.
 */
export async function toolsRoutes(app: FastifyInstance, options: ToolsRoutesOptions = {}) {
  const deps: RatesDeps = { database: app.database, cbr: app.integrations.cbr.client, now: () => app.now() };

  const every = options.refreshEveryMs ?? 3_600_000;
  if (every > 0) {
    const refresh = () =>
      refreshRates(deps).catch((error: unknown) => app.log.warn({ err: (error as Error).message }, 'exchange rates: the Bank of Russia could not be read'));
    let timer: NodeJS.Timeout | null = null;
    app.addHook('onReady', async () => {
      void refresh();
      timer = setInterval(refresh, every);
      timer.unref();
    });
    app.addHook('onClose', async () => {
      if (timer) clearInterval(timer);
    });
  }

  route(app, TOOL_ENDPOINTS.rates, async ({ input }) => {
    const rates = await ratesFor(deps, input.date).catch(asApiError);
    return { date: rates.date, fetchedAt: rates.fetchedAt, stale: rates.stale, problem: rates.problem, source: SOURCE, rates: rates.rates.map(({ cbrId: _id, ...rate }) => rate) };
  });

  route(app, TOOL_ENDPOINTS.convert, async ({ input }) => {
    const rates = await ratesFor(deps, input.date).catch(asApiError);
    const from = rateOf(rates.rates, input.from, 'from');
    const to = rateOf(rates.rates, input.to, 'to');
    const { result, rate } = convertExact(input.amount, from, to);
    return { date: rates.date, fetchedAt: rates.fetchedAt, stale: rates.stale, problem: rates.problem, source: SOURCE, from: from.code, to: to.code, amount: input.amount, result, rate };
  });

  route(app, TOOL_ENDPOINTS.history, async ({ input }) => {
    const history = await rateHistory(deps, input.code, input.from, input.to).catch(asApiError);
    return { code: input.code, source: SOURCE, ...history };
  });
}
