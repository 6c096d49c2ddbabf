// CLI configuration: the process environment, with the local stack's defaults and dev secrets filled in.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig, type Config } from '../shared/config';
import { REPO_ROOT } from '../scripts/lib/emulators';

export function cliConfig(): Config {
  const secretsFile = join(REPO_ROOT, '.cache', 'dev-secrets.json');
  const devSecrets = existsSync(secretsFile) ? (JSON.parse(readFileSync(secretsFile, 'utf8')) as Record<string, string>) : {};
  return loadConfig({
    FIRESTORE_EMULATOR_HOST: '127.0.0.1:8180',
    PUBSUB_EMULATOR_HOST: '127.0.0.1:8185',
    GCLOUD_PROJECT: 'demo-bias-monitor',
    ...devSecrets,
    ...process.env,
  });
}
