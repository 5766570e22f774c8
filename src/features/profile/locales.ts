import { defineLocales } from '@/app/locales/define';

/** The change-password page's texts (namespace `profile`). */
export const profile = defineLocales({
  zh: {
    title: '修改密码',
    hint: '修改后，您在其他设备或浏览器上的登录会失效，需要用新密码重新登录；本页面保持登录。',
    oldPassword: '原密码',
    newPassword: '新密码',
    confirm: '确认新密码',
    mismatch: '两次输入的新密码不一致',
    submit: '保存修改',
    success: '密码修改成功',
    contact: { title: '找回密码用的邮箱和手机', hint: '忘记密码时，验证码发送到这里。', email: '邮箱', phone: '手机号', save: '保存', saved: '已保存', invalidEmail: '邮箱格式不正确', invalidPhone: '手机号应为 6 到 15 位数字' },
  },
  en: {
    title: 'Change password',
    hint: 'After the change, your logins on other devices or browsers end and need the new password; this page stays logged in.',
    oldPassword: 'Current password',
    newPassword: 'New password',
    confirm: 'Confirm new password',
    mismatch: 'The two new passwords do not match',
    submit: 'Save',
    success: 'Password changed',
    contact: { title: 'E-mail and phone for a forgotten password', hint: 'When you forget your password, the code is sent here.', email: 'E-mail', phone: 'Phone', save: 'Save', saved: 'Saved', invalidEmail: 'The e-mail address is not valid', invalidPhone: 'A phone number has 6 to 15 digits' },
  },
  pt: {
    title: 'Alterar senha',
    hint: 'Depois da alteração, suas sessões em outros dispositivos ou navegadores terminam e pedem a nova senha; esta página continua conectada.',
    oldPassword: 'Senha atual',
    newPassword: 'Nova senha',
    confirm: 'Confirmar nova senha',
    mismatch: 'As duas novas senhas não coincidem',
    submit: 'Salvar',
    success: 'Senha alterada',
    contact: { title: 'E-mail e telefone para recuperar a senha', hint: 'Se esquecer a senha, o código é enviado para cá.', email: 'E-mail', phone: 'Telefone', save: 'Salvar', saved: 'Salvo', invalidEmail: 'O e-mail não é válido', invalidPhone: 'Um telefone tem de 6 a 15 dígitos' },
  },
});
