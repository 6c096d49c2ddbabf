import { Firestore } from '@google-cloud/firestore';
import { DEFAULT_TAXONOMY } from '../../shared/domain/taxonomy';

/** Seeds the bias taxonomy without overwriting entries an admin changed. */
export async function seedTaxonomy(projectId: string): Promise<number> {
  const db = new Firestore({ projectId });
  let created = 0;
  await Promise.all(
    DEFAULT_TAXONOMY.map((entry) =>
      db
        .collection('bias_taxonomy')
        .doc(entry.bias_key)
        .create({ ...entry, updated_at: new Date(0).toISOString(), updated_by: 'seed' })
        .then(() => void created++)
        .catch((e: { code?: number }) => {
          if (e.code !== 6) throw e;
        }),
    ),
  );
  await db.terminate();
  return created;
}
