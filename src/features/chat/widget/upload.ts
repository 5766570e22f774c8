/** Upload filtering by extension, case-insensitive (spec §5). A non-matching file is silently discarded. */

export type UploadKind = 'image' | 'file';

export const DEFAULT_EXTENSIONS = {
  image: ['jpg', 'png', 'gif', 'bmp', 'jpeg'],
  video: ['avi', 'mp4', 'wma', 'rmvb', 'rm', 'flash', '3gp', 'flv'],
  audio: ['mp3', 'wav', 'mid'],
} as const;

/**
 * Which extensions a picker accepts. `image` defaults to the image list; `file` accepts anything unless configured.
 * A configured list replaces the default for its kind.
 */
export type UploadExtensions = Partial<Record<UploadKind, readonly string[]>>;

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot === -1 ? '' : name.slice(dot + 1).toLowerCase();
}

export function allowedExtensions(kind: UploadKind, configured?: UploadExtensions): readonly string[] | null {
  const list = configured?.[kind];
  if (list) return list.map((e) => e.replace(/^\./, '').toLowerCase());
  return kind === 'image' ? DEFAULT_EXTENSIONS.image : null;
}

export function acceptsFile(name: string, kind: UploadKind, configured?: UploadExtensions): boolean {
  const allowed = allowedExtensions(kind, configured);
  return allowed === null || allowed.includes(extensionOf(name));
}

/** The `accept` attribute for the picker, so the browser's dialog already narrows the choice. */
export function acceptAttribute(kind: UploadKind, configured?: UploadExtensions): string | undefined {
  const allowed = allowedExtensions(kind, configured);
  return allowed ? allowed.map((e) => `.${e}`).join(',') : undefined;
}

export function uploadToken(kind: UploadKind, url: string, fileName: string): string {
  return kind === 'image' ? `img[${url}]` : `file(${url})[${fileName}]`;
}
