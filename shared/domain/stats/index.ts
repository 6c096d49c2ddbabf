export * from './special';
export * from './moments';
export * from './correlation';
export * from './bootstrap';
export * from './cluster';
