// Pure check that a Firestore query shape is served by declared indexes (the emulator enforces none, production
// rejects the query with FAILED_PRECONDITION). Rules, conservative on purpose:
//  - no equality filter and at most one ordered field, or one equality filter and no order: built-in single-field index;
//  - otherwise a composite index whose leading fields are exactly the equality fields (any order; array-contains as
//    arrayConfig CONTAINS) followed by the ordered fields with their directions;
//  - or, for queries with only equality / array-contains filters and no range, index merging: every equality field
//    is the prefix of some index whose remaining fields are exactly the query's order.
// A trailing `__name__` in the direction of the last ordered field is implicit in every index.

export interface IndexField {
  fieldPath: string;
  order?: 'ASCENDING' | 'DESCENDING';
  arrayConfig?: 'CONTAINS';
}
export interface CompositeIndex {
  collectionGroup: string;
  queryScope: 'COLLECTION' | 'COLLECTION_GROUP';
  fields: IndexField[];
}
export interface IndexFile {
  indexes: CompositeIndex[];
  fieldOverrides: unknown[];
}

export interface QueryShape {
  collectionGroup: string;
  /** Equality fields; `field:CONTAINS` for array-contains. */
  equalities: string[];
  /** Ordered fields, including range-filtered ones, in query order (tie-break on __name__ is implicit). */
  order: { fieldPath: string; order: 'ASCENDING' | 'DESCENDING' }[];
  hasRange: boolean;
  queryScope?: 'COLLECTION' | 'COLLECTION_GROUP';
}

const eqToken = (f: IndexField) => (f.arrayConfig === 'CONTAINS' ? `${f.fieldPath}:CONTAINS` : f.fieldPath);
const orderToken = (f: { fieldPath: string; order?: string }) => `${f.fieldPath}:${f.order ?? '?'}`;

function normalise(index: CompositeIndex): IndexField[] {
  const fields = [...index.fields];
  const last = fields.at(-1);
  const before = fields.at(-2);
  if (last?.fieldPath === '__name__' && before && last.order === before.order) fields.pop();
  return fields;
}

function exact(shape: QueryShape, fields: IndexField[]): boolean {
  const n = shape.equalities.length;
  if (fields.length !== n + shape.order.length) return false;
  const prefix = fields.slice(0, n);
  if (prefix.some((f) => f.order === undefined && f.arrayConfig === undefined)) return false;
  const wanted = new Set(shape.equalities);
  if (new Set(prefix.map(eqToken)).size !== n || !prefix.every((f) => wanted.has(eqToken(f)))) return false;
  return fields.slice(n).every((f, i) => f.arrayConfig === undefined && orderToken(f) === orderToken(shape.order[i]!));
}

export function isServed(shape: QueryShape, indexes: readonly CompositeIndex[]): boolean {
  const scope = shape.queryScope ?? 'COLLECTION';
  if (shape.equalities.length === 0 && shape.order.length <= 1) return true;
  if (shape.equalities.length === 1 && shape.order.length === 0) return true;
  const candidates = indexes.filter((i) => i.collectionGroup === shape.collectionGroup && i.queryScope === scope).map(normalise);
  if (candidates.some((fields) => exact(shape, fields))) return true;
  if (shape.hasRange || shape.equalities.length < 2) return false;
  const orderKey = shape.order.map(orderToken).join(',');
  const covered = new Set<string>();
  for (const fields of candidates) {
    const suffix = fields.slice(fields.length - shape.order.length);
    const prefix = fields.slice(0, fields.length - shape.order.length);
    if (prefix.length === 0 || suffix.some((f) => f.arrayConfig) || suffix.map(orderToken).join(',') !== orderKey) continue;
    const tokens = prefix.map(eqToken);
    if (tokens.every((t) => shape.equalities.includes(t))) tokens.forEach((t) => covered.add(t));
  }
  return shape.equalities.every((e) => covered.has(e));
}

export const describeShape = (s: QueryShape) =>
  `${s.collectionGroup}: where ${s.equalities.join(', ') || '(none)'}${s.hasRange ? ' + range' : ''} order by ${s.order.map(orderToken).join(', ') || '(none)'}`;
