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
    return field ? { fields: { [field]: err.message }, form: null } : { fields: {}, form: `${err.error}: ${err.message}` };
  }
  const fields: Record<string, string> = {};
  const rest: string[] = [];
  // Longest names first: `links.0.url` before `links`.
  const byLength = [...named].sort((a, b) => b.length - a.length);
  for (const m of (err.body.detail ?? '').split('; ').filter((x) => x !== '')) {
    const field = byLength.find((f) => m === f || m.startsWith(`${f} `) || m.startsWith(`${f}: `) || m.startsWith(`${f}.`));
    if (field) fields[field] = fields[field] ? `${fields[field]}; ${m}` : m;
    else rest.push(m);
  }
  const missing = named.filter((f) => !fields[f]);
  if (missing.length === 1 && rest.length > 0) fields[missing[0]] = rest.splice(0).join('; ');
  const form = rest.length > 0 ? rest.join('; ') : Object.keys(fields).length === 0 ? `${err.error}: ${err.message}` : null;
  return { fields, form };
}
