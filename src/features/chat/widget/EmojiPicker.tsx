import { EMOJI, type Emoji } from './emoji';
import type { ChatLang } from './translate';

type EmojiPickerProps = { lang: ChatLang; onPick: (emoji: Emoji) => void };

export function EmojiPicker({ lang, onPick }: EmojiPickerProps) {
  return (
    <div role="listbox" aria-label="emoji" style={{ display: 'grid', gridTemplateColumns: 'repeat(12, 28px)', gap: 2 }}>
      {EMOJI.map((emoji) => {
        const label = lang === 'zh' ? emoji.name : emoji.en;
        return (
          <button
            key={emoji.index}
            type="button"
            role="option"
            aria-selected={false}
            aria-label={label}
            title={label}
            onClick={() => onPick(emoji)}
            style={{ border: 0, background: 'none', fontSize: 18, cursor: 'pointer', padding: 2 }}
          >
            {emoji.glyph}
          </button>
        );
      })}
    </div>
  );
}
