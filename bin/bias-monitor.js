#!/usr/bin/env node
// The CLI ships as TypeScript and runs through tsx, like the local stack.
import { register } from 'tsx/esm/api';

register();
await import('../cli/main.ts');
