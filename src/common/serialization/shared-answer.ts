import type { Express, Response } from 'express';

/** By source, then by kind of answer: one cached value may make answers of several kinds. */
const answers = new WeakMap<object, Map<string, object>>();
/**
 * Shared answers' texts (null until their first send), keyed by kept answers only: an answer made
 * for one request carries its text itself (`TextAnswer`), since a key that lives for one request
 * makes every scavenge dearer (docs/decisions.md).
 */
const texts = new WeakMap<object, JsonText | null>();

/**
 * A JSON text with its length in UTF-8 bytes, counted once where the text is kept. When the two
 * lengths are equal the text is ASCII, whose UTF-8 bytes are its Latin-1 bytes: it is then written
 * as Latin-1, which Node copies as it is, instead of counting its UTF-8 bytes at every send (and
 * again in `res.end`) and encoding it.
 */
export interface JsonText {
  readonly text: string;
  readonly bytes: number;
}

/** `text` with its UTF-8 length: for a text that is kept and sent many times. */
export function jsonText(text: string): JsonText {
  return { text, bytes: Buffer.byteLength(text, 'utf8') };
}

/**
 * The answer of `kind` built from `source`, a value a read cache holds for every caller and nobody
 * changes: built once per source and kind (while the cache keeps the source) and serialized once
 * (`serveJsonAnswers`), not at every request. `build` must depend on `source` and on what `fits`
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
 * An answer that carries the JSON text `res.json` sends for it, made by the caller as
 * `JSON.stringify` would make it from the answer's own fields (`pageOfKeptItems`: a page joined
 * from its items' kept texts), for one request. The text is a private field: `JSON.stringify` and
 * equality checks see only the answer's fields, and no table keyed by objects that live for one
 * request grows between collections (V8 walks a WeakMap's young keys at every scavenge).
 * `text.bytes` must be the text's UTF-8 length (`jsonText`, or the sum of such lengths): it
 * decides how the text is written.
 */
export class TextAnswer {
  readonly #text: JsonText;

  protected constructor(text: JsonText) {
    this.#text = text;
  }

  /** The text `body` carries, if it is a TextAnswer. */
  static textOf(body: object): JsonText | undefined {
    return #text in body ? body.#text : undefined;
  }
}

/**
 * `res.json` that sends a shared answer's JSON text made at its first send, and any other body's
 * `JSON.stringify` text. Text for text, the same as Express's own `res.json` with its default
 * settings (no replacer, spaces or escaping), which is what this app uses. The common answer (no
 * conditional request, no type or framing of the handler's own, a status with a body) is written
 * with `res.end` directly: Express's `res.send` would copy a body over 1,000 characters into a
 * Buffer to count it, and parse and format the content type it has just set.
 */
export function serveJsonAnswers(app: Express): void {
  const response = app.response as Response & { json: (body: unknown) => Response };
  const json = response.json;
  response.json = function (this: Response, body: unknown): Response {
    if (typeof body !== 'object' || body === null) return json.call(this, body);
    let kept = TextAnswer.textOf(body) ?? texts.get(body);
    if (kept === null) {
      // undefined for a body whose toJSON gives undefined: Express's own res.json sends nothing then.
      const text: string | undefined = JSON.stringify(body);
      if (text === undefined) return json.call(this, body);
      texts.set(body, (kept = jsonText(text)));
    }
    const text: string | undefined = kept !== undefined ? kept.text : JSON.stringify(body);
    if (text === undefined) return json.call(this, body);
    if (!plainAnswer(this)) {
      if (!this.get('Content-Type')) this.set('Content-Type', 'application/json');
      return this.send(text);
    }
    // A kept ASCII text goes as it is (its length is its byte count); any other body is encoded once.
    const out = kept !== undefined && kept.bytes === text.length ? text : Buffer.from(text, 'utf8');
    this.setHeader('Content-Type', JSON_TYPE);
    this.setHeader('Content-Length', String(out.length));
    if (this.req.method === 'HEAD') this.end();
    else if (typeof out === 'string') this.end(out, 'latin1');
    else this.end(out);
    return this;
  };
}

/** What Express sets for `application/json` (`mime.contentType`, then `setCharset`). */
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * An answer Express's `res.send` would send as it is, with no header it alone handles: no
 * freshness check to make (`If-None-Match`, `If-Modified-Since`), no status without a body, no
 * content type or transfer encoding the handler set.
 */
function plainAnswer(res: Response): boolean {
  const h = res.req.headers;
  const status = res.statusCode;
  return (
    h['if-none-match'] === undefined &&
    h['if-modified-since'] === undefined &&
    status !== 204 &&
    status !== 205 &&
    status !== 304 &&
    !res.hasHeader('Content-Type') &&
    !res.hasHeader('Transfer-Encoding')
  );
}
