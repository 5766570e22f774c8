/**
 * The designer's fonts, served from our own build (the @fontsource packages; no CDN) and loaded on demand: a
 * family's stylesheet is imported the first time it is used, then the browser fetches only the unicode-range files
 * the text needs. Chinese (Noto Sans SC, Ma Shan Zheng) and Cyrillic (Noto Sans SC, Montserrat, Oswald, Lobster).
 */
export type DesignerFont = { family: string; scripts: string; load: () => Promise<unknown> };

export const FONTS: readonly DesignerFont[] = [
  { family: 'Noto Sans SC', scripts: '中 En Рус', load: () => Promise.all([import('@fontsource/noto-sans-sc/400.css'), import('@fontsource/noto-sans-sc/700.css')]) },
  { family: 'Ma Shan Zheng', scripts: '中', load: () => import('@fontsource/ma-shan-zheng/400.css') },
  { family: 'Montserrat', scripts: 'En Рус', load: () => Promise.all([import('@fontsource/montserrat/400.css'), import('@fontsource/montserrat/700.css')]) },
  { family: 'Oswald', scripts: 'En Рус', load: () => Promise.all([import('@fontsource/oswald/400.css'), import('@fontsource/oswald/700.css')]) },
  { family: 'Lobster', scripts: 'En Рус', load: () => import('@fontsource/lobster/400.css') },
];

/** What new text starts in: covers Chinese, Latin and Cyrillic. */
export const DEFAULT_FONT = 'Noto Sans SC';

const FONT_TIMEOUT_MS = 20_000;

/** Loads a family's faces for the text; rejects when they do not arrive (offline, a missing file, a timeout). */
export async function loadFont(family: string, text: string): Promise<void> {
  const font = FONTS.find((f) => f.family === family);
  if (!font) throw new Error(`unknown font ${family}`);
  const sample = text.trim() || 'Aa中Я';
  const work = (async () => {
    await font.load();
    const faces = await Promise.all([document.fonts.load(`400 32px "${family}"`, sample), document.fonts.load(`700 32px "${family}"`, sample)]);
    if (faces.every((list) => list.length === 0)) throw new Error(`font ${family} did not load`);
  })();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`font ${family} timed out`)), FONT_TIMEOUT_MS);
  });
  try {
    await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The families a design's text uses (so opening one loads them before it is shown). */
export function fontsInSnapshot(snapshot: string): string[] {
  const found = new Set<string>();
  for (const match of snapshot.matchAll(/"fontFamily":"([^"]+)"/g)) if (FONTS.some((f) => f.family === match[1])) found.add(match[1]!);
  return [...found];
}
