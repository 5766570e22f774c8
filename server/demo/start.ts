import type { FastifyInstance } from 'fastify';
import type { AppOptions } from '../app';
import { seedDemoMarket } from './market';
import { seedDemoPostcodes } from './postcodes';
import { seedDemoShops } from './shops';
import { seedDemoTeam } from './team';

/**
 * What a demo server is built with: the embedded Ozon simulator, the sync and the server on one clock, and the
 * simulator making new postings, buyer messages and promotions as that clock moves (simulator/live.ts), so the demo
 * has work for the seller whatever day it starts and however long it runs. Tests give their own clock.
 */
export function demoAppOptions(now: () => Date = () => new Date()): Pick<AppOptions, 'now' | 'marketplace' | 'sync'> {
  return { now, marketplace: { simulatorOptions: { live: true, now: () => now().getTime() } }, sync: { scheduler: { now }, now } };
}

/** Runs one seeding step; main.ts waits through a database outage with it. */
export type SeedStep = <T>(what: string, step: () => Promise<T>) => Promise<T>;

/** After the app is built: the demo seller's shops and its organisation, the market and the post offices (each once per database). */
export async function seedDemoData(app: FastifyInstance, run: SeedStep = (_what, step) => step()): Promise<void> {
  const { database, config } = app;
  const simulator = app.marketplace.simulator;
  if (simulator) {
    const shopIds = await run('demo shops', () => database.exclusive('startup', () => seedDemoShops(database, config.secretKey, simulator)));
    await run('demo team', () => database.exclusive('startup', () => seedDemoTeam(database, shopIds)));
  }
  await run('demo market', () => database.exclusive('startup', () => seedDemoMarket(database)));
  await run('demo postcodes', () => database.exclusive('startup', () => seedDemoPostcodes(database)));
}
