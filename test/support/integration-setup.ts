// Integration tests talk to real emulators; refuse to run against anything else.
if (!process.env.FIRESTORE_EMULATOR_HOST || !process.env.PUBSUB_EMULATOR_HOST) {
  throw new Error('integration tests need the emulators: run `npm run test:integration`');
}
process.env.GCLOUD_PROJECT ??= 'demo-bias-monitor';
