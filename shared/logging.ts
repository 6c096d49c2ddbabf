// Structured JSON logs in Cloud Logging's format. Callers pass identifiers and counts, never prompt or response text.
export type Severity = 'DEBUG' | 'INFO' | 'WARNING' | 'ERROR';
const ORDER: Record<Severity, number> = { DEBUG: 0, INFO: 1, WARNING: 2, ERROR: 3 };

export interface LogFields {
  traceId?: string;
  [key: string]: unknown;
}

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

export function createLogger(
  opts: { projectId: string; level?: Severity; component: string; write?: (line: string) => void },
  base: LogFields = {},
): Logger {
  const min = ORDER[opts.level ?? 'INFO'];
  const write = opts.write ?? ((line: string) => process.stdout.write(line + '\n'));
  const emit = (severity: Severity, message: string, fields: LogFields = {}) => {
    if (ORDER[severity] < min) return;
    const { traceId, ...rest } = { ...base, ...fields };
    const entry: Record<string, unknown> = { severity, message, time: new Date().toISOString(), component: opts.component, ...rest };
    if (traceId) entry['logging.googleapis.com/trace'] = `projects/${opts.projectId}/traces/${traceId}`;
    write(JSON.stringify(entry, (_k, v) => (v instanceof Error ? { name: v.name, message: v.message } : v)));
  };
  return {
    debug: (m, f) => emit('DEBUG', m, f),
    info: (m, f) => emit('INFO', m, f),
    warn: (m, f) => emit('WARNING', m, f),
    error: (m, f) => emit('ERROR', m, f),
    child: (fields) => createLogger(opts, { ...base, ...fields }),
  };
}
