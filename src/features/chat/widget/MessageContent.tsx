import { FileOutlined, LinkOutlined, PictureOutlined, RedoOutlined } from '@ant-design/icons';
import { Fragment, useState, type MouseEvent, type ReactNode } from 'react';
import { isExternalMediaUrl } from '@contract/chatUpload';
import { parseMarkup, type MarkupNode } from './markup';
import { useMediaResolver, useMediaUrl, useMessageScope } from './media';

type MessageContentProps = { content: string; onMention?: (name: string) => void };

export function MessageContent({ content, onMention }: MessageContentProps) {
  return <>{parseMarkup(content).map((node, i) => renderNode(node, i, onMention))}</>;
}

function renderNode(node: MarkupNode, key: number, onMention?: (name: string) => void): ReactNode {
  switch (node.kind) {
    case 'text':
      return <Fragment key={key}>{node.text}</Fragment>;
    case 'br':
      return <br key={key} />;
    case 'emoji':
      return (
        <span key={key} className="ichat-emoji" role="img" aria-label={node.name} title={node.name}>
          {node.glyph}
        </span>
      );
    case 'img':
      return node.src ? <MediaImage key={key} src={node.src} /> : null;
    case 'file':
      return node.href ? <FileLink key={key} href={node.href} name={node.name} /> : <span key={key}><FileOutlined /> {node.name}</span>;
    case 'audio':
      return node.src ? <MediaPlayer key={key} kind="audio" src={node.src} /> : null;
    case 'video':
      return node.src ? <MediaPlayer key={key} kind="video" src={node.src} /> : null;
    case 'link':
      return node.href ? (
        <a key={key} href={node.href} target="_blank" rel="noopener noreferrer">
          {node.text}
        </a>
      ) : (
        // A refused address stays visible as plain text, so the reader sees what was sent.
        <span key={key} className="ichat-link-refused">
          {node.text}
        </span>
      );
    case 'mention':
      return (
        <button key={key} type="button" className="ichat-mention" onClick={() => onMention?.(node.name)}>
          @{node.name}
        </button>
      );
    case 'block': {
      const Tag = node.tag;
      return <Tag key={key}>{node.children.map((child, i) => renderNode(child, i, onMention))}</Tag>;
    }
  }
}

function MediaImage({ src }: { src: string }) {
  return isExternalMediaUrl(src) ? <ExternalImage src={src} /> : <OwnImage src={src} />;
}

function OwnImage({ src }: { src: string }) {
  const loadable = useMediaUrl(src);
  // The box keeps its place while the picture loads, so the list does not jump under the reader.
  if (!loadable) return <span className="ichat-img ichat-img-loading" style={{ display: 'inline-block', width: 120, height: 90, background: '#e8e8e8', borderRadius: 4 }} />;
  return <img className="ichat-img" src={loadable} alt="" style={{ maxWidth: '100%', maxHeight: 240, borderRadius: 4, display: 'block' }} />;
}

const hostOf = (url: string) => {
  try {
    return new URL(url, 'https://invalid').host;
  } catch {
    return url;
  }
};

/**
 * Another site's address (issue 27): loading it in this browser would tell that site the reader's address and when
 * they read. Nothing is fetched until the reader clicks; then the host's server fetches it and the picture shows.
 */
function ExternalImage({ src }: { src: string }) {
  const resolver = useMediaResolver();
  const scope = useMessageScope();
  const [state, setState] = useState<{ kind: 'asking' } | { kind: 'loading' } | { kind: 'shown'; url: string } | { kind: 'failed'; reason: string }>({ kind: 'asking' });
  if (!resolver?.external || !scope) return <ExternalLink href={src} />;
  const { t, chat } = scope;
  const host = hostOf(src);
  const load = () => {
    setState({ kind: 'loading' });
    resolver.external!(src, chat).then(
      (url) => setState({ kind: 'shown', url }),
      (error: unknown) => {
        const reason = typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string' && error.message ? error.message : t('imageFailed');
        setState({ kind: 'failed', reason });
      },
    );
  };
  if (state.kind === 'shown') return <img className="ichat-img" src={state.url} alt="" style={{ maxWidth: '100%', maxHeight: 240, borderRadius: 4, display: 'block' }} />;
  return (
    <span className="ichat-external-img" style={{ display: 'inline-flex', flexDirection: 'column', gap: 4, padding: '8px 10px', border: '1px dashed #bbb', borderRadius: 4, background: '#fafafa', color: '#333', maxWidth: 260 }}>
      <button type="button" onClick={load} disabled={state.kind === 'loading'} title={t('externalImageHint')} style={{ all: 'unset', cursor: state.kind === 'loading' ? 'progress' : 'pointer', color: '#1677ff' }}>
        {state.kind === 'failed' ? <RedoOutlined /> : <PictureOutlined />} {state.kind === 'loading' ? t('fileLoading') : t('loadImage')}
      </button>
      <span style={{ fontSize: 12, color: '#888', overflowWrap: 'anywhere' }}>{t('imageFrom', { host })}</span>
      {state.kind === 'failed' && (
        <span role="alert" style={{ fontSize: 12, color: '#cf1322' }}>
          {state.reason}
        </span>
      )}
    </span>
  );
}

/** Another site's file the page does not fetch: a link the reader opens, sending no referrer. */
function ExternalLink({ href }: { href: string }) {
  const scope = useMessageScope();
  const host = hostOf(href);
  return (
    <a className="ichat-file" href={href} target="_blank" rel="noopener noreferrer" referrerPolicy="no-referrer">
      <LinkOutlined /> {scope ? scope.t('openExternal', { host }) : host}
    </a>
  );
}

function MediaPlayer({ kind, src }: { kind: 'audio' | 'video'; src: string }) {
  if (isExternalMediaUrl(src)) return <ExternalLink href={src} />;
  return <OwnPlayer kind={kind} src={src} />;
}

function OwnPlayer({ kind, src }: { kind: 'audio' | 'video'; src: string }) {
  const loadable = useMediaUrl(src);
  if (!loadable) return null;
  return kind === 'audio' ? <audio controls src={loadable} /> : <video controls src={loadable} style={{ maxWidth: '100%' }} />;
}

/** A file downloads under its own name; an address that needs the session is fetched only when clicked. */
function FileLink({ href, name }: { href: string; name: string }) {
  const resolver = useMediaResolver();
  const managed = resolver?.handles(href) ?? false;
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    if (!managed || !resolver) return;
    e.preventDefault();
    void resolver.resolve(href).then(
      (loadable) => {
        const a = document.createElement('a');
        a.href = loadable;
        a.download = name;
        a.click();
      },
      () => undefined,
    );
  };
  return (
    <a className="ichat-file" href={href} download={name} target="_blank" rel="noopener noreferrer" onClick={onClick}>
      <FileOutlined /> {name}
    </a>
  );
}
