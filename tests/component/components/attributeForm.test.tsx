import { configure, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import type { CardDraft } from '@contract/create';
import { emptyCard } from '@contract/ozonCard';
import { AttributeForm } from '@/components/attribute-form/AttributeForm';
import type { OzonCatalog, ValuesQuery } from '@/components/attribute-form/catalog';
import { simulatorCatalog } from './simulatorCatalog';

const EARPHONES = { categoryId: 17028630, typeId: 94751 };

function Harness({ catalog, start, seen, showAllProblems = false }: { catalog: OzonCatalog; start: CardDraft; seen: (card: CardDraft) => void; showAllProblems?: boolean }) {
  const [card, setCard] = useState(start);
  return (
    <AttributeForm
      value={card}
      catalog={catalog}
      showAllProblems={showAllProblems}
      onChange={(next) => {
        seen(next);
        setCard(next);
      }}
    />
  );
}

function setup(options: { start?: Partial<CardDraft>; showAllProblems?: boolean } = {}) {
  const asked: ValuesQuery[] = [];
  let last: CardDraft | null = null;
  const catalog = simulatorCatalog(asked);
  render(<Harness catalog={catalog} start={{ ...emptyCard(), ...options.start }} showAllProblems={options.showAllProblems} seen={(card) => (last = card)} />);
  return { asked, card: () => last };
}

// A whole card form renders slowly in jsdom on a shared machine: each test and each wait gets room.
configure({ asyncUtilTimeout: 15_000 });
describe('the attribute form on the simulator’s categories', { timeout: 120_000 }, () => {
  it('marks Ozon’s required attributes and says which are empty, against the field', async () => {
    setup({ start: EARPHONES, showAllProblems: true });
    expect(await screen.findByText('「品牌」为必填属性')).toBeInTheDocument();
    expect(screen.getByText('「类型」为必填属性')).toBeInTheDocument();
    expect(screen.getByText('「型号名称」为必填属性')).toBeInTheDocument();
    // An optional attribute carries no complaint; required ones carry the mark.
    expect(screen.queryByText('「名称」为必填属性')).toBeNull();
    const brandLabel = screen.getByText('品牌', { selector: 'label *, label' });
    expect(brandLabel.closest('label')?.textContent).toContain('*');
    expect(screen.getByText('请填写商品名称')).toBeInTheDocument();
    expect(screen.getByText('请至少添加一张图片')).toBeInTheDocument();
  });

  it('shows a problem only once the seller has touched the field, until asked for all', async () => {
    const user = userEvent.setup();
    setup({ start: EARPHONES });
    const model = await screen.findByLabelText('型号名称');
    expect(screen.queryByText('「型号名称」为必填属性')).toBeNull();
    await user.type(model, 'X1');
    await user.clear(model);
    expect(await screen.findByText('「型号名称」为必填属性')).toBeInTheDocument();
    expect(screen.queryByText('「品牌」为必填属性')).toBeNull();
  });
});
