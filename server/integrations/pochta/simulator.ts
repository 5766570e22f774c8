import type { FastifyInstance } from 'fastify';
import { SAMPLE_ADDRESSES, SAMPLE_POSTCODES } from '../../areas/postcodes/sample';

/**
 * Russian Post's post-office service simulated for the demo and the tests: `postoffice/1.0/{index}` for the demo
 * sample's offices (404 for any other index, as the service answers an index it does not know) and
 * `postoffice/1.0/by-address`, which finds the sample's offices by street words. It checks the token and the user's
 * key, and can be switched down.
 */

export const SIM_POCHTA_TOKEN = 'demo-pochta-token';
export const SIM_POCHTA_USER_KEY = Buffer.from('demo:demo-password').toString('base64');

export type PochtaSimulator = { down: boolean; calls: number };

const normal = (text: string) => text.toLowerCase().replaceAll('ё', 'е');
const WORD = /[\p{L}\d]+/gu;
const ABBREVIATIONS = new Set(['г', 'ул', 'д', 'стр', 'пр', 'кт', 'пл', 'обл']);

function workingHours(index: string) {
  const main = SAMPLE_POSTCODES.find((office) => office.index === index)?.type === 'ПОЧТАМТ';
  return [1, 2, 3, 4, 5, 6, 7].map((weekday) => {
    if (weekday === 7 && !main) return { 'weekday-id': weekday, lunches: [] };
    const [open, close] = weekday >= 6 ? ['09:00', '18:00'] : main ? ['08:00', '22:00'] : ['08:00', '20:00'];
    return {
      'weekday-id': weekday,
      'begin-worktime': `${open}:00.000`,
      'end-worktime': `${close}:00.000`,
      lunches: main || weekday >= 6 ? [] : [{ 'begin-time': '13:00:00.000', 'end-time': '14:00:00.000' }],
    };
  });
}

export async function pochtaSimulatorPlugin(app: FastifyInstance, options: { simulator: PochtaSimulator }) {
  const sim = options.simulator;
  app.addHook('onRequest', async (request, reply) => {
    sim.calls++;
    if (sim.down) return reply.code(503).send('Service Unavailable');
    if (request.headers.authorization !== `AccessToken ${SIM_POCHTA_TOKEN}` || request.headers['x-user-authorization'] !== `Basic ${SIM_POCHTA_USER_KEY}`) {
      return reply.code(401).send({ code: '1001', desc: 'Authorization failed' });
    }
  });

  app.get<{ Querystring: { address?: string } }>('/postoffice/1.0/by-address', async (request) => {
    const words = (normal(request.query.address ?? '').match(WORD) ?? []).filter((word) => !ABBREVIATIONS.has(word));
    const matched = words.length === 0 ? [] : Object.entries(SAMPLE_ADDRESSES).filter(([, address]) => {
      const have = new Set(normal(address).match(WORD) ?? []);
      return words.every((word) => [...have].some((token) => token.startsWith(word)));
    });
    return { 'is-matched': matched.length > 0, postoffices: matched.map(([index]) => index) };
  });

  app.get<{ Params: { index: string } }>('/postoffice/1.0/:index', async (request, reply) => {
    const address = SAMPLE_ADDRESSES[request.params.index];
    const office = SAMPLE_POSTCODES.find((o) => o.index === request.params.index);
    if (!address || !office) return reply.code(404).send({ code: '1002', desc: 'Post office not found' });
    return {
      'postal-code': office.index,
      'address-source': address,
      'is-closed': false,
      'is-temporary-closed': false,
      latitude: 55 + (Number(office.index) % 1000) / 1000,
      longitude: 37 + (Number(office.index) % 997) / 1000,
      region: office.region,
      settlement: office.city,
      'type-code': office.type,
      'working-hours': workingHours(office.index),
    };
  });
}
