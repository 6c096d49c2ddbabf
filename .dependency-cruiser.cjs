/** Import boundaries (DESIGN.md conventions 1-3): the domain stays pure, handlers only wire. */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-domain-to-infra-deps',
      comment: 'shared/domain is pure: no adapters, app layer, transports, config, GCP SDKs or network/database clients',
      severity: 'error',
      from: { path: '^shared/domain' },
      to: {
        path: [
          '^shared/(adapters|app|transport|config|auth)',
          '^functions',
          '@google-cloud',
          '@duckdb',
          'graphql',
          'node_modules/(jose|firebase)',
        ],
      },
    },
    {
      name: 'no-domain-process-env',
      comment: 'only shared/config.ts reads the environment; enforced by a unit test as well',
      severity: 'error',
      from: { path: '^shared/(domain|schemas|ports)' },
      to: { path: '^shared/config' },
    },
    {
      name: 'ports-are-interfaces',
      severity: 'error',
      from: { path: '^shared/ports' },
      to: { path: '^shared/(adapters|app|transport)|@google-cloud|@duckdb' },
    },
    {
      name: 'functions-are-independent',
      comment: 'a function never imports another function',
      severity: 'error',
      from: { path: '^functions/([^/]+)/' },
      to: { path: '^functions/', pathNot: '^functions/$1/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
