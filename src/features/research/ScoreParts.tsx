import { Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { POTENTIAL_WEIGHTS, PRICE_SWEET_SPOT_RUB, type MarketProductRow, type PotentialPart } from '@contract/research';
import { toLang } from '@/app/i18n';
import { formatCount, formatGrowth, formatRub } from './format';

export const PARTS: readonly PotentialPart[] = ['demand', 'competition', 'reviews', 'price'];
const VALUE: Record<PotentialPart, (row: MarketProductRow) => number> = {
  demand: (row) => row.potentialDemand,
  competition: (row) => row.potentialCompetition,
  reviews: (row) => row.potentialReviews,
  price: (row) => row.potentialPrice,
};
export const partValue = (row: MarketProductRow, part: PotentialPart) => VALUE[part](row);

/** The score's four parts as a stacked bar, each part's share of the score; the tooltip explains them. */
export function ScoreBar({ row }: { row: MarketProductRow }) {
  return (
    <Tooltip title={<ScoreExplained row={row} />} styles={{ root: { maxWidth: 420 } }}>
      <div className="research-score-bar" data-testid="score-bar">
        {PARTS.map((part) => (
          <span key={part} className={`research-score-part research-score-part--${part}`} style={{ width: `${partValue(row, part) * POTENTIAL_WEIGHTS[part]}%` }} />
        ))}
      </div>
    </Tooltip>
  );
}

/** Each part: its value, its weight and why, then the sum. */
export function ScoreExplained({ row }: { row: MarketProductRow }) {
  const { t, i18n } = useTranslation('research');
  const lang = toLang(i18n.language);
  const part = (name: PotentialPart) => Math.round(partValue(row, name));
  const why: Record<PotentialPart, string> = {
    demand: t('partsExplained.demand', { units: formatCount(lang, row.sales30), growth: formatGrowth(row.growth), part: part('demand') }),
    competition: t('partsExplained.competition', { sellers: formatCount(lang, row.typeSellers), part: part('competition') }),
    reviews: t('partsExplained.reviews', { reviews: formatCount(lang, row.reviews), part: part('reviews') }),
    price: t('partsExplained.price', { price: formatRub(lang, row.price), center: formatRub(lang, PRICE_SWEET_SPOT_RUB), part: part('price') }),
  };
  return (
    <div className="research-explained" data-testid="score-explained">
      {PARTS.map((part) => (
        <div key={part} className="research-explained-part">
          <span className={`research-dot research-score-part--${part}`} />
          <strong>{t(`parts.${part}`)}</strong> {partValue(row, part).toFixed(1)} · {t('partsExplained.weight', { weight: POTENTIAL_WEIGHTS[part] * 100 })}
          <div className="research-explained-why">{why[part]}</div>
        </div>
      ))}
      <div className="research-explained-total">{t('partsExplained.total', { score: row.potentialScore.toFixed(1) })}</div>
      <div className="research-explained-why">{t('partsExplained.percentile')}</div>
    </div>
  );
}
