import { SafetyOutlined } from '@ant-design/icons';
import { Form, Input, Spin, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Captcha } from '@/components/useCaptcha';

/** The captcha input with its image beside it; clicking the image fetches a new one. */
export function CaptchaField({ captcha }: { captcha: Captcha }) {
  const { t } = useTranslation(['auth', 'shell']);
  return (
    <div className="auth-captcha">
      <Form.Item
        name="code"
        className="auth-captcha__input"
        rules={[{ required: true, whitespace: true, message: t('shell:common.required', { field: t('login.captcha') }) }]}
      >
        <Input prefix={<SafetyOutlined />} placeholder={t('login.captcha')} maxLength={8} autoComplete="off" size="large" />
      </Form.Item>
      <Tooltip title={t('login.captchaRefresh')}>
        <button type="button" className="auth-captcha__image" onClick={captcha.refresh} aria-label={t('login.captchaAlt')}>
          {captcha.img ? <img src={captcha.img} alt={t('login.captchaAlt')} /> : <Spin size="small" spinning={captcha.loading} />}
        </button>
      </Tooltip>
    </div>
  );
}
