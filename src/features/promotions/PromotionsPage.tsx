import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { SessionContext } from '@/app/session';
import { ActionsTab } from './ActionsTab';
import { DiscountsTab } from './DiscountsTab';
import { GuardTab } from './GuardTab';
import './promotions.css';

/** /action/oz-action-list: Ozon actions of every shop, buyers' discount requests and the price guard. */
export function PromotionsPage() {
  const { t } = useTranslation('promotions');
  const userId = SessionContext.useSelector((s) => s.context.user.id) ?? 0;
  return (
    <div className="promo-page">
      <Tabs
        destroyOnHidden
        items={[
          { key: 'actions', label: t('tabs.actions'), children: <ActionsTab userId={userId} /> },
          { key: 'discounts', label: t('tabs.discounts'), children: <DiscountsTab /> },
          { key: 'guard', label: t('tabs.guard'), children: <GuardTab /> },
        ]}
      />
    </div>
  );
}
