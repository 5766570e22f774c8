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
  };
}
