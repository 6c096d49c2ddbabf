export * from './policy';
export * from './anonymize';
export * from './rollup';
