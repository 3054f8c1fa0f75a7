import type { Page } from '../pagination/pagination.js';
import { answerWithText, jsonText, type JsonText } from './shared-answer.js';

/** Texts kept per row: one per variant seen (a few: the per-request values take few values). */
const kept = new WeakMap<object, Map<number, JsonText>>();
/** Variants kept per row before its texts start over (a bound, should a field take many values). */
const VARIANTS_PER_ROW = 16;

/**
 * The JSON text of `item`, an answer's item built from `row` (a value a read cache holds for every
 * caller, never changed) and a few values of this request (the time's status, the caller's own
 * state), which `variant` must name all of (a small integer the caller makes of them): kept per
 * row and variant, so a list of cached rows is serialized once per variant rather than at every
 * request.
 */
export function itemText(row: object, variant: number, item: object): JsonText {
  let texts = kept.get(row);
  const text = texts?.get(variant);
  if (text !== undefined) return text;
  if (!texts || texts.size >= VARIANTS_PER_ROW) kept.set(row, (texts = new Map<number, JsonText>()));
  const made = jsonText(JSON.stringify(item));
  texts.set(variant, made);
  return made;
}

/**
 * `page` answered with the JSON text joined from its items' texts (`itemText`, in order) and its
 * own fields: text for text what `JSON.stringify(page)` makes (`toPage` puts `items` first).
 */
export function pageOfItemTexts<T>(page: Page<T>, texts: readonly JsonText[]): Page<T> {
  if (texts.length !== page.items.length) throw new Error('pageOfItemTexts: one text per item');
  // The page's own text is ASCII (its fields are integers and a boolean, which JSON writes as
  // String does): its bytes are its characters.
  const tail = `],"page":${page.page},"limit":${page.limit},"total":${page.total},"hasNextPage":${page.hasNextPage}}`;
  let bytes = HEAD.length + tail.length + Math.max(0, texts.length - 1);
  const parts = new Array<string>(texts.length);
  for (let i = 0; i < texts.length; i++) {
    parts[i] = texts[i].text;
    bytes += texts[i].bytes;
  }
  return answerWithText(page, { text: `${HEAD}${parts.join(',')}${tail}`, bytes });
}

const HEAD = '{"items":[';
