import { Role, mintDevToken } from '../../shared/auth/tokens';
import { devSecrets } from '../../scripts/lib/dev-secrets';
import { parseOptions } from '../args';
import { cliConfig } from '../env';

export const summary = 'mint a local HS256 bearer token (development only)';
export const usage = `bias-monitor token --tenant T [--role viewer|reviewer|admin|service] [--subject S] [--expires 12h]

Signs with AUTH_HS256_SECRET (the local stack's .cache/dev-secrets.json unless set). Production verifies RS256
tokens from your identity provider instead.`;

export async function run(args: string[]): Promise<number> {
  const o = parseOptions(args, { tenant: { type: 'string' }, role: { type: 'string', default: 'reviewer' }, subject: { type: 'string' }, expires: { type: 'string', default: '12h' } }, usage);
  if (!o.tenant) {
    console.error(`--tenant is required\n\n${usage}`);
    return 2;
  }
  const role = Role.safeParse(o.role);
  if (!role.success) {
    console.error(`--role must be one of ${Role.options.join(', ')}`);
    return 2;
  }
  devSecrets();
  const token = await mintDevToken(cliConfig(), { tenantId: o.tenant, role: role.data, expiresIn: o.expires, ...(o.subject ? { subject: o.subject } : {}) });
  console.log(token);
  return 0;
}
