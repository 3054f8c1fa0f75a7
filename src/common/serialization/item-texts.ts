import { type Page, type PageRequest, toPage } from '../pagination/pagination.js';
import { jsonText, type JsonText, TextAnswer } from './shared-answer.js';

/** An answer's item as kept for a cached row and variant: the item (frozen) and its JSON text. */
export interface KeptItem<I extends object> {
  readonly item: I;
  readonly text: JsonText;
}

/** Items kept per row: one per variant seen (a few: the per-request values take few values). */
const kept = new WeakMap<object, Map<number, KeptItem<object>>>();
/** Variants kept per row before its items start over (a bound, should a field take many values). */
const VARIANTS_PER_ROW = 16;

/**
 * The item that `build` makes of `row` (a value a read cache holds for every caller, never
 * changed) and a few values of this request (the time's status, the caller's own state), which
 * `variant` must name all of (a small integer the caller makes of them), with its JSON text: both
 * kept per row and variant, so a list of cached rows builds and serializes each item once per
 * variant rather than at every request. The item is frozen: every caller of the variant gets it.
 */
export function keptItem<I extends object>(row: object, variant: number, build: () => I): KeptItem<I> {
  let items = kept.get(row);
  const found = items?.get(variant);
  if (found !== undefined) return found as KeptItem<I>;
  if (!items || items.size >= VARIANTS_PER_ROW) kept.set(row, (items = new Map<number, KeptItem<object>>()));
  const item = Object.freeze(build());
  const made = { item, text: jsonText(JSON.stringify(item)) };
  items.set(variant, made);
  return made;
}

/** An item that is not kept (a variant outside the caller's numbering), in the same form. */
export const unkeptItem = <I extends object>(item: I): KeptItem<I> => ({ item, text: jsonText(JSON.stringify(item)) });

/**
 * The page of `items` (`keptItem`, in order) answered with the JSON text joined from their texts
 * and the page's own fields: text for text what `JSON.stringify` makes of the page (its fields in
 * `toPage`'s order, `items` first).
 */
export function pageOfKeptItems<I extends object>(items: readonly KeptItem<I>[], total: number, request: PageRequest): Page<I> {
  const page = toPage(
    items.map((k) => k.item),
    total,
    request,
  );
  // The page's own text is ASCII (its fields are integers and a boolean, which JSON writes as
  // String does): its bytes are its characters.
  const tail = `],"page":${page.page},"limit":${page.limit},"total":${page.total},"hasNextPage":${page.hasNextPage}}`;
  let bytes = HEAD.length + tail.length + Math.max(0, items.length - 1);
  const parts = new Array<string>(items.length);
  for (let i = 0; i < items.length; i++) {
    parts[i] = items[i].text.text;
    bytes += items[i].text.bytes;
  }
  return new PageWithText(page, { text: `${HEAD}${parts.join(',')}${tail}`, bytes });
}

/** A page that carries its JSON text (`TextAnswer`); its fields are `toPage`'s, in its order. */
class PageWithText<I> extends TextAnswer implements Page<I> {
  readonly items: I[];
  readonly page: number;
  readonly limit: number;
  readonly total: number;
  readonly hasNextPage: boolean;

  constructor(page: Page<I>, text: JsonText) {
    super(text);
    this.items = page.items;
    this.page = page.page;
    this.limit = page.limit;
    this.total = page.total;
    this.hasNextPage = page.hasNextPage;
  }
}

const HEAD = '{"items":[';
