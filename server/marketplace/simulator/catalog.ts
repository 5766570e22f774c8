import type { OzonCategoryAttribute } from '../ozon/schemas';

/**
 * The simulator's description-category tree: a few top categories with subcategories and leaf types, named in
 * Chinese (ZH_HANS), English and Russian (DEFAULT/RU, as Ozon answers by default).
 */
export type SimLanguage = 'zh' | 'en' | 'ru';
type Names = Record<SimLanguage, string>;
export type SimType = { typeId: number; names: Names; productWords: string[] };
export type SimCategory = { categoryId: number; names: Names; children: SimCategory[]; types: SimType[] };

const n = (zh: string, en: string, ru: string): Names => ({ zh, en, ru });

export const CATEGORY_TREE: SimCategory[] = [
  {
    categoryId: 17027000, names: n('电子产品', 'Electronics', 'Электроника'), types: [],
    children: [
      { categoryId: 17028630, names: n('耳机和音频', 'Headphones and audio', 'Наушники и аудиотехника'), children: [], types: [
        { typeId: 94751, names: n('无线耳机', 'Wireless earphones', 'Беспроводные наушники'), productWords: ['Беспроводные наушники', 'TWS наушники', 'Bluetooth гарнитура'] },
        { typeId: 94752, names: n('便携音箱', 'Portable speaker', 'Портативная колонка'), productWords: ['Портативная колонка', 'Bluetooth колонка'] },
      ] },
      { categoryId: 17028650, names: n('手机配件', 'Phone accessories', 'Аксессуары для телефонов'), children: [], types: [
        { typeId: 94760, names: n('手机壳', 'Phone case', 'Чехол для смартфона'), productWords: ['Чехол для iPhone', 'Силиконовый чехол', 'Чехол-книжка'] },
        { typeId: 94761, names: n('数据线', 'Charging cable', 'Кабель для зарядки'), productWords: ['Кабель USB Type-C', 'Кабель Lightning', 'Магнитный кабель'] },
        { typeId: 94762, names: n('充电器', 'Charger', 'Зарядное устройство'), productWords: ['Быстрое зарядное устройство', 'Сетевое зарядное устройство 65W'] },
      ] },
    ],
  },
  {
    categoryId: 17027100, names: n('家居用品', 'Home', 'Дом и сад'), types: [],
    children: [
      { categoryId: 17028700, names: n('厨房用品', 'Kitchen', 'Кухня'), children: [], types: [
        { typeId: 95010, names: n('收纳盒', 'Storage box', 'Контейнер для хранения'), productWords: ['Контейнер для хранения', 'Органайзер кухонный'] },
        { typeId: 95011, names: n('硅胶铲', 'Silicone spatula', 'Лопатка силиконовая'), productWords: ['Лопатка силиконовая', 'Набор кухонных лопаток'] },
      ] },
      { categoryId: 17028710, names: n('灯具', 'Lighting', 'Освещение'), children: [], types: [
        { typeId: 95020, names: n('LED灯带', 'LED strip', 'Светодиодная лента'), productWords: ['Светодиодная лента RGB', 'LED лента 5 м'] },
        { typeId: 95021, names: n('小夜灯', 'Night light', 'Ночник'), productWords: ['Ночник детский', 'Ночник с датчиком движения'] },
      ] },
    ],
  },
  {
    categoryId: 17027200, names: n('服装鞋包', 'Clothing and bags', 'Одежда, обувь и сумки'), types: [],
    children: [
      { categoryId: 17028800, names: n('女装', 'Women\'s clothing', 'Женская одежда'), children: [], types: [
        { typeId: 96010, names: n('连衣裙', 'Dress', 'Платье'), productWords: ['Платье летнее', 'Платье вечернее'] },
        { typeId: 96011, names: n('T恤', 'T-shirt', 'Футболка'), productWords: ['Футболка оверсайз', 'Футболка хлопковая'] },
      ] },
      { categoryId: 17028810, names: n('箱包', 'Bags', 'Сумки'), children: [], types: [
        { typeId: 96020, names: n('双肩包', 'Backpack', 'Рюкзак'), productWords: ['Рюкзак городской', 'Рюкзак для ноутбука'] },
      ] },
    ],
  },
  {
    categoryId: 17027300, names: n('美妆个护', 'Beauty', 'Красота и здоровье'), types: [],
    children: [
      { categoryId: 17028900, names: n('美发工具', 'Hair tools', 'Приборы для волос'), children: [], types: [
        { typeId: 97010, names: n('卷发棒', 'Curling iron', 'Плойка'), productWords: ['Плойка для волос', 'Стайлер для завивки'] },
      ] },
    ],
  },
];

