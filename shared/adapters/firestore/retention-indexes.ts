// Firestore index and TTL needs of the retention job, in firestore.indexes.json's format. Terraform declares
// them (terraform/modules/firestore); test/unit/terraform/consistency.test.ts checks that it does.

export interface FirestoreIndexSpec {
  collectionGroup: string;
  queryScope: 'COLLECTION' | 'COLLECTION_GROUP';
  fields: { fieldPath: string; order?: 'ASCENDING' | 'DESCENDING'; arrayConfig?: 'CONTAINS' }[];
}

/** anonymizeCandidates: where anonymized_at == null and created_at < X order by created_at, __name__. */
export const RETENTION_FIRESTORE_INDEXES: readonly FirestoreIndexSpec[] = [
  {
    collectionGroup: 'audits',
    queryScope: 'COLLECTION',
    fields: [
      { fieldPath: 'anonymized_at', order: 'ASCENDING' },
      { fieldPath: 'created_at', order: 'ASCENDING' },
    ],
  },
];

/** Timestamp fields with a Firestore TTL policy: documents are deleted some time after the instant they hold. */
export const RETENTION_TTL_FIELDS: readonly { collectionGroup: string; fieldPath: string }[] = [
  // tenants/{t}/jobs/retention: a cursor untouched for 90 days belongs to a tenant that no longer has data.
  { collectionGroup: 'jobs', fieldPath: 'purge_after' },
  // jobs/retention/runs/{run}: run reports are kept 90 days.
  { collectionGroup: 'runs', fieldPath: 'purge_after' },
];
