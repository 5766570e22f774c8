import {
  SIGNIN_ENDPOINTS as E,
  type OrgOtpMember,
  type OrgOtpSettings,
  type OtpEnrolment,
  type OtpStatus,
  type RecoveryCodes,
  type SaveOrgOtpBody,
  type SignInPage,
  type SignInQuery,
} from '../contract/signin';
import {
  PASSWORD_POLICY_ENDPOINTS as P,
  type PasswordPolicy,
  type PasswordPolicyPage,
  type PasswordPolicyQuery,
  type PasswordRulesAnswer,
  type SavePasswordPolicyBody,
} from '../contract/passwordPolicy';
import {
  SERVICE_ENDPOINTS as S,
  type CaptchaAnswer,
  type CaptchaSettings,
  type MailSettingsAnswer,
  type SaveMailBody,
  type SaveSmsBody,
  type Sent,
  type SmsSettingsAnswer,
} from '../contract/signinServices';
import { RESET_ENDPOINTS as R, type Contact, type ForgotResetBody, type ForgotSendBody, type ForgotSent } from '../contract/passwordReset';
import type { HttpClient } from './http/client';

/** Sign-in security (contract/signin.ts): the person's own one-time password and sign-ins, and the console's. */
export type SigninApi = {
  otpStatus(): Promise<OtpStatus>;
  otpSetup(): Promise<OtpEnrolment>;
  otpConfirm(code: string): Promise<RecoveryCodes>;
  otpRecovery(code: string): Promise<RecoveryCodes>;
  otpDisable(password: string): Promise<null>;
  ownSignIns(page: number, rows: number): Promise<SignInPage>;
  orgOtp(orgId?: number): Promise<OrgOtpSettings>;
  saveOrgOtp(body: SaveOrgOtpBody): Promise<OrgOtpSettings>;
  markMember(id: number, required: boolean): Promise<OrgOtpMember>;
  resetMember(id: number): Promise<{ count: number }>;
  signInLog(query: SignInQuery): Promise<SignInPage>;
  /** The sign-in log as an Excel file, with the list's filters. */
  signInExport(query: Omit<SignInQuery, 'page' | 'rows'>): Promise<Blob>;
  /** The password rules of a new account (the register page); silent: the page says the rules could not be read. */
  passwordRulesForRegister(): Promise<PasswordRulesAnswer>;
  /** The rules the signed-in person's next password is held to; silent as above. */
  ownPasswordRules(): Promise<PasswordRulesAnswer>;
  passwordPolicies(query: PasswordPolicyQuery): Promise<PasswordPolicyPage>;
  savePasswordPolicy(body: SavePasswordPolicyBody): Promise<PasswordPolicy>;
  deletePasswordPolicies(ids: number[]): Promise<{ count: number }>;
  mailSettings(): Promise<MailSettingsAnswer>;
  saveMailSettings(body: SaveMailBody): Promise<MailSettingsAnswer>;
  testMail(to: string): Promise<Sent>;
  smsSettings(): Promise<SmsSettingsAnswer>;
  saveSmsSettings(body: SaveSmsBody): Promise<SmsSettingsAnswer>;
  testSms(phone: string): Promise<Sent>;
  captchaSettings(): Promise<CaptchaAnswer>;
  saveCaptchaSettings(body: CaptchaSettings): Promise<CaptchaAnswer>;
  /** A forgotten password: the code by e-mail or SMS, then the new password with it. */
  forgotSend(body: ForgotSendBody): Promise<ForgotSent>;
  forgotReset(body: ForgotResetBody): Promise<null>;
  contact(): Promise<Contact>;
  saveContact(body: Contact): Promise<Contact>;
};

export function createSigninApi(client: HttpClient): SigninApi {
  return {
    otpStatus: () => client.call(E.otpStatus),
    otpSetup: () => client.call(E.otpSetup),
    otpConfirm: (code) => client.call(E.otpConfirm, { code }),
    otpRecovery: (code) => client.call(E.otpRecovery, { code }),
    otpDisable: (password) => client.call(E.otpDisable, { password }),
    ownSignIns: (page, rows) => client.call(E.ownSignIns, { page, rows }),
    orgOtp: (orgId) => client.call(E.orgOtp, orgId === undefined ? {} : { orgId }),
    saveOrgOtp: (body) => client.call(E.saveOrgOtp, body),
    markMember: (id, required) => client.call(E.markMember, { id, required }),
    resetMember: (id) => client.call(E.resetMember, { id }),
    signInLog: (query) => client.call(E.signInLog, query),
    signInExport: (query) => client.call(E.signInExport, query),
    passwordRulesForRegister: () => client.call(P.rulesForRegister, undefined, { silent: true }),
    ownPasswordRules: () => client.call(P.ownRules, undefined, { silent: true }),
    passwordPolicies: (query) => client.call(P.list, query),
    savePasswordPolicy: (body) => client.call(P.save, body),
    deletePasswordPolicies: (ids) => client.call(P.delete, { ids }),
    mailSettings: () => client.call(S.mail, {}),
    saveMailSettings: (body) => client.call(S.saveMail, body),
    testMail: (to) => client.call(S.testMail, { to }),
    smsSettings: () => client.call(S.sms, {}),
    saveSmsSettings: (body) => client.call(S.saveSms, body),
    testSms: (phone) => client.call(S.testSms, { phone }),
    captchaSettings: () => client.call(S.captcha),
    saveCaptchaSettings: (body) => client.call(S.saveCaptcha, body),
    forgotSend: (body) => client.call(R.forgotSend, body),
    forgotReset: (body) => client.call(R.forgotReset, body),
    contact: () => client.call(R.contact),
    saveContact: (body) => client.call(R.saveContact, body),
  };
}