export type LeafType = SimType & { categoryId: number };

export const LEAF_TYPES: LeafType[] = CATEGORY_TREE.flatMap((top) =>
  top.children.flatMap((sub) => sub.types.map((t) => ({ ...t, categoryId: sub.categoryId }))),
);

export function findLeaf(categoryId: number, typeId: number): LeafType | undefined {
  return LEAF_TYPES.find((t) => t.categoryId === categoryId && t.typeId === typeId);
}

export const BRANDS = ['Нет бренда', 'Baseus', 'Ugreen', 'Xiaomi', 'Anker', 'Remax', 'Hoco', 'Joyroom'];
export const COLORS: Names[] = [
  n('黑色', 'black', 'черный'),
  n('白色', 'white', 'белый'),
  n('红色', 'red', 'красный'),
  n('蓝色', 'blue', 'синий'),
  n('粉色', 'pink', 'розовый'),
];

type AttrDef = { id: number; names: Names; type: string; required: boolean; dictionaryId: number; collection?: boolean; aspect?: boolean; group: Names };
const main = n('主要属性', 'Main', 'Основные');
const extra = n('其他属性', 'Additional', 'Дополнительные');

/** The attributes every simulated type takes (Ozon's real ids for brand, type, name, annotation, colour, weight). */
export const ATTRIBUTES: AttrDef[] = [
  { id: 85, names: n('品牌', 'Brand', 'Бренд'), type: 'String', required: true, dictionaryId: 28732849, group: main },
  { id: 8229, names: n('类型', 'Type', 'Тип'), type: 'String', required: true, dictionaryId: 1960, group: main },
  { id: 9048, names: n('型号名称', 'Model name', 'Название модели'), type: 'String', required: true, dictionaryId: 0, group: main },
  { id: 4180, names: n('名称', 'Name', 'Название'), type: 'String', required: false, dictionaryId: 0, group: main },
  { id: 4191, names: n('简介', 'Annotation', 'Аннотация'), type: 'multiline', required: false, dictionaryId: 0, group: extra },
  { id: 10096, names: n('商品颜色', 'Colour', 'Цвет товара'), type: 'String', required: false, dictionaryId: 1495, collection: true, aspect: true, group: main },
  { id: 4383, names: n('商品重量，克', 'Weight, g', 'Вес товара, г'), type: 'Decimal', required: false, dictionaryId: 0, group: extra },
];

export function attributesFor(language: SimLanguage): OzonCategoryAttribute[] {
  return ATTRIBUTES.map((a) => ({
    id: a.id,
    name: a.names[language],
    description: a.names[language],
    type: a.type,
    is_required: a.required,
    is_collection: a.collection ?? false,
    is_aspect: a.aspect ?? false,
    dictionary_id: a.dictionaryId,
    group_id: a.group === main ? 1 : 2,
    group_name: a.group[language],
    max_value_count: a.collection ? 10 : 1,
  }));
}


/** One value of an Ozon attribute dictionary (`/v1/description-category/attribute/values`). */
export type DictionaryValue = { id: number; value: string; info: string; picture: string };

/** Brand values' ids: the named BRANDS first (the ids the generated cards carry), then the generated long tail. */
export const BRAND_VALUE_BASE = 5_000_000;
export const COLOUR_VALUE_BASE = 61_570;

const BRAND_HEADS = ['Aero', 'Bright', 'Cloud', 'Delta', 'Echo', 'Fox', 'Giga', 'Hyper', 'Iron', 'Jade', 'Kilo', 'Luna', 'Mega', 'Nova', 'Omni', 'Pixel', 'Quant', 'Rapid', 'Sky', 'Terra', 'Ultra', 'Vita', 'Wave', 'Xeno', 'Yuki', 'Zen', 'Astro', 'Blue', 'Coral', 'Dragon', 'Ember', 'Frost', 'Golden', 'Happy', 'Ivy', 'Jolly', 'Kind', 'Lucky', 'Maple', 'North'];
const BRAND_MIDS = ['', 'tech', 'line', 'star', 'home', 'wood', 'light', 'bay', 'max', 'pro', 'fit', 'mart', 'craft', 'zone', 'port', 'gear', 'nest', 'peak', 'leaf', 'stone', 'moon', 'sun', 'rain', 'wind', 'fire', 'ice', 'rock', 'sand', 'sea', 'hill', 'lake', 'park', 'way', 'net', 'lab', 'box', 'one', 'go', 'up', 'ly'];
const BRAND_TAILS = ['', ' Plus', ' Pro', ' Lite', ' Home', ' Kids', ' Style', ' Life', ' Go', ' Max', ' Mini', ' Select', ' Original', ' Studio', ' Basic', ' Prime', ' Smart', ' Care', ' Sport', ' Trend', ' Classic', ' Fresh', ' Joy', ' Pure', ' Zone'];

