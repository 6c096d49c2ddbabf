// Composition for the retention job: used by functions/retention and `bias-monitor jobs run retention`.
import { BigQuery } from '@google-cloud/bigquery';
import { BigQueryRollupSink } from '../adapters/bigquery-rollup/rollup-sink';
import { DuckDbRollupSink } from '../adapters/duckdb-rollup/rollup-sink';
import { firestoreFor } from '../adapters/firestore/client';
import { FirestoreRetentionStore } from '../adapters/firestore/retention-store';
import type { Config } from '../config';
import type { RollupSink } from '../ports/rollup-sink';
import type { AppContext } from './context';
import type { RetentionDeps } from './retention';

export function rollupSinkFor(config: Config): RollupSink {
  return config.WAREHOUSE === 'bigquery'
    ? new BigQueryRollupSink(new BigQuery({ projectId: config.GCLOUD_PROJECT, location: config.BIGQUERY_LOCATION }), config.BIGQUERY_DATASET, config.BIGQUERY_LOCATION)
    : new DuckDbRollupSink(config.DUCKDB_PATH);
}

export function createRetentionDeps(ctx: Pick<AppContext, 'config' | 'log' | 'clock' | 'store'>): RetentionDeps {
  return {
    store: ctx.store,
    retention: new FirestoreRetentionStore(firestoreFor(ctx.config)),
    rollups: rollupSinkFor(ctx.config),
    clock: ctx.clock,
    log: ctx.log,
    hmacSecret: ctx.config.HMAC_SECRET,
  };
}
