import { useTranslation } from 'react-i18next';
import type { Role } from '@contract/access';
import { dateFormat } from '@/app/formats';
import { toLang } from '@/app/i18n';
import { useComponentTexts } from '../useComponentTexts';
import { roleNeeds, type RoleHolder } from './roleNeeds';

export type AccessHintProps = {
  /** The roles that open the page or module (the route's or the area's). */
  roles: readonly Role[];
  holder: RoleHolder;
  /** The person's roles reach it but their organisation role grants nothing in its area. */
  member?: boolean;
  className?: string;
};

/**
 * What opens a page or module the person cannot use, and how to get it: the paid period each paid role needs (or
 * that the person's own period ended, and when), then who to ask. Nothing for a module the person can use.
 */
export function AccessHint({ roles, holder, member = false, className }: AccessHintProps) {
  const lines = useAccessHint(roles, holder, member);
  if (lines.length === 0) return null;
  return (
    <div className={className}>
      {lines.map((line) => (
        <div key={line}>{line}</div>
      ))}
    </div>
  );
}

export function useAccessHint(roles: readonly Role[], holder: RoleHolder, member = false): string[] {
  const t = useComponentTexts();
  const { t: shell, i18n } = useTranslation('shell');
  const lang = toLang(i18n.language);
  if (member) return [t('access.howMember')];
  const needs = roleNeeds(roles, holder);
  if (roles.length === 0 || needs.some((need) => need.state === 'active')) return [];
  const lines = needs.flatMap((need) => {
    if (need.period === null) return [];
    const period = shell(`validity.${need.period}`);
    if (need.state === 'missing') return [t('access.needsPeriod', { role: shell(`role.${need.role}`), period })];
    return [need.until === null ? t('access.notSet', { period }) : t('access.expired', { period, date: dateFormat(lang).format(need.until) })];
  });
  const how = needs.some((need) => need.state === 'expired') ? 'howRenew' : needs.every((need) => need.role === 'admin') ? 'howAdmin' : 'howGet';
  return [...lines, t(`access.${how}`)];
}
