import { useMoneyView } from '@/app/displayCurrency';
import { showMoney, type MoneyShown } from '@/app/money';
import './money.css';

type MoneyProps = {
  amount: number;
  /** ISO code of the amount's own currency (CNY, RUB ...). */
  currency: string;
  className?: string;
};

/**
 * An amount with its currency sign, converted to the display currency with the original beside it, the rate and its
 * date (or why it is not converted) in the tooltip. A plain span with a title: a scrolling list renders dozens a frame.
 */
export function Money({ amount, currency, className }: MoneyProps) {
  return <MoneyText shown={showMoney(amount, currency, useMoneyView())} className={className} />;
}

/** An amount already formatted (src/app/money.ts `showMoney`). */
export function MoneyText({ shown, className }: { shown: MoneyShown; className?: string }) {
  const classes = ['money', shown.converted ? 'money--converted' : '', shown.title && !shown.converted ? 'money--unconverted' : '', className ?? ''].filter(Boolean).join(' ');
  if (!shown.converted) {
    return (
      <span className={classes} title={shown.title}>
        {shown.original}
      </span>
    );
  }
  return (
    <span className={classes} title={shown.title}>
      {shown.converted} <span className="money__original">({shown.original})</span>
    </span>
  );
}
