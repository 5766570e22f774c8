import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, by project, longest first: measured on a full run of the suites side by side on the
 * CI's two cores (docs/performance.md, "CI time"). A fresh clone has no timings of its own (vitest keeps them in
 * node_modules/.vite), so vitest would order files by size and could start a file of three minutes last, leaving one
 * worker busy after the others have finished. Files not named keep vitest's order after these.
 */
export const SLOWEST_FIRST: Record<string, readonly string[]> = {
  component: [
    'tests/component/collection/itemEditor.test.tsx',
    'tests/component/shell/settings.test.tsx',
    'tests/component/chat/chatWidgetFeatures.test.tsx',
    'tests/component/chat/chatWidget.test.tsx',
    'tests/component/virtual-table/virtualTable.test.tsx',
    'tests/component/session/loginPage.test.tsx',
    'src/features/orders/OrderActionDialog.test.tsx',
    'tests/component/products/priceEditing.test.tsx',
  ],
  server: [
    'tests/server/demoAlive.test.ts',
    'tests/server/instances.test.ts',
    'tests/server/databaseOutage.test.ts',
    'tests/server/security/fuzz.test.ts',
    'tests/server/orders.test.ts',
    'tests/server/research/research.test.ts',
    'tests/server/analysis/rollups.test.ts',
    'tests/server/research/import.test.ts',
    'tests/server/marketplace/sync.test.ts',
  ],
  e2e: [
    'tests/e2e/chat.test.ts',
    'tests/e2e/shell.test.ts',
    'tests/e2e/orders.test.ts',
    'tests/e2e/products.test.ts',
    'tests/e2e/research.test.ts',
    'tests/e2e/designer.test.ts',
    'tests/e2e/reupload.test.ts',
    'tests/e2e/analysis.test.ts',
    'tests/e2e/plugin.test.ts',
    'tests/e2e/session.test.ts',
    'tests/e2e/returns.test.ts',
  ],
};

export default class SlowestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification): number => {
      const list = SLOWEST_FIRST[spec.project.name] ?? [];
      const index = list.findIndex((path) => spec.moduleId.endsWith(path));
      return index === -1 ? list.length : index;
    };
    // vitest's order keeps each project's files together (groupOrder, then name): only files inside a project move.
    const groups: TestSpecification[][] = [];
    for (const spec of sorted) {
      const last = groups.at(-1);
      if (last && last[0]!.project.name === spec.project.name) last.push(spec);
      else groups.push([spec]);
    }
    return groups.flatMap((group) => group.map((spec, index) => ({ spec, index })).sort((a, b) => rank(a.spec) - rank(b.spec) || a.index - b.index).map(({ spec }) => spec));
  }
}
