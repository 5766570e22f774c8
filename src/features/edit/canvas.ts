import type {
  Canvas,
  FabricObject} from 'fabric';
import {
  ActiveSelection,
  Ellipse,
  FabricImage,
  Gradient,
  Group,
  Line,
  Polygon,
  Rect,
  Shadow,
  StaticCanvas,
  Textbox,
  Triangle,
  filters,
  loadSVGFromString,
  util,
} from 'fabric';

/**
 * The designer's canvas work on fabric.js: building objects, a design's JSON snapshot (what the history and the server
 * keep), opening one, and exports. A snapshot is fabric's canvas JSON plus the design's size and the extra object
 * properties the layers panel needs (id, name, lock state).
 */

/** Object properties kept in a snapshot beyond fabric's own. */
const EXTRA_PROPS = ['id', 'name', 'selectable', 'evented', 'lockMovementX', 'lockMovementY', 'lockScalingX', 'lockScalingY', 'lockRotation', 'hasControls'];

export type DesignObject = FabricObject & { id?: string; name?: string };
export type SnapshotJson = { width: number; height: number; objects: unknown[]; background?: unknown; backgroundImage?: unknown; version?: string };

let nextId = 1;
export const newId = () => `o${Date.now().toString(36)}${(nextId++).toString(36)}`;

export function snapshotOf(canvas: StaticCanvas, size: { width: number; height: number }): string {
  return JSON.stringify({ ...canvas.toObject(EXTRA_PROPS), width: size.width, height: size.height });
}

/** Reads a snapshot's JSON and size; throws on anything that is not one. */
export function parseSnapshot(snapshot: string): SnapshotJson {
  const json = JSON.parse(snapshot) as Partial<SnapshotJson>;
  if (typeof json !== 'object' || json === null || !Array.isArray(json.objects)) throw new Error('not a design');
  const width = Number(json.width);
  const height = Number(json.height);
  if (!Number.isInteger(width) || !Number.isInteger(height) || width <= 0 || height <= 0) throw new Error('no size');
  return json as SnapshotJson;
}

/** Shows a snapshot on a canvas (objects, background); answers the design's size. */
export async function loadSnapshot(canvas: StaticCanvas, snapshot: string): Promise<{ width: number; height: number }> {
  const json = parseSnapshot(snapshot);
  await canvas.loadFromJSON(json);
  canvas.requestRenderAll();
  return { width: json.width, height: json.height };
}

/**
 * Checks a design opens before anything on screen changes: it is loaded on a canvas of its own first, so a broken
 * one fails there and the design on screen stays.
 */
export async function tryOpen(snapshot: string): Promise<{ width: number; height: number }> {
  const probe = new StaticCanvas(undefined, { renderOnAddRemove: false });
  try {
    return await loadSnapshot(probe, snapshot);
  } finally {
    void probe.dispose();
  }
}

export type ExportFormat = 'png' | 'jpeg' | 'svg' | 'json';

/** A design rendered at its own size, whatever the zoom on screen: a canvas of its own, from its snapshot. */
export async function exportSnapshot(snapshot: string, format: ExportFormat, quality = 0.92): Promise<Blob> {
  if (format === 'json') return new Blob([snapshot], { type: 'application/json' });
  const canvas = new StaticCanvas(undefined, { renderOnAddRemove: false, enableRetinaScaling: false });
  try {
    const size = await loadSnapshot(canvas, snapshot);
    canvas.setDimensions(size);
    // JPEG has no transparency: what is transparent comes out white, as the seller sees it on a card.
    if (format === 'jpeg' && !canvas.backgroundColor) canvas.backgroundColor = '#ffffff';
    canvas.renderAll();
    if (format === 'svg') return new Blob([canvas.toSVG({ width: `${size.width}`, height: `${size.height}`, viewBox: { x: 0, y: 0, width: size.width, height: size.height } })], { type: 'image/svg+xml' });
    return dataUrlToBlob(canvas.toDataURL({ format, quality, multiplier: 1 }));
  } finally {
    void canvas.dispose();
  }
}

/** Decodes a base64 data URL here (a fetch of it would need the page's CSP to allow data: connections). */
export function dataUrlToBlob(url: string): Blob {
  const [head = '', body = ''] = url.split(',', 2);
  const type = /^data:([^;,]+)/.exec(head)?.[1] ?? 'application/octet-stream';
  const binary = atob(body);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new Blob([bytes], { type });
}

