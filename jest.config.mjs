// One Jest run for the whole monorepo, in ESM mode, compiled by swc.
// Workspace packages resolve to their sources so unit tests need no build.
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'es6' },
  },
];

export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper: {
    '^@precis/family-([a-z-]+)$': '<rootDir>/packages/families/$1/src/index.ts',
    '^@precis/families$': '<rootDir>/packages/families/built-in/src/index.ts',
    '^@precis/family-([a-z-]+)/([a-z-]+)$': '<rootDir>/packages/families/$1/src/$2/index.ts',
    '^@precis/([a-z-]+)$': '<rootDir>/packages/$1/src/index.ts',
    '^@precis/([a-z-]+)/([a-z-]+)$': '<rootDir>/packages/$1/src/$2.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testMatch: ['**/?(*.)+(spec|int-spec|e2e-spec).ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  testTimeout: 60000,
  maxWorkers: 2,
  // A worker ends holding ~3 GB and takes 0.8-1.2 s to free it (measured); at Jest's 500 ms it was
  // killed and reported as a leak. A worker held open by a handle is still forced and reported.
  workerGracefulExitTimeout: 3000,
};
