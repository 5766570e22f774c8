import { MAX_SUBJECT, subjectOf, subjectProblem } from '../../tools/commit-msg';

describe('the commit-msg hook', () => {
  it('takes the first line that is neither empty nor a comment as the subject', () => {
    expect(subjectOf('# Please enter the commit message\n\nFix the label wait  \n\nWhy it waited.')).toBe('Fix the label wait');
    expect(subjectOf('; a comment\nSubject', ';')).toBe('Subject');
  });

  it('lets a subject of 72 characters through and refuses one of 73, naming its length', () => {
    expect(subjectProblem(`${'a'.repeat(MAX_SUBJECT)}\n\n${'b'.repeat(300)}`)).toBeNull();
    const problem = subjectProblem(`${'a'.repeat(MAX_SUBJECT + 1)}\n`);
    expect(problem).toContain('73 characters; keep it to 72');
  });

  it('counts characters, not bytes, so a Chinese subject of 72 characters passes', () => {
    expect(subjectProblem('订'.repeat(72))).toBeNull();
    expect(subjectProblem('订'.repeat(73))).not.toBeNull();
  });

  it("lets git's merge subjects and autosquash's fixups through", () => {
    expect(subjectProblem(`Merge branch '${'x'.repeat(80)}'`)).toBeNull();
    expect(subjectProblem(`fixup! ${'x'.repeat(70)}`)).toBeNull();
  });
});