/** A small JPEG preview for the designs list. */
export async function thumbnailOf(snapshot: string, side = 160): Promise<string> {
  const canvas = new StaticCanvas(undefined, { renderOnAddRemove: false, enableRetinaScaling: false });
  try {
    const size = await loadSnapshot(canvas, snapshot);
    const scale = side / Math.max(size.width, size.height);
    if (!canvas.backgroundColor) canvas.backgroundColor = '#ffffff';
    canvas.setDimensions(size);
    canvas.renderAll();
    return canvas.toDataURL({ format: 'jpeg', quality: 0.7, multiplier: scale });
  } finally {
    void canvas.dispose();
  }
}

// ----------------------------------------------------------------------------------------------------------------
// Elements

export type ElementKind = 'heading' | 'body' | 'rect' | 'roundRect' | 'ellipse' | 'triangle' | 'line' | 'star' | 'arrow' | 'badge';

function named<T extends FabricObject>(object: T, name: string): T {
  object.set({ id: newId(), name } as never);
  return object;
}

function starPoints(outer: number, inner: number, spikes = 5) {
  return Array.from({ length: spikes * 2 }, (_, i) => {
    const r = i % 2 === 0 ? outer : inner;
    const a = (Math.PI / spikes) * i - Math.PI / 2;
    return { x: outer + r * Math.cos(a), y: outer + r * Math.sin(a) };
  });
}

/** A new element centred at (x, y) on the design, sized for a 1000 px canvas. */
export function createElement(kind: ElementKind, at: { x: number; y: number }, text: { heading: string; body: string; badge: string }, font: string): DesignObject {
  const common = { left: at.x, top: at.y, originX: 'center' as const, originY: 'center' as const };
  switch (kind) {
    case 'heading':
      return named(new Textbox(text.heading, { ...common, width: 600, fontSize: 72, fontWeight: 'bold', fill: '#1f1f1f', textAlign: 'center', fontFamily: font }), text.heading);
    case 'body':
      return named(new Textbox(text.body, { ...common, width: 500, fontSize: 36, fill: '#434343', textAlign: 'center', fontFamily: font }), text.body);
    case 'rect':
      return named(new Rect({ ...common, width: 300, height: 200, fill: '#1677ff' }), 'rect');
    case 'roundRect':
      return named(new Rect({ ...common, width: 300, height: 200, rx: 32, ry: 32, fill: '#52c41a' }), 'roundRect');
    case 'ellipse':
      return named(new Ellipse({ ...common, rx: 150, ry: 150, fill: '#faad14' }), 'ellipse');
    case 'triangle':
      return named(new Triangle({ ...common, width: 260, height: 220, fill: '#eb2f96' }), 'triangle');
    case 'line':
      return named(new Line([0, 0, 400, 0], { ...common, stroke: '#1f1f1f', strokeWidth: 6 }), 'line');
    case 'star':
      return named(new Polygon(starPoints(140, 60), { ...common, fill: '#fadb14' }), 'star');
    case 'arrow':
      return named(
        new Polygon([{ x: 0, y: 40 }, { x: 220, y: 40 }, { x: 220, y: 0 }, { x: 320, y: 80 }, { x: 220, y: 160 }, { x: 220, y: 120 }, { x: 0, y: 120 }], { ...common, fill: '#f5222d' }),
        'arrow',
      );
    case 'badge': {
      const circle = new Ellipse({ rx: 110, ry: 110, fill: '#f5222d', originX: 'center', originY: 'center' });
      const label = new Textbox(text.badge, { width: 200, fontSize: 64, fontWeight: 'bold', fill: '#ffffff', textAlign: 'center', originX: 'center', originY: 'center', fontFamily: font });
      return named(new Group([circle, label], common), text.badge);
    }
  }
}

/** A picture from a file or URL, scaled to fit within `fit` of the design. */
export async function createPicture(url: string, name: string, fit: { width: number; height: number }, at: { x: number; y: number }): Promise<DesignObject> {
  const image = await FabricImage.fromURL(url);
  const scale = Math.min(1, fit.width / (image.width || 1), fit.height / (image.height || 1));
  image.set({ left: at.x, top: at.y, originX: 'center', originY: 'center', scaleX: scale, scaleY: scale });
  return named(image, name);
}

