// Local-only secrets, generated once per checkout into .cache/ (ignored by git). Production reads Secret Manager.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './emulators';

export interface DevSecrets {
  AUTH_HS256_SECRET: string;
  HMAC_SECRET: string;
}

export function devSecrets(): DevSecrets {
  const file = join(REPO_ROOT, '.cache', 'dev-secrets.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as DevSecrets;
  mkdirSync(join(REPO_ROOT, '.cache'), { recursive: true });
  const secrets: DevSecrets = {
    AUTH_HS256_SECRET: randomBytes(32).toString('base64url'),
    HMAC_SECRET: randomBytes(32).toString('base64url'),
  };
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}
