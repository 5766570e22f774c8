import { parse, type DefaultTreeAdapterMap } from 'parse5';
import type { PageFacts } from '../../../contract/collectSources';

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

const isElement = (node: Node): node is Element => 'tagName' in node;
const attr = (element: Element, name: string) => element.attrs.find((a) => a.name === name)?.value ?? null;
const textOf = (element: Element) =>
  element.childNodes.map((child) => ('value' in child && child.nodeName === '#text' ? child.value : '')).join('');

/**
 * The facts of a product page (contract/collectSources.ts) read from its HTML with parse5, the HTML standard's parser:
 * nothing on the page runs, its embedded JSON is only read as text.
 */
export function pageFactsOf(html: string, url: string): PageFacts {
  const facts: PageFacts = { url, title: '', metas: {}, jsonLd: [], scripts: [], states: [] };
  const stack: Node[] = [parse(html)];
  while (stack.length) {
    const node = stack.pop()!;
    if (isElement(node)) {
      if (node.tagName === 'title' && !facts.title) facts.title = textOf(node).trim();
      else if (node.tagName === 'meta') {
        const name = attr(node, 'property') ?? attr(node, 'name');
        const content = attr(node, 'content');
        if (name && content !== null && !(name in facts.metas)) facts.metas[name] = content;
      } else if (node.tagName === 'script' && !attr(node, 'src')) {
        const type = (attr(node, 'type') ?? '').toLowerCase();
        if (type === 'application/ld+json') facts.jsonLd.push(textOf(node));
        else if (type === '' || type.includes('javascript')) facts.scripts.push(textOf(node));
      } else {
        const id = attr(node, 'id');
        const state = attr(node, 'data-state');
        if (id?.startsWith('state-') && state) facts.states.push({ id, state });
      }
    }
    if ('childNodes' in node) for (let i = node.childNodes.length - 1; i >= 0; i--) stack.push(node.childNodes[i]!);
    if ('content' in node) stack.push(node.content);
  }
  return facts;
}