/** An SVG file's drawing as one group. */
export async function createSvg(text: string, name: string, fit: { width: number; height: number }, at: { x: number; y: number }): Promise<DesignObject> {
  const { objects, options } = await loadSVGFromString(text);
  const parts = objects.filter((o): o is FabricObject => o !== null);
  if (parts.length === 0) throw new Error('empty svg');
  const group = util.groupSVGElements(parts, options);
  const scale = Math.min(1, fit.width / (group.width || 1), fit.height / (group.height || 1));
  group.set({ left: at.x, top: at.y, originX: 'center', originY: 'center', scaleX: scale, scaleY: scale });
  return named(group, name);
}

/** Reads a picked file as a data URL, so the design keeps the picture when it is saved and opened again. */
export function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}

/** Pictures larger than this are scaled down on insertion: a design stays small enough to save. */
const PICTURE_MAX_SIDE = 2_000;

/** A picked picture as a data URL, scaled down to PICTURE_MAX_SIDE when larger. */
export async function pictureDataUrl(file: Blob): Promise<string> {
  const url = await readAsDataUrl(file);
  const image = await util.loadImage(url);
  const scale = Math.min(1, PICTURE_MAX_SIDE / Math.max(image.naturalWidth, image.naturalHeight));
  if (scale === 1) return url;
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(image.naturalWidth * scale);
  canvas.height = Math.round(image.naturalHeight * scale);
  canvas.getContext('2d')!.drawImage(image, 0, 0, canvas.width, canvas.height);
  return canvas.toDataURL(file.type === 'image/png' ? 'image/png' : 'image/jpeg', 0.9);
}

// ----------------------------------------------------------------------------------------------------------------
// Background

export function linearGradient(from: string, to: string, angle: number, size: { width: number; height: number }) {
  const rad = (angle * Math.PI) / 180;
  const cx = size.width / 2;
  const cy = size.height / 2;
  const half = (Math.abs(size.width * Math.cos(rad)) + Math.abs(size.height * Math.sin(rad))) / 2;
  return new Gradient({
    type: 'linear',
    gradientUnits: 'pixels',
    coords: { x1: cx - half * Math.cos(rad), y1: cy - half * Math.sin(rad), x2: cx + half * Math.cos(rad), y2: cy + half * Math.sin(rad) },
    colorStops: [
      { offset: 0, color: from },
      { offset: 1, color: to },
    ],
  });
}

/** A picture that covers the whole design, behind every object. */
export async function backgroundPicture(url: string, size: { width: number; height: number }) {
  const image = await FabricImage.fromURL(url);
  const scale = Math.max(size.width / (image.width || 1), size.height / (image.height || 1));
  image.set({ scaleX: scale, scaleY: scale, left: size.width / 2, top: size.height / 2, originX: 'center', originY: 'center' });
  return image;
}

// ----------------------------------------------------------------------------------------------------------------
// Arranging

export type Alignment = 'left' | 'centerX' | 'right' | 'top' | 'centerY' | 'bottom';

/** Aligns the objects to their common bounds, or one object to the design. */
export function align(objects: FabricObject[], how: Alignment, size: { width: number; height: number }) {
  const boxes = objects.map((o) => o.getBoundingRect());
  const bounds =
    objects.length === 1
      ? { left: 0, top: 0, right: size.width, bottom: size.height }
      : { left: Math.min(...boxes.map((b) => b.left)), top: Math.min(...boxes.map((b) => b.top)), right: Math.max(...boxes.map((b) => b.left + b.width)), bottom: Math.max(...boxes.map((b) => b.top + b.height)) };
  objects.forEach((object, i) => {
    const box = boxes[i]!;
    let dx = 0;
    let dy = 0;
    if (how === 'left') dx = bounds.left - box.left;
    if (how === 'right') dx = bounds.right - (box.left + box.width);
    if (how === 'centerX') dx = (bounds.left + bounds.right) / 2 - (box.left + box.width / 2);
    if (how === 'top') dy = bounds.top - box.top;
    if (how === 'bottom') dy = bounds.bottom - (box.top + box.height);
    if (how === 'centerY') dy = (bounds.top + bounds.bottom) / 2 - (box.top + box.height / 2);
    object.set({ left: (object.left ?? 0) + dx, top: (object.top ?? 0) + dy });
    object.setCoords();
  });
}

