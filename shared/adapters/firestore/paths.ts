import type { Firestore } from '@google-cloud/firestore';

// Tenant scope is structural: every path starts at tenants/{tenantId}.
export const tenantDoc = (db: Firestore, tenantId: string) => db.collection('tenants').doc(tenantId);
export const auditsCol = (db: Firestore, tenantId: string) => tenantDoc(db, tenantId).collection('audits');
export const auditDoc = (db: Firestore, tenantId: string, auditId: string) => auditsCol(db, tenantId).doc(auditId);
export const eventsCol = (db: Firestore, tenantId: string, auditId: string) => auditDoc(db, tenantId, auditId).collection('events');
