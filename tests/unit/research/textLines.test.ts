import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { textLines } from '../../../server/areas/research/textLines';

async function collect(chunks: (string | Buffer)[]): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of textLines(Readable.from(chunks, { objectMode: false }))) lines.push(line);
  return lines;
}

describe('the market import reading a file line by line', () => {
  it('splits on \\n and \\r\\n, keeps empty lines and a last line without a break', async () => {
    expect(await collect(['a,b\r\n\nc', 'd\ne\r\n', 'last'])).toEqual(['a,b', '', 'cd', 'e', 'last']);
    expect(await collect(['one\n'])).toEqual(['one']);
    expect(await collect([])).toEqual([]);
  });

  it('keeps a character whose bytes are split between two chunks, and a \\r\\n split the same way', async () => {
    const bytes = Buffer.from('Кружка 杯子\r\nдва\n');
    const cut = bytes.indexOf(Buffer.from('杯')) + 1;
    const crlf = bytes.indexOf(13) + 1;
    expect(await collect([bytes.subarray(0, cut), bytes.subarray(cut, crlf), bytes.subarray(crlf)])).toEqual(['Кружка 杯子', 'два']);
  });

  it('reads every line of a long stream while its reader waits between lines', async () => {
    const total = 50_000;
    let sent = 0;
    const input = new Readable({
      read() {
        const lines: string[] = [];
        for (let i = 0; i < 500 && sent < total; i++) lines.push(`{"sku":${++sent}}`);
        this.push(lines.length ? `${lines.join('\n')}\n` : null);
      },
    });
    let read = 0;
    for await (const line of textLines(input)) {
      expect(line).toBe(`{"sku":${++read}}`);
      if (read % 5_000 === 0) await sleep(5);
    }
    expect(read).toBe(total);
  });
});
