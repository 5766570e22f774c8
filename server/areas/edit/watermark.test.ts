import sharp from 'sharp';
import { WATERMARK_POSITIONS, watermarkSettingsSchema, type WatermarkSettingsInput } from '../../../contract/watermark';
import { applyWatermark, type Mark } from './watermark';

/** The watermark on real pictures, measured on the output's pixels. */

const GREY = 128;
const base = (width: number, height: number, format: 'png' | 'jpeg' = 'png') => {
  const image = sharp({ create: { width, height, channels: 3, background: { r: GREY, g: GREY, b: GREY } } });
  return (format === 'png' ? image.png() : image.jpeg({ quality: 100 })).toBuffer();
};
const red = (width: number, height: number) => sharp({ create: { width, height, channels: 4, background: '#ff0000' } }).png().toBuffer();
const mark = async (settings: Partial<WatermarkSettingsInput>, picture: Buffer | null = null): Promise<Mark> => ({
  settings: watermarkSettingsSchema.parse({ name: 'm', kind: 'image', opacity: 1, ...settings }),
  picture: settings.kind === 'text' ? null : (picture ?? (await red(100, 50))),
});

async function pixels(bytes: Buffer) {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => {
    const i = (y * info.width + x) * info.channels;
    return [data[i]!, data[i + 1]!, data[i + 2]!] as const;
  };
  /** The bounding box of every pixel that is not the base's grey. */
  const inked = () => {
    let [left, top, right, bottom] = [info.width, info.height, -1, -1];
    for (let y = 0; y < info.height; y++) {
      for (let x = 0; x < info.width; x++) {
        const [r, g, b] = at(x, y);
        if (Math.abs(r - GREY) + Math.abs(g - GREY) + Math.abs(b - GREY) > 24) {
          left = Math.min(left, x);
          top = Math.min(top, y);
          right = Math.max(right, x);
          bottom = Math.max(bottom, y);
        }
      }
    }
    return { left, top, right, bottom };
  };
  return { at, inked, width: info.width, height: info.height };
}

describe('applyWatermark', () => {
  it('puts the mark at each of the nine positions, scaled to the image width, the margin from the edges', async () => {
    // 1000×800: the 100×50 mark at scale 0.2 is 200×100; the margin 0.05 of the shorter side is 40 px.
    const expected: Record<string, [number, number]> = {
      'top-left': [40, 40],
      top: [400, 40],
      'top-right': [760, 40],
      left: [40, 350],
      center: [400, 350],
      right: [760, 350],
      'bottom-left': [40, 660],
      bottom: [400, 660],
      'bottom-right': [760, 660],
    };
    const image = await base(1000, 800);
    for (const position of WATERMARK_POSITIONS) {
      const made = await applyWatermark(image, await mark({ position, scale: 0.2, margin: 0.05 }));
      const box = (await pixels(made.bytes)).inked();
      const [left, top] = expected[position]!;
      expect({ position, ...box }).toEqual({ position, left, top, right: left + 199, bottom: top + 99 });
    }
  });

  it('blends the mark by its opacity', async () => {
    const image = await base(600, 600);
    for (const opacity of [1, 0.5, 0.2]) {
      const made = await applyWatermark(image, await mark({ position: 'center', scale: 0.5, opacity }));
      const [r, g, b] = (await pixels(made.bytes)).at(300, 300);
      // red over grey: 255·α + 128·(1 − α) in red, 128·(1 − α) in green and blue.
      expect(r).toBeCloseTo(255 * opacity + GREY * (1 - opacity), -0.5);
      expect(g).toBeCloseTo(GREY * (1 - opacity), -0.5);
      expect(b).toBe(g);
    }
  });

  it('tiles the mark over the whole image with the margin as the gap', async () => {
    // 800 px: the 100×50 mark at 0.1 is 80×40, the gap 0.025 × 800 = 20 px: tiles every 100 × 60 px from the corner.
    const made = await applyWatermark(await base(800, 800), await mark({ tile: true, scale: 0.1, margin: 0.025 }));
    const { at } = await pixels(made.bytes);
    for (const [x, y] of [
      [0, 0],
      [79, 39],
      [100, 60],
      [705, 725],
    ]) {
      expect(at(x!, y!)).toEqual([255, 0, 0]);
    }
    for (const [x, y] of [
      [85, 10],
      [10, 45],
      [190, 110],
      [795, 790],
    ]) {
      expect(at(x!, y!)).toEqual([GREY, GREY, GREY]);
    }
  });

  it('draws a text mark in its colour at its position, Chinese and Cyrillic alike', async () => {
    const made = await applyWatermark(await base(1000, 1000), await mark({ kind: 'text', text: '义乌小店 Магазин', color: '#00ff00', position: 'bottom-left', scale: 0.4, margin: 0.03 }));
    const measured = await pixels(made.bytes);
    const box = measured.inked();
    expect(box.left).toBe(30);
    expect(box.bottom).toBe(1000 - 30 - 1);
    expect(box.right - box.left + 1).toBe(400);
    // A line of text: wider than tall, and green where it is inked.
    expect(box.bottom - box.top).toBeLessThan(120);
    let green = 0;
    for (let x = box.left; x <= box.right; x++) {
      const [r, g, b] = measured.at(x, Math.round((box.top + box.bottom) / 2));
      if (g > 240 && r < 20 && b < 20) green++;
    }
    expect(green).toBeGreaterThan(20);
  });

  it('keeps a PNG a PNG and turns anything else into a JPEG of the same size', async () => {
    const png = await applyWatermark(await base(400, 300), await mark({}));
    expect(png).toMatchObject({ contentType: 'image/png', width: 400, height: 300 });
    const jpeg = await applyWatermark(await base(400, 300, 'jpeg'), await mark({}));
    expect(jpeg).toMatchObject({ contentType: 'image/jpeg', width: 400, height: 300 });
    expect((await sharp(jpeg.bytes).metadata()).format).toBe('jpeg');
  });
});
