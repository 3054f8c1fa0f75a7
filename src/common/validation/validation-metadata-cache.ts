import { getMetadataStorage } from 'class-validator';

type Storage = ReturnType<typeof getMetadataStorage>;
type ValidationMetadata = ReturnType<Storage['getTargetValidationMetadatas']>[number];
type Lookup = Storage['getTargetValidationMetadatas'];
type Grouped = Record<string, ValidationMetadata[]>;

const INSTALLED = Symbol.for('cgs.validationMetadataCache');

/**
 * Memoizes class-validator's metadata lookup. On every `validate` of every (nested) object,
 * `MetadataStorage.getTargetValidationMetadatas` filters the class's rules and walks every
 * decorated class of the process to find its ancestors, and `groupByPropertyName` regroups the
 * result: the same answer each time once the classes are loaded (docs/performance.md, "Every
 * request: the pipeline"). Answers are kept per class and options and forgotten whenever a rule is
 * added, so a class decorated later is never validated with stale rules. The callers only read
 * both results (class-validator 0.15's ValidationExecutor), so sharing them is safe.
 */
export function memoizeValidationMetadata(storage: Storage = getMetadataStorage()): void {
  const s = storage as Storage & { [INSTALLED]?: true };
  if (s[INSTALLED]) return;
  s[INSTALLED] = true;
  const lookup: Lookup = s.getTargetValidationMetadatas.bind(s);
  const group = s.groupByPropertyName.bind(s);
  const add = s.addValidationMetadata.bind(s);
  let lookups = new WeakMap<object, Map<string, ValidationMetadata[]>>();
  let groups = new WeakMap<ValidationMetadata[], Grouped>();

  s.getTargetValidationMetadatas = (target, schema, always, strictGroups, names) => {
    const key = `${schema}\u0000${always}\u0000${strictGroups}\u0000${names?.join('\u0001') ?? '\u0002'}`;
    let perTarget = lookups.get(target);
    if (!perTarget) lookups.set(target, (perTarget = new Map<string, ValidationMetadata[]>()));
    let found = perTarget.get(key);
    if (!found) perTarget.set(key, (found = lookup(target, schema, always, strictGroups, names)));
    return found;
  };
  s.groupByPropertyName = (metadata) => {
    let grouped = groups.get(metadata);
    if (!grouped) groups.set(metadata, (grouped = group(metadata)));
    return grouped;
  };
  s.addValidationMetadata = (metadata) => {
    lookups = new WeakMap();
    groups = new WeakMap();
    add(metadata);
  };
}
