/**
 * The 72 named emoji (spec §3: images numbered 0 to 71). Drawn as Unicode glyphs so the widget ships no image assets;
 * the token in message text is `face[name]`, with the Chinese name as the original wire format used.
 */
export type Emoji = { index: number; name: string; en: string; glyph: string };

const TABLE: [string, string, string][] = [
  ['微笑', 'smile', '🙂'], ['嘻嘻', 'grin', '😁'], ['哈哈', 'laugh', '😄'], ['可爱', 'cute', '😊'],
  ['可怜', 'pitiful', '🥺'], ['挖鼻', 'nose pick', '🤏'], ['吃惊', 'surprised', '😲'], ['害羞', 'shy', '☺️'],
  ['挤眼', 'wink', '😉'], ['闭嘴', 'zip it', '🤐'], ['鄙视', 'scorn', '😒'], ['爱你', 'love you', '😍'],
  ['泪', 'tears', '😢'], ['偷笑', 'snicker', '🤭'], ['亲亲', 'kiss', '😘'], ['生病', 'sick', '🤒'],
  ['太开心', 'overjoyed', '😆'], ['白眼', 'eye roll', '🙄'], ['右哼哼', 'humph right', '😤'], ['左哼哼', 'humph left', '😾'],
  ['嘘', 'shush', '🤫'], ['衰', 'unlucky', '😩'], ['委屈', 'wronged', '😣'], ['吐', 'vomit', '🤮'],
  ['哈欠', 'yawn', '🥱'], ['抱抱', 'hug', '🤗'], ['怒', 'angry', '😠'], ['疑问', 'question', '🤔'],
  ['馋嘴', 'drool', '🤤'], ['拜拜', 'bye', '👋'], ['思考', 'thinking', '🧐'], ['汗', 'sweat', '😓'],
  ['困', 'drowsy', '😪'], ['睡', 'sleep', '😴'], ['钱', 'money', '🤑'], ['失望', 'disappointed', '😞'],
  ['酷', 'cool', '😎'], ['色', 'smitten', '😻'], ['哼', 'hmph', '😏'], ['鼓掌', 'applause', '👏'],
  ['晕', 'dizzy', '😵'], ['悲伤', 'sad', '😔'], ['抓狂', 'frantic', '😫'], ['黑线', 'speechless', '😑'],
  ['阴险', 'sly', '😈'], ['怒骂', 'curse', '🤬'], ['互粉', 'follow back', '💞'], ['心', 'heart', '❤️'],
  ['伤心', 'heartbroken', '💔'], ['猪头', 'pig', '🐷'], ['熊猫', 'panda', '🐼'], ['兔子', 'rabbit', '🐰'],
  ['ok', 'ok', '👌'], ['耶', 'yeah', '✌️'], ['good', 'good', '👍'], ['NO', 'no', '🙅'],
  ['赞', 'like', '👍🏻'], ['来', 'come', '🫴'], ['弱', 'weak', '👎'], ['草泥马', 'alpaca', '🦙'],
  ['神马', 'what', '❓'], ['囧', 'awkward', '😳'], ['浮云', 'cloud', '☁️'], ['给力', 'awesome', '💪'],
  ['围观', 'onlookers', '👀'], ['威武', 'mighty', '🦁'], ['奥特曼', 'ultraman', '🦸'], ['礼物', 'gift', '🎁'],
  ['钟', 'clock', '⏰'], ['话筒', 'microphone', '🎤'], ['蜡烛', 'candle', '🕯️'], ['蛋糕', 'cake', '🎂'],
];

export const EMOJI: readonly Emoji[] = TABLE.map(([name, en, glyph], index) => ({ index, name, en, glyph }));

const BY_NAME = new Map(EMOJI.map((e) => [e.name, e]));

export function emojiByName(name: string): Emoji | undefined {
  return BY_NAME.get(name);
}

export function emojiToken(emoji: Emoji): string {
  return `face[${emoji.name}]`;
}
