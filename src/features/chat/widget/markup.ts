import { emojiByName } from './emoji';

/**
 * Message content markup (spec §3): img[src], file(href)[name], audio[src], video[src], face[name], a(href)[text],
 * bare links, @mentions and a few block tags written [tag]...[/tag]. The text is parsed into a tree of plain nodes and
 * rendered as React elements, so nothing in a message is ever interpreted as HTML: "<script>" stays the visible text
 * "<script>" (the escaping the spec asks for comes from React's text nodes), tag attributes are dropped, and only
 * http, https, mailto, tel and relative addresses survive as links or media sources.
 */

export const BLOCK_TAGS = ['pre', 'div', 'p', 'span', 'ul', 'ol', 'li', 'h2', 'h3', 'h4', 'h5', 'blockquote', 'table', 'thead', 'tbody', 'tr', 'th', 'td'] as const;
export type BlockTag = (typeof BLOCK_TAGS)[number];

export type MarkupNode =
  | { kind: 'text'; text: string }
  | { kind: 'br' }
  | { kind: 'emoji'; name: string; glyph: string }
  | { kind: 'img'; src: string | null }
  | { kind: 'file'; href: string | null; name: string }
  | { kind: 'audio'; src: string | null }
  | { kind: 'video'; src: string | null }
  | { kind: 'link'; href: string | null; text: string }
  | { kind: 'mention'; name: string }
  | { kind: 'block'; tag: BlockTag; children: MarkupNode[] };

const SAFE_SCHEMES = ['http:', 'https:', 'mailto:', 'tel:'];

/** A URL fit for href/src, or null. Browsers ignore control characters and whitespace inside a scheme, so do we. */
export function safeUrl(raw: string): string | null {
  const url = raw.trim();
  // No legitimate address carries quotes, angle brackets or spaces; refusing them keeps the value plainly inert.
  if (url === '' || /["'<>`\s]/.test(url)) return null;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what a disguised scheme hides behind
  const probe = url.replace(/[\u0000-\u0020\u007f-\u009f]/g, '').toLowerCase();
  const scheme = /^([a-z][a-z0-9+.-]*):/.exec(probe);
  if (!scheme) return url.startsWith('//') || /^[./?#\w-]/.test(url) ? url : null;
  return SAFE_SCHEMES.includes(`${scheme[1]}:`) ? url : null;
}

/** Whether a path is an external link (spec §5: http, https, mailto and tel). */
export function isExternal(path: string): boolean {
  return /^(https?:|mailto:|tel:)/.test(path);
}

const INLINE = new RegExp(
  [
    String.raw`face\[([^\]\s]+?)\]`, // 1 emoji
    String.raw`img\[([^\]]+?)\]`, // 2 image
    String.raw`file\(([^)]*?)\)\[([^\]]*?)\]`, // 3, 4 file
    String.raw`audio\[([^\]]+?)\]`, // 5
    String.raw`video\[([^\]]+?)\]`, // 6
    String.raw`a\(([^)]*?)\)\[([^\]]*?)\]`, // 7, 8 link with text
    String.raw`(https?:\/\/[^\s<>"'\[\]]+)`, // 9 bare link
    String.raw`(?<=^|\s)@([^\s@]+)`, // 10 mention
    String.raw`(\r?\n)`, // 11 line break
  ].join('|'),
  'g',
);

function parseInline(text: string, out: MarkupNode[]): void {
  let last = 0;
  INLINE.lastIndex = 0;
  for (let m = INLINE.exec(text); m; m = INLINE.exec(text)) {
    if (m.index > last) out.push({ kind: 'text', text: text.slice(last, m.index) });
    last = m.index + m[0].length;
    if (m[1] !== undefined) {
      const emoji = emojiByName(m[1]);
      out.push(emoji ? { kind: 'emoji', name: emoji.name, glyph: emoji.glyph } : { kind: 'text', text: m[0] });
    } else if (m[2] !== undefined) out.push({ kind: 'img', src: safeUrl(m[2]) });
    else if (m[3] !== undefined) out.push({ kind: 'file', href: safeUrl(m[3]), name: m[4] || m[3] });
    else if (m[5] !== undefined) out.push({ kind: 'audio', src: safeUrl(m[5]) });
    else if (m[6] !== undefined) out.push({ kind: 'video', src: safeUrl(m[6]) });
    else if (m[7] !== undefined) out.push({ kind: 'link', href: safeUrl(m[7]), text: m[8] || m[7] });
    else if (m[9] !== undefined) out.push({ kind: 'link', href: safeUrl(m[9]), text: m[9] });
    else if (m[10] !== undefined) out.push({ kind: 'mention', name: m[10] });
    else out.push({ kind: 'br' });
  }
  if (last < text.length) out.push({ kind: 'text', text: text.slice(last) });
}

const TAG = new RegExp(String.raw`\[(\/?)(${BLOCK_TAGS.join('|')})(?:\s[^\]]*)?\]`, 'g');

/** Parses content into nodes; unmatched block tags are kept as text. */
export function parseMarkup(content: string): MarkupNode[] {
  const root: MarkupNode[] = [];
  const stack: { tag: BlockTag; children: MarkupNode[]; raw: string }[] = [];
  const current = () => stack.at(-1)?.children ?? root;
  let last = 0;
  TAG.lastIndex = 0;
  for (let m = TAG.exec(content); m; m = TAG.exec(content)) {
    parseInline(content.slice(last, m.index), current());
    last = m.index + m[0].length;
    const tag = m[2] as BlockTag;
    if (m[1] === '') {
      stack.push({ tag, children: [], raw: m[0] });
      continue;
    }
    const open = stack.findLastIndex((s) => s.tag === tag);
    if (open === -1) {
      current().push({ kind: 'text', text: m[0] });
      continue;
    }
    // Close every tag opened inside the one being closed.
    while (stack.length > open) {
      const frame = stack.pop()!;
      const node: MarkupNode = { kind: 'block', tag: frame.tag, children: frame.children };
      current().push(node);
    }
  }
  parseInline(content.slice(last), current());
  // Tags never closed render their content without the tag.
  while (stack.length > 0) {
    const frame = stack.pop()!;
    current().push({ kind: 'text', text: frame.raw }, ...frame.children);
  }
  return root;
}
