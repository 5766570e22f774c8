import { CloseOutlined, FileOutlined, PaperClipOutlined, PictureOutlined, SmileOutlined } from '@ant-design/icons';
import { Alert, Button, Dropdown, Popover, Space, Typography } from 'antd';
import type { ReplyWindow } from '@contract/chatWidget';
import { timeFormat } from '@/app/formats';
import { useRef, useState, type ChangeEvent, type ClipboardEvent, type KeyboardEvent } from 'react';
import { emojiToken } from './emoji';
import { EmojiPicker } from './EmojiPicker';
import { MessageContent } from './MessageContent';
import type { ChatLang, Translate } from './translate';
import type { SendMode } from './types';
import { acceptAttribute, acceptsFile, uploadToken, type UploadExtensions, type UploadKind } from './upload';

type EntryBoxProps = {
  t: Translate;
  lang: ChatLang;
  sendMode: SendMode;
  onSendModeChange: (mode: SendMode) => void;
  onSend: (text: string) => void;
  onClose: () => void;
  uploadExtensions?: UploadExtensions;
  onUpload?: (upload: { type: UploadKind; file: File; callback: (url: string) => void }) => void;
  /** Mini mode: a two-line box. */
  compact?: boolean;
  /** The marketplace's reply window of a buyer chat: closed, the box is disabled and says why. */
  reply?: ReplyWindow | undefined;
};

/** A picture or file uploaded for the next message: shown above the box as a preview, sent as its token. */
type Attachment = { kind: UploadKind; url: string; name: string };

/** The message as sent: the text, then each attachment's token on a line of its own. */
export function composeMessage(text: string, attachments: readonly Attachment[]): string {
  const tokens = attachments.map((a) => uploadToken(a.kind, a.url, a.name));
  return [text.trim() === '' ? '' : text, ...tokens].filter((part) => part !== '').join('\n');
}

/** Inserts text at the caret (or over the selection) and returns the new value and caret position. */
export function insertAt(value: string, start: number, end: number, insert: string): { value: string; caret: number } {
  return { value: value.slice(0, start) + insert + value.slice(end), caret: start + insert.length };
}

