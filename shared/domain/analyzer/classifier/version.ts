// Written by scripts/train.ts: the weights version the code expects (checked at load and by a unit test).
export const CLASSIFIER_VERSION = 'lr-hashed-ce643c9b6a4d';