/**
 * Ozon's brand dictionary holds hundreds of thousands of values; the simulator's holds the named brands and 40,000
 * generated ones (every head × middle × tail), enough that a form must page and search it rather than load it.
 */
export const BRAND_DICTIONARY: readonly DictionaryValue[] = [
  ...BRANDS.map((value, i) => ({ id: BRAND_VALUE_BASE + i, value, info: '', picture: '' })),
  ...BRAND_HEADS.flatMap((head) => BRAND_MIDS.flatMap((mid) => BRAND_TAILS.map((tail) => `${head}${mid}${tail}`))).map((value, i) => ({
    id: BRAND_VALUE_BASE + BRANDS.length + i,
    value,
    info: '',
    picture: '',
  })),
];

/** The dictionary behind an attribute for one leaf type, with its values' texts in the asked language where Ozon translates them. */
export function dictionaryFor(attributeId: number, leaf: LeafType, language: SimLanguage): readonly DictionaryValue[] | undefined {
  const def = ATTRIBUTES.find((a) => a.id === attributeId);
  if (!def || def.dictionaryId === 0) return undefined;
  if (def.id === 85) return BRAND_DICTIONARY;
  // The type attribute's dictionary depends on the category: a leaf type offers its own type only.
  if (def.id === 8229) return [{ id: leaf.typeId, value: leaf.names.ru, info: leaf.names[language], picture: '' }];
  if (def.id === 10096) return COLORS.map((c, i) => ({ id: COLOUR_VALUE_BASE + i, value: c.ru, info: c[language], picture: '' }));
  return [];
}

type ImportedAttribute = { id?: number | string; values?: { dictionary_value_id?: number | string; value?: string }[] };
export type AttributeProblem = { code: string; field: string; attribute_id: number; attribute_name: string; level: string; state: string; message: string };

/**
 * What Ozon's import says about a card's attributes for its leaf type: a required attribute left empty, more values
 * than the attribute takes, a dictionary attribute whose value is not in its dictionary, a number that is not one.
 */
export function attributeProblems(leaf: LeafType, attributes: readonly ImportedAttribute[]): AttributeProblem[] {
  const problems: AttributeProblem[] = [];
  const problem = (a: AttrDef, code: string, message: string) =>
    problems.push({ code, field: 'attribute', attribute_id: a.id, attribute_name: a.names.ru, level: 'error', state: 'declined', message });
  for (const def of ATTRIBUTES) {
    const given = attributes.find((a) => Number(a.id) === def.id);
    const values = (given?.values ?? []).filter((v) => v.dictionary_value_id !== undefined || (v.value ?? '').trim() !== '');
    if (values.length === 0) {
      if (def.required) problem(def, 'error_attribute_values_empty', `required attribute ${def.id} is empty`);
      continue;
    }
    if (values.length > (def.collection ? 10 : 1)) problem(def, 'error_attribute_values_too_many', `attribute ${def.id} takes at most ${def.collection ? 10 : 1} values`);
    const dictionary = dictionaryFor(def.id, leaf, 'ru');
    if (dictionary) {
      for (const v of values) {
        const id = Number(v.dictionary_value_id ?? 0);
        if (!dictionary.some((d) => d.id === id)) problem(def, 'error_attribute_value_out_of_range', `value ${id} is not in the dictionary of attribute ${def.id}`);
      }
    }
    if (def.type === 'Decimal' && values.some((v) => !Number.isFinite(Number(v.value)) || (v.value ?? '').trim() === '')) {
      problem(def, 'error_attribute_value_not_number', `attribute ${def.id} must be a number`);
    }
  }
  return problems;
}

/** Cards whose owners forbid creating products from their SKU (every tenth card): import-by-SKU refuses them. */
export function isCopyForbidden(productId: number): boolean {
  return productId % 10 === 7;
}
