export * from './position';
export * from './scores';
export * from './session-audit';
export * from './records';
export * from './window';
export * from './report';
