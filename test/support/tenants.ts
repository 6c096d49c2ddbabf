import { randomBytes } from 'node:crypto';

/** Each test works in its own tenant, so files can run in parallel against one emulator without clearing it. */
export const uniqueTenant = (prefix = 't') => `${prefix}-${randomBytes(6).toString('hex')}`;
