import { describe, expect, it } from 'vitest';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { labelPdf } from '../../../server/marketplace/simulator/assets';

/** Each page's text as a reader (or a printer driver) gets it back from the PDF. */
async function pageTexts(pdf: Uint8Array): Promise<string[]> {
  const document = await getDocument({ data: pdf.slice(), useSystemFonts: false, isEvalSupported: false }).promise;
  const texts: string[] = [];
  for (let n = 1; n <= document.numPages; n++) {
    const content = await (await document.getPage(n)).getTextContent();
    texts.push(content.items.map((item) => ('str' in item ? item.str : '')).join(''));
  }
  return texts;
}

describe('the simulator label PDF', () => {
  it('prints Chinese and Cyrillic names as written, with the fonts embedded as subsets', async () => {
    const pdf = await labelPdf([
      { postingNumber: '10020000001-0001-1', warehouse: '深圳数码 Yiwu FBS', products: [{ offerId: 'ART-7-RED', name: 'Чехол для телефона 手机壳', quantity: 2 }] },
      { postingNumber: '10020000002-0001-1', warehouse: 'Склад Москва', products: [{ offerId: 'ART-8', quantity: 1 }] },
    ]);
    const [first, second] = await pageTexts(pdf);
    expect(first).toContain('深圳数码 Yiwu FBS');
    expect(first).toContain('Чехол для телефона 手机壳');
    expect(first).not.toContain('?');
    expect(second).toContain('Склад Москва');
    // Subsets: a few kilobytes, not the megabytes of the Chinese face.
    expect(pdf.length).toBeLessThan(200_000);
  }, 60_000);
});
