import { CheckCircleFilled } from '@ant-design/icons';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from '@/app/LanguageSwitch';
import { Logo } from '@/app/Logo';
import './auth.css';

/** The frame of the login and register pages: the product on the left, the form card on the right. */
export function AuthLayout({ title, subtitle, children }: { title: string; subtitle: string; children: ReactNode }) {
  const { t } = useTranslation(['auth', 'shell']);
  const points = t('login.brandPoints', { returnObjects: true }) as readonly string[];
  return (
    <div className="auth-page">
      <aside className="auth-brand">
        <div className="auth-brand__head">
          <Logo size={40} />
          <span className="auth-brand__name">{t('shell:site.title')}</span>
        </div>
        <div className="auth-brand__body">
          <h2 className="auth-brand__tagline">{t('shell:site.tagline')}</h2>
          <ul className="auth-brand__points">
            {points.map((point) => (
              <li key={point}>
                <CheckCircleFilled /> {point}
              </li>
            ))}
          </ul>
        </div>
        <div className="auth-brand__foot">Ozon Seller · {new Date().getFullYear()}</div>
      </aside>
      <main className="auth-main">
        <div className="auth-main__lang">
          <LanguageSwitch />
        </div>
        <section className="auth-card">
          <div className="auth-card__mobile-brand">
            <Logo size={32} />
            <span>{t('shell:site.title')}</span>
          </div>
          <h1 className="auth-card__title">{title}</h1>
          <p className="auth-card__subtitle">{subtitle}</p>
          {children}
        </section>
      </main>
    </div>
  );
}
