// Written by scripts/train.ts: the weights version the code expects (checked at load and by a unit test).
export const CLASSIFIER_VERSION = 'lr-hashed-5c3c317910fe';
