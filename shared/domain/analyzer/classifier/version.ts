// Written by scripts/train.ts: the weights version the code expects (checked at load and by a unit test).
export const CLASSIFIER_VERSION = 'lr-hashed-17e9ccb67178';
