import type { Page } from '../pagination/pagination.js';
import { answerWithText } from './shared-answer.js';

/** An answer's item and its JSON text. */
export interface KeptItem<T> {
  readonly item: T;
  readonly text: string;
}

/** Items kept per row: one per variant seen (a few: the per-request values take few values). */
const kept = new WeakMap<object, Map<number, KeptItem<object>>>();
/** Variants kept per row before its texts start over (a bound, should a field take many values). */
const VARIANTS_PER_ROW = 16;

/**
 * An answer's item that `build` makes of `row` (a value a read cache holds for every caller, never
 * changed) and a few values of this request (the time's status, the caller's own state), which
 * `variant` must name all of (a small integer the caller makes of them), with its JSON text: kept
 * per row and variant, so a list of cached rows is built and serialized once per variant rather
 * than at every request. The item is frozen: requests share it.
 */
export function keptItem<T extends object>(row: object, variant: number, build: () => T): KeptItem<T> {
  let items = kept.get(row);
  const found = items?.get(variant);
  if (found !== undefined) return found as KeptItem<T>;
  if (!items || items.size >= VARIANTS_PER_ROW) kept.set(row, (items = new Map<number, KeptItem<object>>()));
  const item = Object.freeze(build());
  const made = { item, text: JSON.stringify(item) };
  items.set(variant, made);
  return made;
}

/**
 * `page` answered with the JSON text joined from its items' texts (`keptItem`, in order) and its
 * own fields: text for text what `JSON.stringify(page)` makes (`toPage` puts `items` first).
 */
export function pageOfItemTexts<T>(page: Page<T>, texts: readonly string[]): Page<T> {
  if (texts.length !== page.items.length) throw new Error('pageOfItemTexts: one text per item');
  // The page's fields are integers and a boolean, which JSON writes as String does.
  return answerWithText(
    page,
    `{"items":[${texts.join(',')}],"page":${page.page},"limit":${page.limit},"total":${page.total},"hasNextPage":${page.hasNextPage}}`,
  );
}
