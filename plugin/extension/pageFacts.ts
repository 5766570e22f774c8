import type { PageFacts } from '../../contract/collectSources';

/**
 * The facts of a product page (contract/collectSources.ts) read from the live document, as the server's parse5
 * reader reads them from HTML: titles, metas, JSON-LD, inline scripts' text and Ozon's widget states. Everything is
 * read as text; nothing of the page is run or evaluated.
 */
export function pageFactsOf(document: Document, url: string): PageFacts {
  const facts: PageFacts = { url, title: document.title.trim(), metas: {}, jsonLd: [], scripts: [], states: [] };
  for (const meta of document.querySelectorAll('meta')) {
    const name = meta.getAttribute('property') ?? meta.getAttribute('name');
    const content = meta.getAttribute('content');
    if (name && content !== null && !(name in facts.metas)) facts.metas[name] = content;
  }
  for (const script of document.querySelectorAll('script:not([src])')) {
    const type = (script.getAttribute('type') ?? '').toLowerCase();
    if (type === 'application/ld+json') facts.jsonLd.push(script.textContent ?? '');
    else if (type === '' || type.includes('javascript')) facts.scripts.push(script.textContent ?? '');
  }
  for (const element of document.querySelectorAll('[id^="state-"][data-state]')) {
    facts.states.push({ id: element.id, state: element.getAttribute('data-state') ?? '' });
  }
  return facts;
}
