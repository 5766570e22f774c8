import { CheckCircleFilled, CloseCircleOutlined } from '@ant-design/icons';
import type { Rule } from 'antd/es/form';
import { useEffect, useState } from 'react';
import { message as catalogue, type Lang } from '@contract/errors';
import {
  brokenRule,
  checkRules,
  NO_POLICY,
  ruleText,
  type CommonCheck,
  type PasswordRules,
  type PasswordRulesAnswer,
  type PasswordSubject,
} from '@contract/passwordPolicy';
import './passwordRules.css';

/** The rules a new password is held to, as the server answered them, and the common list once it is loaded. */
export type PasswordRulesState = { rules: PasswordRules; subject: PasswordSubject; isCommon: CommonCheck | undefined };

/**
 * Reads the rules in force (`load`: the register page's or the signed-in person's) and, when they refuse common
 * passwords, loads that list apart (it is large). Until the answer comes, and if it never does, the floor every
 * password meets is shown; the server checks the policy all the same.
 */
export function usePasswordRules(load: () => Promise<PasswordRulesAnswer>): PasswordRulesState {
  const [answer, setAnswer] = useState<PasswordRulesAnswer | null>(null);
  const [isCommon, setIsCommon] = useState<CommonCheck | undefined>(undefined);
  useEffect(() => {
    let live = true;
    load().then(
      (rules) => live && setAnswer(rules),
      () => undefined,
    );
    return () => void (live = false);
  }, [load]);
  const notCommon = answer?.rules.notCommon === true;
  useEffect(() => {
    if (!notCommon) return;
    let live = true;
    void import('@contract/commonPasswords').then((module) => live && setIsCommon(() => module.isCommonPassword));
    return () => void (live = false);
  }, [notCommon]);
  return { rules: answer?.rules ?? NO_POLICY, subject: answer?.subject ?? {}, isCommon };
}

/** The subject of the answer with what the form knows better (the user name being registered). */
function subjectWith(state: PasswordRulesState, extra: PasswordSubject): PasswordSubject {
  return { ...state.subject, ...Object.fromEntries(Object.entries(extra).filter(([, value]) => value)) };
}

/**
 * Every rule in force, met or not, checked as the user types: shown before the first character, each turning green
 * once met. The evaluator is the server's own (contract/passwordPolicy.ts).
 */
export function PasswordRuleList({ state, password, lang, subject = {} }: { state: PasswordRulesState; password: string; lang: Lang; subject?: PasswordSubject }) {
  const results = checkRules(state.rules, password, subjectWith(state, subject), state.isCommon);
  return (
    <ul className="password-rules" aria-live="polite">
      {results.map(({ rule, ok }) => {
        const met = ok && password !== '';
        return (
          <li key={rule} className={met ? 'password-rules__met' : password ? 'password-rules__broken' : undefined} data-testid={`password-rule-${rule}`} data-met={met}>
            {met ? <CheckCircleFilled aria-hidden /> : <CloseCircleOutlined aria-hidden />} {ruleText(rule, state.rules, lang)}
          </li>
        );
      })}
    </ul>
  );
}

/** The form's check of the same rules: the first one broken, named as the server names it. */
export function passwordRuleValidator(state: PasswordRulesState, lang: Lang, subject: () => PasswordSubject = () => ({})): Rule {
  return {
    validator: (_, value: string | undefined) => {
      if (!value) return Promise.resolve();
      const broken = brokenRule(state.rules, value, subjectWith(state, subject()), state.isCommon);
      return broken ? Promise.reject(new Error(catalogue('passwordRefused', lang, { rule: ruleText(broken, state.rules, lang) }))) : Promise.resolve();
    },
  };
}
