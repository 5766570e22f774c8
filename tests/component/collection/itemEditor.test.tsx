import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import type { CollectionItem, CollectionUpdate } from '@contract/collection';
import type { DataClient } from '@workers/client';
import { ItemEditor } from '@/features/collection/ItemEditor';
import { fakeDataClient, renderWithApp } from '../renderApp';
import { simulatorCatalog } from '../components/simulatorCatalog';

/** The simulator's wireless-earphones type: brand, type and model name required; colour set per variant. */
const EARPHONES = { categoryId: 17028630, typeId: 94751 };

const variant = (key: string, name: string) => ({ key, name, props: {}, price: '23.80', image: null, stock: 100, selected: true, ozonAttributes: [] });
const ITEM: CollectionItem = {
  id: 7,
  site: '1688',
  sourceId: '712345678901',
  url: 'https://detail.1688.com/offer/712345678901.html',
  title: '跨境爆款TWS蓝牙耳机',
  description: '',
  images: ['/sim/sources/1688/picture/O1CN01tws01.jpg'],
  price: '23.80',
  currency: 'CNY',
  variants: [variant('black', '黑色'), variant('white', '白色')],
  attributes: [],
  categoryId: EARPHONES.categoryId,
  typeId: EARPHONES.typeId,
  ozonAttributes: [{ id: 9048, complexId: 0, values: [{ value: 'TWS-X9' }] }],
  dimensions: null,
  via: 'plugin',
  uploads: 0,
  lastStatus: null,
  createdAt: 0,
  updatedAt: 0,
};

function setup(item: CollectionItem = ITEM) {
  const saved: CollectionUpdate[] = [];
  const catalog = simulatorCatalog([]);
  const client = {
    ...fakeDataClient(),
    collection: {
      update: async (body: CollectionUpdate) => {
        saved.push(body);
        return item;
      },
      formatUrls: async (urls: string[]) => urls,
    },
    create: {
      categoryTree: () => catalog.tree(),
      categoryAttributes: ({ categoryId, typeId }: { categoryId: number; typeId: number }) => catalog.attributes(categoryId, typeId),
      attributeValues: ({ shopId: _shop, ...query }: Parameters<typeof catalog.values>[0] & { shopId?: number }) => catalog.values(query),
    },
  } as unknown as DataClient;
  renderWithApp(<ItemEditor item={item} onClose={() => undefined} onSaved={() => undefined} />, { client });
  return { saved };
}

/** Opens a dictionary select by its label, optionally searches, and picks the option with this text. */
async function pick(user: UserEvent, label: string, option: string, search?: string) {
  const box = await screen.findByRole('combobox', { name: label });
  await user.click(box);
  if (search) await user.type(box, search);
  const open = await waitFor(() => {
    const dropdown = [...document.querySelectorAll<HTMLElement>('.ant-select-dropdown:not(.ant-select-dropdown-hidden)')].at(-1);
    if (!dropdown) throw new Error('no open dropdown');
    return dropdown;
  });
  await user.click(await within(open).findByTitle(option));
  await user.keyboard('{Escape}');
}

const save = (user: UserEvent) => user.click(screen.getByRole('button', { name: '保存' }));

// The card form renders slowly in jsdom on a shared machine: each test and each wait gets room.
configure({ asyncUtilTimeout: 15_000 });
describe('the collection item editor’s Ozon attributes', { timeout: 240_000 }, () => {
  it('saves a draft without the required attributes and says which ones the upload still needs, against their fields', async () => {
    const user = userEvent.setup();
    const { saved } = setup();
    await screen.findByRole('combobox', { name: '品牌' });
    expect(screen.queryByText('「品牌」为必填属性')).toBeNull();
    await save(user);
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatchObject({ ...EARPHONES, ozonAttributes: [{ id: 9048, complexId: 0, values: [{ value: 'TWS-X9' }] }] });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('「品牌」为必填属性');
    expect(alert.textContent).toContain('「类型」为必填属性');
    // …and against each field; the model name the source gave is there.
    expect(screen.getByText('「品牌」为必填属性')).toBeInTheDocument();
    expect(screen.queryByText('「型号名称」为必填属性')).toBeNull();
  });

  it('takes a dictionary value for the card and the colour of each variant, kept per variant across choosing variants', async () => {
    const user = userEvent.setup();
    const { saved } = setup();
    await pick(user, '品牌', 'Baseus');
    await pick(user, '商品颜色 1', 'черный');
    await pick(user, '商品颜色 2', 'белый');
    // White is left out and taken back: its colour stays.
    await user.click(screen.getByRole('checkbox', { name: '白色' }));
    await waitFor(() => expect(screen.queryByRole('combobox', { name: '商品颜色 2' })).toBeNull());
    await user.click(screen.getByRole('checkbox', { name: '白色' }));
    await screen.findByRole('combobox', { name: '商品颜色 2' });
    await save(user);
    await waitFor(() => expect(saved).toHaveLength(1));
    const body = saved[0]!;
    expect(body.ozonAttributes).toContainEqual({ id: 85, complexId: 0, values: [{ dictionaryValueId: 5_000_001, value: 'Baseus' }] });
    const colourOf = (key: string) => body.variants!.find((v) => v.key === key)!.ozonAttributes;
    expect(colourOf('black')).toEqual([{ id: 10096, complexId: 0, values: [{ dictionaryValueId: 61_570, value: 'черный' }] }]);
    expect(colourOf('white')).toEqual([{ id: 10096, complexId: 0, values: [{ dictionaryValueId: 61_571, value: 'белый' }] }]);
    // Colour is not shared: the card's own values hold no colour.
    expect(body.ozonAttributes!.some((a) => a.id === 10096)).toBe(false);
  });
});
