/**
 * The server's messages by e-mail. The reader's language is not known when a mail is sent (a forgotten password
 * comes before any sign-in), so each says it in Chinese, then in English.
 */
export type MailMessage = { subject: string; text: string };

const both = (zh: string, en: string) => `${zh}\n\n----\n\n${en}\n`;

export function codeMail(code: string, ttlS: number, purpose: 'reset' | 'signin'): MailMessage {
  const minutes = Math.round(ttlS / 60);
  const zhWhat = purpose === 'reset' ? '重置密码' : '登录';
  const enWhat = purpose === 'reset' ? 'reset your password' : 'sign in';
  return {
    subject: `验证码 ${code} / Verification code ${code}`,
    text: both(
      `你的验证码是 ${code}，用于${zhWhat}，${minutes} 分钟内有效。如果不是你本人操作，请忽略本邮件并联系管理员。`,
      `Your verification code is ${code}, to ${enWhat}; it is good for ${minutes} minutes. If you did not ask for it, ignore this mail and tell your administrator.`,
    ),
  };
}

export function passwordResetMail(username: string, at: string, ip: string): MailMessage {
  return {
    subject: '密码已重置 / Your password was reset',
    text: both(
      `账号 ${username} 的密码已于 ${at} 从地址 ${ip} 重置，其他设备上的登录已退出。如果不是你本人操作，请立即联系管理员。`,
      `The password of ${username} was reset at ${at} from ${ip}; the sign-ins on other devices were ended. If this was not you, tell your administrator at once.`,
    ),
  };
}

export function invitationMail(orgName: string, username: string, loginUrl: string): MailMessage {
  return {
    subject: `${orgName} 邀请你加入跨境卖家后台 / ${orgName} invites you to the Seller Back Office`,
    text: both(
      `${orgName} 为你开通了账号 ${username}。请在 ${loginUrl} 用管理员告诉你的初始密码登录，并在首次登录后修改密码。`,
      `${orgName} opened the account ${username} for you. Sign in at ${loginUrl} with the first password your administrator gave you, and change it after your first sign-in.`,
    ),
  };
}

export function shopKeyMail(shopName: string, expiresAt: string, daysLeft: number): MailMessage {
  return {
    subject: `店铺 ${shopName} 的 API 密钥即将过期 / The API key of ${shopName} expires soon`,
    text: both(
      `店铺 ${shopName} 的 Ozon API 密钥将于 ${expiresAt} 过期（剩余 ${daysLeft} 天）。请在 Ozon 卖家后台生成新密钥，并在“店铺管理”中更新。`,
      `The Ozon API key of the shop ${shopName} expires on ${expiresAt} (${daysLeft} days left). Make a new key in Ozon's seller portal and update it under "Shops".`,
    ),
  };
}

export function testMail(orgName: string): MailMessage {
  return {
    subject: '测试邮件 / Test message',
    text: both(`这是 ${orgName} 的邮件服务发出的测试邮件：设置可以正常发信。`, `This is a test message from the mail service of ${orgName}: the settings send mail.`),
  };
}
