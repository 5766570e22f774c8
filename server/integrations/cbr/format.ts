import { XMLParser } from 'fast-xml-parser';

/**
 * The Bank of Russia's XML rate services (https://www.cbr.ru/development/SXML/): the formats our client reads and the
 * simulator writes. Values are decimal strings with a comma (`11,0613`), for `Nominal` units of the currency, in
 * roubles; dates are DD.MM.YYYY in answers and DD/MM/YYYY in requests. Documents are windows-1251.
 */

/** One currency's official rate on one date: `value` roubles for `nominal` units (decimal string with a dot). */
export type CbrRate = {
  /** The Bank of Russia's own currency id (R01375 for the yuan): what the history service is asked with. */
  id: string;
  numCode: string;
  charCode: string;
  nominal: number;
  name: string;
  value: string;
};

/** XML_daily.asp: the rates set for `date` (ISO yyyy-mm-dd), which may be earlier than the date asked for. */
export type CbrDaily = { date: string; rates: CbrRate[] };
/** XML_dynamic.asp: one currency's rate on each date it was set within a range. */
export type CbrDynamic = { id: string; records: { date: string; nominal: number; value: string }[] };

export class CbrFormatError extends Error {
  override name = 'CbrFormatError';
}

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false, isArray: (name) => name === 'Valute' || name === 'Record' });

const DECIMAL = /^\d+(,\d+)?$/;

/** '11,0613' -> '11.0613'; throws on anything that is not a plain positive decimal. */
function decimal(text: unknown, what: string): string {
  const value = String(text ?? '').trim();
  if (!DECIMAL.test(value)) throw new CbrFormatError(`${what}: not a decimal: ${JSON.stringify(value).slice(0, 40)}`);
  return value.replace(',', '.');
}

/** 'DD.MM.YYYY' -> 'YYYY-MM-DD'. */
export function isoDate(text: unknown, what: string): string {
  const match = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(String(text ?? '').trim());
  if (!match) throw new CbrFormatError(`${what}: not a DD.MM.YYYY date: ${JSON.stringify(text).slice(0, 40)}`);
  return `${match[3]}-${match[2]}-${match[1]}`;
}

/** 'YYYY-MM-DD' -> 'DD/MM/YYYY' (the services' request form). */
export function requestDate(iso: string): string {
  const [year, month, day] = iso.split('-');
  return `${day}/${month}/${year}`;
}

function nominal(text: unknown, what: string): number {
  const value = Number(String(text ?? '').trim());
  if (!Number.isInteger(value) || value < 1) throw new CbrFormatError(`${what}: bad nominal ${JSON.stringify(text).slice(0, 20)}`);
  return value;
}

function root(xml: string, tag: string): Record<string, unknown> {
  let document: Record<string, unknown>;
  try {
    document = parser.parse(xml) as Record<string, unknown>;
  } catch (error) {
    throw new CbrFormatError(`not XML: ${(error as Error).message}`);
  }
  const node = document[tag];
  if (typeof node !== 'object' || node === null) {
    const text = xml.trim().slice(0, 80);
    throw new CbrFormatError(text ? `no <${tag}>: ${text}` : 'empty answer');
  }
  return node as Record<string, unknown>;
}

export function parseDaily(xml: string): CbrDaily {
  const node = root(xml, 'ValCurs');
  const date = isoDate(node['@Date'], 'ValCurs@Date');
  const valutes = (node.Valute as Record<string, unknown>[] | undefined) ?? [];
  const rates = valutes.map((valute, index): CbrRate => {
    const where = `Valute[${index}]`;
    const charCode = String(valute.CharCode ?? '').trim();
    if (!/^[A-Z]{3}$/.test(charCode)) throw new CbrFormatError(`${where}: bad CharCode`);
    return {
      id: String(valute['@ID'] ?? '').trim(),
      numCode: String(valute.NumCode ?? '').trim(),
      charCode,
      nominal: nominal(valute.Nominal, where),
      name: String(valute.Name ?? '').trim(),
      value: decimal(valute.Value, where),
    };
  });
  return { date, rates };
}

export function parseDynamic(xml: string): CbrDynamic {
  const node = root(xml, 'ValCurs');
  const records = ((node.Record as Record<string, unknown>[] | undefined) ?? []).map((record, index) => ({
    date: isoDate(record['@Date'], `Record[${index}]@Date`),
    nominal: nominal(record.Nominal, `Record[${index}]`),
    value: decimal(record.Value, `Record[${index}]`),
  }));
  return { id: String(node['@ID'] ?? '').trim(), records };
}
