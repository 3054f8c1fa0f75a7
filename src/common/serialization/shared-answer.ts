import type { Express, Response } from 'express';

/** By source, then by kind of answer: one cached value may make answers of several kinds. */
const answers = new WeakMap<object, Map<string, object>>();
const texts = new WeakMap<object, string | null>();

/**
 * The answer of `kind` built from `source`, a value a read cache holds for every caller and nobody
 * changes: built once per source and kind (while the cache keeps the source) and serialized once
 * (`serveSharedAnswers`), not at every request. `build` must depend on `source` and on what `fits`
 * checks alone; a kept answer that does not fit the request (another page number for the same
 * rows, say) is built anew. The answer is frozen: a handler that tried to change it would change
 * every caller's answer.
 */
export function sharedAnswer<S extends object, A extends object>(
  source: S,
  kind: string,
  build: (source: S) => A,
  fits: (answer: A) => boolean,
): A {
  let byKind = answers.get(source);
  const kept = byKind?.get(kind) as A | undefined;
  if (kept !== undefined && fits(kept)) return kept;
  const answer = Object.freeze(build(source));
  if (!byKind) answers.set(source, (byKind = new Map<string, object>()));
  byKind.set(kind, answer);
  texts.set(answer, null);
  return answer;
}

/**
 * `answer`, sent by `res.json` as `text`, made by the caller as `JSON.stringify(answer)` would
 * make it (`pageOfItemTexts`: a page joined from its items' kept texts). For one request only.
 */
export function answerWithText<A extends object>(answer: A, text: string): A {
  texts.set(answer, text);
  return answer;
}

/**
 * `res.json` that sends a shared answer's JSON text made at its first send. Text for text, the
 * same as Express's own `res.json` with its default settings (no replacer, spaces or escaping),
 * which is what this app uses.
 */
export function serveSharedAnswers(app: Express): void {
  const response = app.response as Response & { json: (body: unknown) => Response };
  const json = response.json;
  response.json = function (this: Response, body: unknown): Response {
    if (typeof body !== 'object' || body === null) return json.call(this, body);
    let text = texts.get(body);
    if (text === undefined) return json.call(this, body);
    if (text === null) texts.set(body, (text = JSON.stringify(body)));
    if (!this.get('Content-Type')) this.set('Content-Type', 'application/json');
    return this.send(text);
  };
}
