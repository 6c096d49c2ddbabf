// Typed errors with stable codes. Each transport has exactly one mapper (shared/transport/*, the GraphQL error plugin).
export type ErrorCode =
  | 'VALIDATION_FAILED'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'BIAS_ANALYSIS_FAILED'
  | 'TRANSIENT';

export interface FieldIssue {
  path: string;
  message: string;
}

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly issues: FieldIssue[] = [],
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'AppError';
  }
}

export const validationFailed = (issues: FieldIssue[], message?: string) =>
  new AppError('VALIDATION_FAILED', message ?? issues.map((i) => `${i.path || '(body)'}: ${i.message}`).join('; '), issues);
export const unauthenticated = (message = 'a valid bearer token is required') => new AppError('UNAUTHENTICATED', message);
export const forbidden = (message: string) => new AppError('FORBIDDEN', message);
export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} not found`);
export const conflict = (message: string) => new AppError('CONFLICT', message);
export const transient = (message: string, cause?: unknown) => new AppError('TRANSIENT', message, [], { cause });
export const analysisFailed = (message: string, cause?: unknown) =>
  new AppError('BIAS_ANALYSIS_FAILED', message, [], { cause });

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;
