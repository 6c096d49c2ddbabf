import { Firestore } from '@google-cloud/firestore';
import type { Config } from '../../config';

let shared: Firestore | undefined;

/** One client per process; the emulator is used when FIRESTORE_EMULATOR_HOST is set. */
export function firestoreFor(config: Config): Firestore {
  shared ??= new Firestore({ projectId: config.GCLOUD_PROJECT, ignoreUndefinedProperties: true, preferRest: false });
  return shared;
}

export const GRPC_ALREADY_EXISTS = 6;
export const GRPC_NOT_FOUND = 5;
export const grpcCode = (e: unknown) => (e as { code?: unknown })?.code;
