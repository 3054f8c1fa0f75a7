/**
 * The service's error body (`code`, `message`, `error`, `detail`, `details.fields` for validation
 * failures) turned into what a form shows: a message next to each field the API named, the rest
 * above the form.
 */
export interface ErrorBody {
  code?: number;
  message?: string;
  error?: string;
  detail?: string;
  details?: { fields?: unknown };
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
  ) {
    super(body.detail || body.error || body.message || `HTTP ${status}`);
  }
  get error(): string {
    return this.body.error ?? this.body.message ?? String(this.status);
  }
}

export interface FormErrors {
  /** Messages by field name (the API's names: `slug`, `registrationEndsAt`, `links.0.url`). */
  fields: Record<string, string>;
  /** What no field shows: the case (`error`) and its sentence (`detail`). */
  form: string | null;
}

/**
 * Validation failures list their fields in `details.fields` and their messages, `; `-separated,
 * in `detail`, each starting with its field's name (class-validator's wording). Other errors name
 * no field; when their case names one of the form's fields (`community_slug_taken` → `slug`) the
 * sentence goes there, otherwise above the form with the case (`error`) to look up in the catalogue.
 */
export function formErrors(err: unknown, formFields: readonly string[] = []): FormErrors {
  if (!(err instanceof ApiError)) return { fields: {}, form: err instanceof Error ? err.message : String(err) };
  const named = Array.isArray(err.body.details?.fields) ? err.body.details.fields.filter((f): f is string => typeof f === 'string') : [];
  if (named.length === 0) {
    const words = err.error.split('_');
    const field = formFields.find((f) => words.includes(f.toLowerCase()));
    return field ? { fields: { [field]: err.message }, form: null } : { fields: {}, form: sentence(err) };
  }
  const fields: Record<string, string> = {};
  const rest: string[] = [];
  // Longest names first: `links.0.url` before `links`.
  const byLength = [...named].sort((a, b) => b.length - a.length);
  for (const m of (err.body.detail ?? '').split('; ').filter((x) => x !== '')) {
    const field = byLength.find((f) => m === f || m.startsWith(`${f} `) || m.startsWith(`${f}: `) || m.startsWith(`${f}.`));
    if (field) fields[field] = fields[field] ? `${fields[field]} ${operatorWords(field, m)}` : operatorWords(field, m);
    else rest.push(m);
  }
  const missing = named.filter((f) => !fields[f]);
  if (missing.length === 1 && rest.length > 0) fields[missing[0]] = rest.splice(0).join('; ');
  const form = rest.length > 0 ? rest.join('; ') : Object.keys(fields).length === 0 ? sentence(err) : null;
  return { fields, form };
}

/** What a form shows above its buttons: the service's sentence, the case in brackets to look up. */
const sentence = (err: ApiError): string => (err.body.detail ? `${err.body.detail} (${err.error})` : err.error);

/**
 * class-validator's messages (`registrationStartsAt must be a Date instance`) in the words an
 * operator reads next to the field: the field's name is its label already, so it goes.
 */
const RULES: [RegExp, (m: RegExpExecArray) => string][] = [
  [/ must be a Date instance$| must be a valid ISO 8601 date string$/, () => 'Enter a date and time.'],
  [/ must be a UUID$/, () => 'Choose one from the list.'],
  [/ must be an integer number$/, () => 'Enter a whole number.'],
  [/ must be a number conforming to the specified constraints$| must be a number$/, () => 'Enter a number.'],
  [/ must not be less than (\S+)$/, (m) => `At least ${m[1]}.`],
  [/ must not be greater than (\S+)$/, (m) => `At most ${m[1]}.`],
  [/ must be longer than or equal to (\d+) characters$/, (m) => `At least ${m[1]} characters.`],
  [/ must be shorter than or equal to (\d+) characters$/, (m) => `At most ${m[1]} characters.`],
  [/ should not be empty$| must be a string$/, () => 'Required.'],
  [/ must be one of the following values: (.+)$/, (m) => `Choose one of: ${m[1]}.`],
  [/ must be a URL address$/, () => 'Enter a web address (https://…).'],
  [/ must be an email$/, () => 'Enter an email address.'],
  [/ must be a boolean value$/, () => 'Tick it or leave it.'],
  [/ must match .+ regular expression$/, () => 'Has characters that are not allowed here.'],
];

export function operatorWords(field: string, message: string): string {
  for (const [pattern, say] of RULES) {
    const m = pattern.exec(message);
    if (m && message.startsWith(field)) return say(m);
  }
  const rest = message.startsWith(`${field} `)
    ? message.slice(field.length + 1)
    : message.startsWith(`${field}: `)
      ? message.slice(field.length + 2)
      : message;
  const text = rest.charAt(0).toUpperCase() + rest.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
