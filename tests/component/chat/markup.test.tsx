import { render } from '@testing-library/react';
import { MessageContent } from '@/features/chat/widget/MessageContent';
import { safeUrl } from '@/features/chat/widget/markup';

const show = (content: string) => render(<MessageContent content={content} />).container;

describe('message markup against hostile input', () => {
  it('shows script tags as text and runs nothing', () => {
    const box = show('<script>window.__pwned = 1</script><b>bold</b>');
    expect(box.querySelector('script')).toBeNull();
    expect(box.querySelector('b')).toBeNull();
    expect(box.textContent).toBe('<script>window.__pwned = 1</script><b>bold</b>');
    expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined();
  });

  it('never creates event handler attributes', () => {
    const box = show('<img src=x onerror=alert(1)> [div onclick=alert(1) style=x]hi[/div] img[x" onerror="alert(1)]');
    const attributes = [...box.querySelectorAll('*')].flatMap((el) => [...el.attributes].map((a) => a.name));
    expect(attributes.filter((name) => name.startsWith('on'))).toEqual([]);
    expect(box.querySelector('img[src]')?.getAttribute('src') ?? '').not.toMatch(/onerror/);
    expect(box.querySelector('div')?.textContent).toBe('hi');
  });

  it('neutralises javascript: links and media sources, however they are disguised', () => {
    const box = show('a(javascript:alert(1))[click] a( JaVa\tScRiPt:alert(1))[two] img[javascript:alert(1)] file(vbscript:x)[doc]');
    for (const a of box.querySelectorAll('a')) expect(a.getAttribute('href')).not.toMatch(/script:/i);
    expect(box.querySelectorAll('a[href]')).toHaveLength(0);
    expect(box.querySelector('img')).toBeNull();
    expect(box.textContent).toContain('click');
    expect(safeUrl('data:text/html,<script>')).toBeNull();
  });

  it('renders the supported markup as elements', () => {
    const box = show('hi face[微笑] @韩梅梅 see https://ozon.ru/x a(https://a.example/)[shop] img[/up/1.png] file(/f/2.pdf)[bill.pdf]\n[pre]code[/pre]');
    expect(box.querySelector('[role="img"]')?.getAttribute('aria-label')).toBe('微笑');
    expect(box.querySelector('.ichat-mention')?.textContent).toBe('@韩梅梅');
    expect([...box.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual([
      'https://ozon.ru/x',
      'https://a.example/',
      '/f/2.pdf',
    ]);
    expect(box.querySelector('img')?.getAttribute('src')).toBe('/up/1.png');
    expect(box.querySelector('br')).not.toBeNull();
    expect(box.querySelector('pre')?.textContent).toBe('code');
  });

  it('keeps an unknown emoji name and an unclosed tag as text', () => {
    expect(show('face[nope] [div]open').textContent).toBe('face[nope] [div]open');
  });
});