/** Spaces three or more objects evenly between the first and the last along one axis. */
export function distribute(objects: FabricObject[], axis: 'x' | 'y') {
  if (objects.length < 3) return;
  const items = objects.map((object) => ({ object, box: object.getBoundingRect() }));
  const start = (b: { left: number; top: number }) => (axis === 'x' ? b.left : b.top);
  const length = (b: { width: number; height: number }) => (axis === 'x' ? b.width : b.height);
  items.sort((a, b) => start(a.box) - start(b.box));
  const first = items[0]!.box;
  const last = items.at(-1)!.box;
  const span = start(last) + length(last) - start(first);
  const gap = (span - items.reduce((sum, item) => sum + length(item.box), 0)) / (items.length - 1);
  let cursor = start(first);
  for (const { object, box } of items) {
    const delta = cursor - start(box);
    if (axis === 'x') object.set({ left: (object.left ?? 0) + delta });
    else object.set({ top: (object.top ?? 0) + delta });
    object.setCoords();
    cursor += length(box) + gap;
  }
}

export function groupSelection(canvas: Canvas): Group | null {
  const active = canvas.getActiveObject();
  if (!(active instanceof ActiveSelection) || active.size() < 2) return null;
  const objects = active.removeAll();
  canvas.discardActiveObject();
  canvas.remove(...objects);
  const group = named(new Group(objects), 'group');
  canvas.add(group);
  canvas.setActiveObject(group);
  return group;
}

export function ungroupSelection(canvas: Canvas): FabricObject[] {
  const active = canvas.getActiveObject();
  if (!(active instanceof Group) || active instanceof ActiveSelection) return [];
  const index = canvas.getObjects().indexOf(active);
  const objects = active.removeAll();
  canvas.remove(active);
  objects.forEach((object, i) => {
    if (!(object as DesignObject).id) object.set({ id: newId() } as never);
    canvas.insertAt(index + i, object);
  });
  const selection = new ActiveSelection(objects, { canvas });
  canvas.setActiveObject(selection);
  return objects;
}

// ----------------------------------------------------------------------------------------------------------------
// Effects

export type ImageFilterName = 'grayscale' | 'sepia' | 'invert' | 'brightness' | 'contrast' | 'blur';
export type ImageFilters = { grayscale: boolean; sepia: boolean; invert: boolean; brightness: number; contrast: number; blur: number };

export const NO_FILTERS: ImageFilters = { grayscale: false, sepia: false, invert: false, brightness: 0, contrast: 0, blur: 0 };

export function filtersOf(image: FabricImage): ImageFilters {
  const found = { ...NO_FILTERS };
  for (const filter of image.filters) {
    if (filter instanceof filters.Grayscale) found.grayscale = true;
    else if (filter instanceof filters.Sepia) found.sepia = true;
    else if (filter instanceof filters.Invert) found.invert = true;
    else if (filter instanceof filters.Brightness) found.brightness = filter.brightness;
    else if (filter instanceof filters.Contrast) found.contrast = filter.contrast;
    else if (filter instanceof filters.Blur) found.blur = filter.blur;
  }
  return found;
}

export function applyFilters(image: FabricImage, wanted: ImageFilters) {
  const list = [];
  if (wanted.grayscale) list.push(new filters.Grayscale());
  if (wanted.sepia) list.push(new filters.Sepia());
  if (wanted.invert) list.push(new filters.Invert());
  if (wanted.brightness) list.push(new filters.Brightness({ brightness: wanted.brightness }));
  if (wanted.contrast) list.push(new filters.Contrast({ contrast: wanted.contrast }));
  if (wanted.blur) list.push(new filters.Blur({ blur: wanted.blur }));
  image.filters = list;
  image.applyFilters();
}

export function setShadow(object: FabricObject, shadow: { color: string; blur: number; offsetX: number; offsetY: number } | null) {
  object.set({ shadow: shadow ? new Shadow(shadow) : null });
}

export { FabricImage, Textbox, Group, ActiveSelection };
