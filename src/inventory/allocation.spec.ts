import { type DomainError } from '../common/errors/domain-error.js';
import { planAllocation, type PlanItem } from './allocation.js';

const slots = [
  { id: 's-head', key: 'head' },
  { id: 's-body', key: 'body' },
];
const items = new Map<string, PlanItem>([
  ['i-hat', { id: 'i-hat', slotId: 's-head', owned: 1 }],
  ['i-crown', { id: 'i-crown', slotId: 's-head', owned: 0 }],
  ['i-coat', { id: 'i-coat', slotId: 's-body', owned: 2 }],
]);
const errorOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as DomainError).definition.error;
  }
  return 'none';
};

describe('planAllocation', () => {
  it('accepts owned items in their slots, by slot id or key, and returns the changes', () => {
    expect(
      planAllocation(
        [
          { slotId: 'HEAD', itemId: 'i-hat' },
          { slotId: 's-body', itemId: 'i-coat' },
        ],
        slots,
        items,
        new Map(),
      ),
    ).toEqual([
      { slotId: 's-head', itemId: 'i-hat' },
      { slotId: 's-body', itemId: 'i-coat' },
    ]);
  });

  it('drops entries that change nothing and empties slots for null or ""', () => {
    const current = new Map([
      ['s-head', 'i-hat'],
      ['s-body', 'i-coat'],
    ]);
    expect(
      planAllocation(
        [
          { slotId: 'head', itemId: 'i-hat' },
          { slotId: 'body', itemId: '' },
        ],
        slots,
        items,
        current,
      ),
    ).toEqual([{ slotId: 's-body', itemId: null }]);
    expect(planAllocation([{ slotId: 'head', itemId: null }], slots, new Map(), new Map())).toEqual([]);
  });

  it('refuses an unowned item, an item in the wrong slot, an unknown slot or item, and a repeated slot', () => {
    expect(errorOf(() => planAllocation([{ slotId: 'head', itemId: 'i-crown' }], slots, items, new Map()))).toBe('item_not_owned');
    expect(errorOf(() => planAllocation([{ slotId: 'body', itemId: 'i-hat' }], slots, items, new Map()))).toBe('item_slot_mismatch');
    expect(errorOf(() => planAllocation([{ slotId: 'feet', itemId: null }], slots, items, new Map()))).toBe('slot_not_found');
    expect(errorOf(() => planAllocation([{ slotId: 'head', itemId: 'i-none' }], slots, items, new Map()))).toBe('item_not_found');
    expect(
      errorOf(() =>
        planAllocation(
          [
            { slotId: 'head', itemId: 'i-hat' },
            { slotId: 's-head', itemId: null },
          ],
          slots,
          items,
          new Map(),
        ),
      ),
    ).toBe('duplicate_slot');
  });

  it('fails as a whole when a later entry is bad (no partial plan is returned)', () => {
    expect(
      errorOf(() =>
        planAllocation(
          [
            { slotId: 'head', itemId: 'i-hat' },
            { slotId: 'body', itemId: 'i-hat' },
          ],
          slots,
          items,
          new Map(),
        ),
      ),
    ).toBe('item_slot_mismatch');
  });
});
