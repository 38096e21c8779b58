// Families use the engine only through `@precis/engine/family`, the narrow API of what a family
// may use; '@precis/engine' is the runtime the services start (coordinator, queries, renderers).
import { importsOf, type SourceFile } from './dependency-check.js';

const FAMILY_SOURCE = /^packages\/families\/[^/]+\/src\//;
const TEST_FILE = /\.(spec|int-spec|e2e-spec)\.[cm]?tsx?$/;
export const FAMILY_API = '@precis/engine/family';

// Each family source file (tests excluded) importing the engine by another entry than its API.
export function familyApiViolations(files: readonly SourceFile[]): string[] {
  return files
    .filter((f) => FAMILY_SOURCE.test(f.path) && !TEST_FILE.test(f.path))
    .flatMap((f) =>
      importsOf(f.text)
        .filter(
          (spec) => (spec === '@precis/engine' || spec.startsWith('@precis/engine/')) && spec !== FAMILY_API,
        )
        .map(
          (spec) =>
            `${f.path} imports '${spec}': a family imports only '${FAMILY_API}'; export what it needs from packages/engine/src/family.ts`,
        ),
    );
}
