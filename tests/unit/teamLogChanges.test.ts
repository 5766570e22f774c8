import { changeLines, type ChangeTexts } from '@/features/team/logChanges';

const SHOPS: Record<number, string> = { 1: 'Shop A', 2: 'Shop B' };
const texts: ChangeTexts = {
  label: (key) => ({ name: 'Name', shopIds: 'Shops', strategy: 'Shops seen', status: 'Status', permissions: 'Features', dataScope: 'Scope', role: 'Role', ownRecords: 'Own only' })[key] ?? null,
  shops: (ids) => ids.map((id) => SHOPS[id] ?? `#${id}`).join(', '),
  byRole: 'by role',
  allShops: 'all shops',
  separator: '、',
  yes: 'yes',
  no: 'no',
  status: (value) => `status ${value}`,
  dataScope: (value) => `scope ${value}`,
  permission: (value) => value.replace(':', ' '),
};

describe('the operation log as a seller reads it', () => {
  it('an edit shows each changed field before and after, by name, and leaves out what did not change or is an id', () => {
    const before = { id: 7, roleId: 3, name: 'wang', role: 'Shipper', shopIds: [1], strategy: [1], status: 'enabled', lastSeenAt: 1 };
    const after = { id: 7, roleId: 4, name: 'wang', role: 'Operator', shopIds: [2], strategy: null, status: 'disabled', lastSeenAt: 2 };
    expect(changeLines(before, after, texts)).toEqual([
      { label: 'Role', text: 'Shipper → Operator' },
      { label: 'Shops', text: 'Shop A → Shop B' },
      { label: 'Shops seen', text: 'Shop A → all shops' },
      { label: 'Status', text: 'status enabled → status disabled' },
    ]);
  });

  it("a role's features show what was granted and taken away; flags read yes or no", () => {
    const lines = changeLines({ permissions: ['orders:view', 'orders:ship'], ownRecords: false }, { permissions: ['orders:view', 'products:view'], ownRecords: true }, texts);
    expect(lines).toEqual([
      { label: 'Features', text: '+products view、−orders ship' },
      { label: 'Own only', text: 'no → yes' },
    ]);
  });

  it('a new record shows its fields, removed ones their names; a member left to the role reads so', () => {
    expect(changeLines(null, { id: 9, name: 'li', shopIds: null, dataScope: 'all' }, texts)).toEqual([
      { label: 'Name', text: 'li' },
      { label: 'Shops', text: 'by role' },
      { label: 'Scope', text: 'scope all' },
    ]);
    expect(changeLines([{ id: 1, name: 'li' }, { id: 2, name: 'wang' }], null, texts)).toEqual([{ label: 'Name', text: 'li、wang' }]);
    expect(changeLines(null, null, texts)).toEqual([]);
  });
});
