import type { FastifyInstance } from 'fastify';
import { DEFAULT_PREFERENCES, DISPLAY_CURRENCIES, PREFERENCE_ENDPOINTS, type DisplayCurrency, type Preferences } from '../../../contract/preferences';
import type { Database } from '../../db/database';
import { route } from '../../http/route';

type PreferenceRow = { display_currency: string };

/** A stored value the contract no longer knows (an older release's) reads as the default. */
function toPreferences(row: PreferenceRow | undefined): Preferences {
  const shown = row?.display_currency;
  return { displayCurrency: (DISPLAY_CURRENCIES as readonly string[]).includes(shown ?? '') ? (shown as DisplayCurrency) : DEFAULT_PREFERENCES.displayCurrency };
}

async function preferencesOf(database: Database, userId: number): Promise<Preferences> {
  const [row] = await database.query<PreferenceRow>(`select display_currency from user_preferences where user_id = $1`, [userId]);
  return toPreferences(row);
}

/**
 * A person's own preferences (contract/preferences.ts), per person, not per account: a member of an organisation
 * chooses their own display currency. The input schema refuses an unknown value with the field's name.
 */
export async function preferenceRoutes(app: FastifyInstance) {
  route(app, PREFERENCE_ENDPOINTS.get, async ({ user }) => preferencesOf(app.database, user.id));

  route(app, PREFERENCE_ENDPOINTS.save, async ({ user, input }) => {
    const next = { ...(await preferencesOf(app.database, user.id)), ...input };
    await app.database.query(
      `insert into user_preferences (user_id, display_currency, updated_at) values ($1, $2, now())
       on conflict (user_id) do update set display_currency = excluded.display_currency, updated_at = excluded.updated_at`,
      [user.id, next.displayCurrency],
    );
    return next;
  });
}
