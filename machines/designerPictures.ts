/**
 * The designer's history keeps a snapshot of the canvas per change, and a canvas with a picture carries it as a data
 * URL inside its JSON: a 2 MB picture edited 50 times would be held 50 times. Here each picture source is stored once,
 * under a key from its content, and the snapshots kept in the history name it by that key instead.
 *
 * A reference is the key after a U+0001 inside the JSON string: JSON.stringify escapes every control character, so
 * no text a seller types, and no snapshot fabric writes, can contain one; unpacking can therefore never mistake
 * content for a reference.
 */

/** Picture sources by key: the data URLs the history's snapshots refer to. */
export type PictureSources = Readonly<Record<string, string>>;

const MARK = '\u0001';
/** Data URLs shorter than this stay inline: a reference would save next to nothing. */
const MIN_INLINE_CHARS = 1_024;
const REFERENCE = new RegExp(`"${MARK}([0-9a-z-]+)"`, 'g');
/** Characters of a source the key is made from; equal keys are then told apart by comparing the sources whole. */
const SAMPLES = 2_048;

/**
 * A key from the source's length and a spread of its characters (FNV-1a): cheap on a picture of megabytes, and
 * never trusted alone, since a source is only shared with one it equals.
 */
function keyOf(text: string): string {
  let hash = 0x811c9dc5;
  const step = Math.max(1, Math.floor(text.length / SAMPLES));
  for (let i = 0; i < text.length; i += step) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  for (let i = Math.max(0, text.length - 64); i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return `${text.length.toString(36)}-${(hash >>> 0).toString(36)}`;
}

export type Packed = { snapshot: string; sources: PictureSources };

let memo: { raw: string; sources: PictureSources; packed: Packed } | null = null;

/**
 * A snapshot with its pictures replaced by references, and the sources with any picture not seen before added (the
 * same object when nothing was added). A picture is a JSON string value that is a data URL of plain characters
 * (base64 has no quote or backslash to escape), found with indexOf rather than a regular expression: a 2 MB picture
 * is scanned at memory speed on every change. The last answer is remembered: a guard and the action after it pack
 * the same snapshot once.
 */
export function packSnapshot(raw: string, sources: PictureSources): Packed {
  if (memo && memo.raw === raw && memo.sources === sources) return memo.packed;
  const added: Record<string, string> = {};
  let adding = false;
  const parts: string[] = [];
  let copied = 0;
  for (let at = raw.indexOf('"data:'); at !== -1; at = raw.indexOf('"data:', at + 1)) {
    // A string value or array element starts after these; `\"data:` inside a text is no string start.
    if (!':,['.includes(raw[at - 1] ?? '')) continue;
    const end = raw.indexOf('"', at + 1);
    if (end === -1) break;
    const backslash = raw.indexOf('\\', at + 1);
    if (end - at - 1 < MIN_INLINE_CHARS || (backslash !== -1 && backslash < end)) {
      at = end;
      continue;
    }
    const url = raw.slice(at + 1, end);
    const base = keyOf(url);
    let key = base;
    for (let n = 1; ; n++) {
      const known = added[key] ?? sources[key];
      if (known === undefined) {
        added[key] = url;
        adding = true;
        break;
      }
      if (known === url) break;
      key = `${base}-${n}`;
    }
    parts.push(raw.slice(copied, at), `"${MARK}${key}"`);
    copied = end + 1;
    at = end;
  }
  const snapshot = copied === 0 ? raw : parts.join('') + raw.slice(copied);
  const packed = { snapshot, sources: adding ? { ...sources, ...added } : sources };
  memo = { raw, sources, packed };
  return packed;
}

/** The snapshot as the canvas reads it, every picture back in place. */
export function unpackSnapshot(snapshot: string, sources: PictureSources): string {
  if (!snapshot.includes(MARK)) return snapshot;
  return snapshot.replace(REFERENCE, (whole, key: string) => {
    const url = sources[key];
    return url === undefined ? whole : `"${url}"`;
  });
}

/** The sources still named by some snapshot; the same object when none went. */
export function keepReferenced(sources: PictureSources, snapshots: readonly (string | null)[]): PictureSources {
  const used = new Set<string>();
  for (const snapshot of snapshots) {
    if (!snapshot?.includes(MARK)) continue;
    for (const match of snapshot.matchAll(REFERENCE)) used.add(match[1]!);
  }
  const keys = Object.keys(sources);
  if (keys.every((key) => used.has(key))) return sources;
  return Object.fromEntries(keys.filter((key) => used.has(key)).map((key) => [key, sources[key]!]));
}