export function EntryBox({ t, lang, sendMode, onSendModeChange, onSend, onClose, uploadExtensions, onUpload, compact = false, reply }: EntryBoxProps) {
  const closed = reply !== undefined && !reply.canReply;
  const [text, setText] = useState('');
  const [emojiOpen, setEmojiOpen] = useState(false);
  const [attachments, setAttachments] = useState<Attachment[]>([]);
  const area = useRef<HTMLTextAreaElement>(null);
  const caret = useRef({ start: 0, end: 0 });
  const imageInput = useRef<HTMLInputElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const rememberCaret = () => {
    const el = area.current;
    if (el) caret.current = { start: el.selectionStart, end: el.selectionEnd };
  };

  const insert = (token: string) => {
    setText((value) => {
      const { start, end } = caret.current;
      const next = insertAt(value, Math.min(start, value.length), Math.min(end, value.length), token);
      caret.current = { start: next.caret, end: next.caret };
      requestAnimationFrame(() => {
        area.current?.focus();
        area.current?.setSelectionRange(next.caret, next.caret);
      });
      return next.value;
    });
  };

  const send = () => {
    // Whitespace alone is empty too: nothing is sent and the box keeps what was typed.
    if (closed || (text.trim() === '' && attachments.length === 0)) return;
    onSend(composeMessage(text, attachments));
    setText('');
    setAttachments([]);
    caret.current = { start: 0, end: 0 };
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key !== 'Enter' || e.nativeEvent.isComposing || e.keyCode === 229) return;
    const ctrl = e.ctrlKey || e.metaKey;
    const sends = sendMode === 'enter' ? !ctrl && !e.shiftKey : ctrl;
    if (sends) {
      e.preventDefault();
      send();
    } else if (ctrl) {
      // Ctrl+Enter does not add a line by itself in a textarea; do it so it behaves as the setting says.
      e.preventDefault();
      rememberCaret();
      insert('\n');
    }
  };

  const upload = (kind: UploadKind, file: File) => {
    if (!acceptsFile(file.name, kind, uploadExtensions)) return;
    onUpload?.({ type: kind, file, callback: (url) => setAttachments((list) => [...list, { kind, url, name: file.name }]) });
  };

  const pick = (kind: UploadKind) => (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (file) upload(kind, file);
  };

  // A picture pasted into the box is uploaded as a picked one is (a screenshot has no name: it gets one).
  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const pictures = [...e.clipboardData.files].filter((file) => file.type.startsWith('image/'));
    if (pictures.length === 0 || closed || !onUpload) return;
    e.preventDefault();
    for (const file of pictures) upload('image', file.name ? file : new File([file], `pasted.${file.type.slice(6) || 'png'}`, { type: file.type }));
  };

  return (
    <div className="ichat-entry" style={{ borderTop: '1px solid #eee', padding: 6 }}>
      {closed && <Alert className="ichat-reply-closed" type="warning" showIcon title={reply.reason ?? t('replyClosed')} role="status" />}
      {reply?.canReply && reply.until !== null && (
        <Typography.Text type="secondary" className="ichat-reply-until" role="status">
          {t('replyUntil', { time: timeFormat(lang).format(reply.until) })}
        </Typography.Text>
      )}
      <Space size={4} style={{ marginBottom: 4 }}>
        <Popover
          open={emojiOpen}
          onOpenChange={setEmojiOpen}
          trigger="click"
          content={
            <EmojiPicker
              lang={lang}
              onPick={(emoji) => {
                insert(emojiToken(emoji));
                setEmojiOpen(false);
              }}
            />
          }
        >
          <Button size="small" aria-label={t('emoji')} disabled={closed} onMouseDown={rememberCaret}>
            <SmileOutlined />
          </Button>
        </Popover>
        <Button size="small" aria-label={t('image')} disabled={closed} onClick={() => imageInput.current?.click()}>
          <PictureOutlined />
        </Button>
        <Button size="small" aria-label={t('file')} disabled={closed} onClick={() => fileInput.current?.click()}>
          <PaperClipOutlined />
        </Button>
        <input
          ref={imageInput}
          type="file"
          hidden
          data-testid="chat-image-input"
          accept={acceptAttribute('image', uploadExtensions)}
          onChange={pick('image')}
        />
        <input
          ref={fileInput}
          type="file"
          hidden
          data-testid="chat-file-input"
          accept={acceptAttribute('file', uploadExtensions)}
          onChange={pick('file')}
        />
      </Space>
      {attachments.length > 0 && (
        <ul className="ichat-attachments" aria-label={t('attachments')}>
          {attachments.map((a, i) => (
            <li key={`${a.url}-${i}`} className={`ichat-attachment ichat-attachment--${a.kind}`} title={a.name}>
              {a.kind === 'image' ? <MessageContent content={uploadToken('image', a.url, a.name)} /> : <span className="ichat-attachment__file"><FileOutlined /> {a.name}</span>}
              <button
                type="button"
                className="ichat-attachment__remove"
                aria-label={t('removeAttachment', { name: a.name })}
                onClick={() => setAttachments((list) => list.filter((_, k) => k !== i))}
              >
                <CloseOutlined />
              </button>
            </li>
          ))}
        </ul>
      )}
      <textarea
        ref={area}
        onPaste={onPaste}
        aria-label={t('inputLabel')}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          caret.current = { start: e.target.selectionStart, end: e.target.selectionEnd };
        }}
        onSelect={rememberCaret}
        onKeyDown={onKeyDown}
        disabled={closed}
        placeholder={closed ? t('replyClosed') : undefined}
        rows={compact ? 2 : 3}
        style={{ width: '100%', resize: 'none', border: 0, outline: 'none' }}
      />
      <Space style={{ display: 'flex', justifyContent: 'flex-end' }}>
        <Button size="small" onClick={onClose}>
          {t('closeEntry')}
        </Button>
        <Space.Compact size="small">
          <Button type="primary" disabled={closed} onClick={send}>
            {t('send')}
          </Button>
          <Dropdown
            trigger={['click']}
            menu={{
              selectable: true,
              selectedKeys: [sendMode],
              items: [
                { key: 'enter', label: t('enterSends') },
                { key: 'ctrlEnter', label: t('ctrlEnterSends') },
              ],
              onClick: ({ key }) => onSendModeChange(key as SendMode),
            }}
          >
            <Button type="primary" aria-label={t('sendSetting')}>
              ▾
            </Button>
          </Dropdown>
        </Space.Compact>
      </Space>
    </div>
  );
}
