// Composition for the council functions, the aggregate job and the CLI: warehouse and council store from config.
import { BigQuery } from '@google-cloud/bigquery';
import { BigQueryWarehouse, type BigQueryClientLike } from '../adapters/bigquery/warehouse';
import { DuckDbWarehouse } from '../adapters/duckdb/warehouse';
import { FirestoreCouncilStore } from '../adapters/firestore/council-store';
import { firestoreFor } from '../adapters/firestore/client';
import { PubSubEventBus, pubsubFor } from '../adapters/pubsub/event-bus';
import type { Config } from '../config';
import { createLogger, type Logger } from '../logging';
import { systemClock, type Clock } from '../ports/clock';
import type { CouncilStore } from '../ports/council-store';
import type { EventBus } from '../ports/event-bus';
import type { MetricWarehouse } from '../ports/warehouse';

export function createWarehouse(config: Config): MetricWarehouse {
  if (config.WAREHOUSE === 'bigquery') {
    const client = new BigQuery({ projectId: config.GCLOUD_PROJECT, location: config.BIGQUERY_LOCATION });
    return new BigQueryWarehouse(client as unknown as BigQueryClientLike, config.BIGQUERY_DATASET, { location: config.BIGQUERY_LOCATION });
  }
  return new DuckDbWarehouse(config.DUCKDB_PATH);
}

export interface CouncilDeps {
  config: Config;
  log: Logger;
  clock: Clock;
  bus: EventBus;
  councilStore: CouncilStore;
  warehouse: MetricWarehouse;
}

export function createCouncilDeps(config: Config, component: string): CouncilDeps {
  const db = firestoreFor(config);
  return {
    config,
    log: createLogger({ projectId: config.GCLOUD_PROJECT, level: config.LOG_LEVEL, component }),
    clock: systemClock,
    bus: new PubSubEventBus(pubsubFor(config)),
    councilStore: new FirestoreCouncilStore(db),
    warehouse: createWarehouse(config),
  };
}
