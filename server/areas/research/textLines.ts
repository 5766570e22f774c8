import { StringDecoder } from 'node:string_decoder';

/**
 * The lines of a UTF-8 text stream, each without its `\n` or `\r\n`, the last one also when the stream does not end
 * with a line break. Read by iterating the stream, so the stream's own backpressure holds it while the import writes.
 * readline's async iterator is not used: over a 1.2 GB products file with the import's slow consumer, it stopped
 * yielding after 600,000-940,000 lines with the stream paused and nothing left to wake it, and the process exited
 * with status 0 halfway through the file.
 */
export async function* textLines(input: AsyncIterable<Buffer | string>): AsyncGenerator<string, void, undefined> {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  for await (const chunk of input) {
    const text = rest + (typeof chunk === 'string' ? chunk : decoder.write(chunk));
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      yield text.slice(start, end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end);
      start = end + 1;
    }
    rest = text.slice(start);
  }
  rest += decoder.end();
  if (rest !== '') yield rest.endsWith('\r') ? rest.slice(0, -1) : rest;
}
