/** Money in the orders' currency, with its sign for the two the demo and most sellers use. */
export const money = (n: number, currency: string) =>
  `${currency === 'CNY' ? '¥' : currency === 'RUB' ? '₽' : ''}${n.toLocaleString(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

export const percent = (n: number) => `${(n * 100).toFixed(1)}%`;
