import { Alert, ColorPicker, Divider, Drawer, Button, Select, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { selectSettings, type DisplaySettings } from '@machines/settingsMachine';
import { SettingsContext } from '../displaySettings';
import { useDisplayCurrencyChoice } from '../displayCurrency';
import { DISPLAY_CURRENCIES, type DisplayCurrency } from '../money';

const PRESET_COLORS = ['#1890ff', '#13c2c2', '#52c41a', '#fa541c', '#eb2f96', '#722ed1', '#304156'];

type SwitchKey = 'tagsView' | 'fixedHeader' | 'sidebarLogo' | 'supportPinyinSearch' | 'antiInspection';
const SWITCHES: SwitchKey[] = ['tagsView', 'fixedHeader', 'sidebarLogo', 'supportPinyinSearch', 'antiInspection'];

/** The settings panel (spec §2.3): theme colour, tags view, fixed header, sidebar logo, pinyin search. */
export function SettingsDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const settings = SettingsContext.useSelector(selectSettings);
  const actor = SettingsContext.useActorRef();
  const change = (key: keyof DisplaySettings, value: unknown) => actor.send({ type: 'settings.change', key, value });
  const currency = useDisplayCurrencyChoice();
  return (
    <Drawer open={open} onClose={onClose} title={t('settings.title')} size={320} destroyOnHidden>
      <div className="settings-drawer__row">
        <span id="settings-theme">{t('settings.theme')}</span>
        <ColorPicker
          aria-labelledby="settings-theme"
          value={settings.theme}
          disabledAlpha
          presets={[{ label: t('settings.theme'), colors: PRESET_COLORS }]}
          onChangeComplete={(color) => change('theme', color.toHexString())}
        />
      </div>
      {currency ? (
        <>
          <div className="settings-drawer__row">
            <span id="settings-currency">{t('settings.displayCurrency')}</span>
            <Select
              aria-labelledby="settings-currency"
              value={currency.shown}
              loading={currency.saving}
              style={{ width: 150 }}
              options={DISPLAY_CURRENCIES.map((code) => ({ value: code, label: t(`settings.currency.${code}`) }))}
              onChange={(value: DisplayCurrency) => currency.choose(value)}
            />
          </div>
          {currency.saveError ? <Alert type="error" showIcon className="settings-drawer__hint" message={t('money.saveFailed', { reason: currency.saveError })} /> : null}
          <Typography.Paragraph type="secondary" className="settings-drawer__hint">
            {t('settings.displayCurrencyHint')}
          </Typography.Paragraph>
        </>
      ) : null}
      <Divider />
      {SWITCHES.map((key) => (
        <div key={key} className="settings-drawer__row">
          <label htmlFor={`setting-${key}`}>{t(`settings.${key}`)}</label>
          <Switch id={`setting-${key}`} checked={settings[key]} onChange={(checked) => change(key, checked)} />
        </div>
      ))}
      <Typography.Paragraph type="secondary" className="settings-drawer__hint">
        {t('settings.antiInspectionHint')}
      </Typography.Paragraph>
      <Button block onClick={() => actor.send({ type: 'settings.reset' })}>
        {t('settings.reset')}
      </Button>
    </Drawer>
  );
}
