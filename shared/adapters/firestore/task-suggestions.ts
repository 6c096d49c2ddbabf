// Task-suggestion storage: one signal document per (audit, bias type), counted with an aggregation query over a
// time window, and suggestions created with create() so concurrent reviewers produce exactly one.
import type { Firestore } from '@google-cloud/firestore';
import type { TaskSignal, TaskSuggestion, TaskSuggestionStore } from '../../ports/task-suggestions';
import { GRPC_ALREADY_EXISTS, grpcCode } from './client';
import type { QueryShape } from './index-coverage';
import { tenantDoc } from './paths';

export const signalsCol = (db: Firestore, tenantId: string) => tenantDoc(db, tenantId).collection('task_signals');
export const suggestionsCol = (db: Firestore, tenantId: string) => tenantDoc(db, tenantId).collection('task_suggestions');

/** Query shapes this adapter issues (checked against firestore.indexes.json). */
export const taskSuggestionQueryShapes = (): QueryShape[] => [
  { collectionGroup: 'task_signals', equalities: ['bias_type', 'domain'], order: [{ fieldPath: 'at', order: 'ASCENDING' }], hasRange: true },
  { collectionGroup: 'task_suggestions', equalities: [], order: [{ fieldPath: 'created_at', order: 'DESCENDING' }], hasRange: false },
];

const docId = (s: string) => s.replace(/[^A-Za-z0-9_.:@-]/g, '_').slice(0, 300);

export class FirestoreTaskSuggestionStore implements TaskSuggestionStore {
  constructor(private readonly db: Firestore) {}

  async recordSignal(tenantId: string, s: TaskSignal): Promise<boolean> {
    try {
      await signalsCol(this.db, tenantId)
        .doc(docId(`${s.auditId}:${s.biasType}`))
        .create({ audit_id: s.auditId, bias_type: s.biasType, domain: s.domain, kind: s.kind, at: s.at });
      return true;
    } catch (e) {
      if (grpcCode(e) === GRPC_ALREADY_EXISTS) return false;
      throw e;
    }
  }

  async countSignals(tenantId: string, biasType: string, domain: string, from: string, to: string): Promise<number> {
    const snap = await signalsCol(this.db, tenantId)
      .where('bias_type', '==', biasType)
      .where('domain', '==', domain)
      .where('at', '>=', from)
      .where('at', '<', to)
      .count()
      .get();
    return snap.data().count;
  }

  async createSuggestion(tenantId: string, suggestion: TaskSuggestion) {
    const ref = suggestionsCol(this.db, tenantId).doc(docId(suggestion.id));
    try {
      await ref.create(suggestion);
      return { created: true, suggestion };
    } catch (e) {
      if (grpcCode(e) !== GRPC_ALREADY_EXISTS) throw e;
      const existing = await ref.get();
      return { created: false, suggestion: existing.data() as TaskSuggestion };
    }
  }

  async markPublished(tenantId: string, id: string, at: string) {
    await suggestionsCol(this.db, tenantId).doc(docId(id)).update({ published_at: at });
  }

  async list(tenantId: string, limit: number) {
    const snap = await suggestionsCol(this.db, tenantId).orderBy('created_at', 'desc').limit(limit).get();
    return snap.docs.map((d) => d.data() as TaskSuggestion);
  }
}
