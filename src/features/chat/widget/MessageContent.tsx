import { Fragment, type ReactNode } from 'react';
import { parseMarkup, type MarkupNode } from './markup';

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
      return node.src ? <img key={key} className="ichat-img" src={node.src} alt="" style={{ maxWidth: '100%' }} /> : null;
    case 'file':
      return node.href ? (
        <a key={key} className="ichat-file" href={node.href} download={node.name} target="_blank" rel="noopener noreferrer">
          📄 {node.name}
        </a>
      ) : (
        <span key={key}>📄 {node.name}</span>
      );
    case 'audio':
      return node.src ? <audio key={key} controls src={node.src} /> : null;
    case 'video':
      return node.src ? <video key={key} controls src={node.src} style={{ maxWidth: '100%' }} /> : null;
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
