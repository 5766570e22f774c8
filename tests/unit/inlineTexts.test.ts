import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';

const eslint = new ESLint({ cwd: fileURLToPath(new URL('../..', import.meta.url)) });

/** The messages lint gives for this code as a component file of a feature. */
async function lint(code: string, filePath = 'src/features/example/ExamplePage.tsx'): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
}

describe('lint: UI texts are written in locales.ts, not inline', () => {
  // Loading the project's lint config (typescript-eslint) takes seconds on a busy machine: once, before the cases.
  beforeAll(() => eslint.calculateConfigForFile('src/features/example/ExamplePage.tsx'), 60_000);

  it.each([
    ['a text with its languages', "export const label = { zh: '确定', en: 'OK' };"],
    ['a table of texts per language', "export const TEXTS = { zh: { save: '保存' }, en: { save: 'Save' } };"],
    ['a text made by a function', 'export const TEXTS = { en: { n: (n: number) => `${n} rows` }, zh: { n: (n: number) => `共 ${n} 条` } };'],
    ['quoted keys', "export const label = { 'zh': '取消', 'en': 'Cancel' };"],
  ])('refuses %s', async (_name, code) => {
    expect(await lint(code)).toEqual([expect.stringContaining('locales.ts')]);
  });

  it.each([
    ['an empty row of a form', "export const row = { zh: '', en: '' };"],
    ['locale codes', "export const LOCALES = { zh: 'zh-CN', en: 'en-GB' };"],
    ['components by language', 'const zhCN = 1; const enUS = 2; export const ANTD = { zh: zhCN, en: enUS };'],
  ])('lets %s pass', async (_name, code) => {
    expect(await lint(code)).toEqual([]);
  });

  it("lets a namespace's locales.ts hold its texts", async () => {
    expect(await lint("export const x = { zh: { save: '保存' }, en: { save: 'Save' } };", 'src/features/example/locales.ts')).toEqual([]);
  });
});
