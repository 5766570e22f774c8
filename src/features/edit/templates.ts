import type { StaticCanvas } from 'fabric';
import { createElement, linearGradient, newId, snapshotOf, Textbox } from './canvas';

/**
 * Canvas sizes a seller needs on Ozon, and a few starting layouts. Ozon recommends 3:4 main images (900×1200 and up)
 * and accepts 1:1; rich content ("Rich-контент") blocks are 1416 px wide.
 */
export const CANVAS_SIZES = [
  { key: 'main11', width: 1000, height: 1000 },
  { key: 'main34', width: 900, height: 1200 },
  { key: 'main34hd', width: 1200, height: 1600 },
  { key: 'richBanner', width: 1416, height: 708 },
  { key: 'richSquare', width: 1416, height: 1416 },
  { key: 'richTall', width: 1416, height: 1888 },
] as const;
export type CanvasSizeKey = (typeof CANVAS_SIZES)[number]['key'];

export const LAYOUTS = ['blank', 'sale', 'features', 'cyrillic'] as const;
export type LayoutKey = (typeof LAYOUTS)[number];

export type LayoutTexts = { title: string; subtitle: string; badge: string; features: string[]; cyrillicTitle: string; cyrillicSubtitle: string };

/** Builds a layout on the canvas (cleared first) and answers its snapshot. */
export function buildLayout(canvas: StaticCanvas, layout: LayoutKey, size: { width: number; height: number }, texts: LayoutTexts, font: string): string {
  canvas.clear();
  canvas.backgroundColor = '#ffffff';
  const { width, height } = size;
  const u = Math.min(width, height) / 1000;
  const text = (value: string, options: Record<string, unknown>) => {
    const box = new Textbox(value, { fontFamily: font, originX: 'center', originY: 'center', textAlign: 'center', ...options });
    box.set({ id: newId(), name: value } as never);
    return box;
  };
  if (layout === 'sale') {
    canvas.backgroundColor = linearGradient('#fff1f0', '#ffccc7', 90, size);
    canvas.add(text(texts.title, { left: width / 2, top: height * 0.12, width: width * 0.85, fontSize: 80 * u, fontWeight: 'bold', fill: '#a8071a' }));
    canvas.add(text(texts.subtitle, { left: width / 2, top: height * 0.22, width: width * 0.8, fontSize: 40 * u, fill: '#5c0011' }));
    const badge = createElement('badge', { x: width * 0.82, y: height * 0.8 }, { heading: texts.title, body: texts.subtitle, badge: texts.badge }, font);
    badge.scale(u);
    canvas.add(badge);
  } else if (layout === 'features') {
    canvas.backgroundColor = '#f5f5f5';
    canvas.add(text(texts.title, { left: width / 2, top: height * 0.1, width: width * 0.85, fontSize: 72 * u, fontWeight: 'bold', fill: '#1f1f1f' }));
    texts.features.forEach((feature, i) => {
      const y = height * (0.68 + i * 0.09);
      const dot = createElement('ellipse', { x: width * 0.12, y }, { heading: '', body: '', badge: '' }, font);
      dot.set({ scaleX: 0.12 * u, scaleY: 0.12 * u, fill: '#1677ff' });
      canvas.add(dot);
      canvas.add(text(feature, { left: width * 0.16, top: y, originX: 'left', textAlign: 'left', width: width * 0.75, fontSize: 40 * u, fill: '#262626' }));
    });
  } else if (layout === 'cyrillic') {
    canvas.backgroundColor = linearGradient('#003a8c', '#1677ff', 135, size);
    canvas.add(text(texts.cyrillicTitle, { left: width / 2, top: height * 0.14, width: width * 0.9, fontSize: 96 * u, fontWeight: 'bold', fill: '#ffffff' }));
    canvas.add(text(texts.cyrillicSubtitle, { left: width / 2, top: height * 0.9, width: width * 0.9, fontSize: 44 * u, fill: '#e6f4ff' }));
  }
  canvas.requestRenderAll();
  return snapshotOf(canvas, size);
}
