import { LockOutlined } from '@ant-design/icons';
import { Result } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ValidityTimes } from '@contract/session';
import { isApiFailure } from '@workers/api';
import { dateFormat } from '@/app/formats';
import { toLang } from '@/app/i18n';
import { SessionContext } from '@/app/session';
import { selectRoleTime } from '@machines/sessionMachine';

/** The paid periods that open market research (spec §6: search, or follow, whose pages these are too). */
const RESEARCH_PERIODS: readonly (keyof ValidityTimes)[] = ['searchWordValidTime', 'followValidTime'];

/** A research call refused for the caller's roles: their paid period has run out (or was never opened). */
export const isLockedOut = (failure: unknown) => isApiFailure(failure) && failure.type === 'Unauthorized';

/**
 * What a research page shows instead of its filters and results once the server refuses it for the user's roles:
 * which period ended and when, and who renews it, rather than an error or an empty table.
 */
export function ResearchLocked() {
  const { t, i18n } = useTranslation(['research', 'shell']);
  const lang = toLang(i18n.language);
  const roleTime = SessionContext.useSelector(selectRoleTime);
  // The period that ended last. The session's dates are those of sign-in: a period that ran out since (or a role
  // taken away) still shows a later date, so then the text names no date.
  const latest = RESEARCH_PERIODS.flatMap((key) => {
    const time = roleTime[key];
    return time === null ? [] : [{ key, time }];
  }).sort((a, b) => b.time - a.time)[0];
  const feature = t(`shell:validity.${latest?.key ?? 'searchWordValidTime'}`);
  const text = !latest
    ? t('research:locked.never', { feature })
    : latest.time <= Date.now()
      ? t('research:locked.ended', { feature, date: dateFormat(lang).format(latest.time) })
      : t('research:locked.lapsed', { feature });
  return <Result data-testid="research-locked" icon={<LockOutlined />} title={t('research:locked.title')} subTitle={text} />;
}
