import { SESSION_ENDPOINTS as E } from '../contract/session';
import { SIGNIN_ENDPOINTS } from '../contract/signin';
import type { SessionApi } from './api';
import type { HttpClient } from './http/client';

/** Session and account calls (seller-tool §7 "Session and account"); method, path, timeouts and silence come from the endpoint objects. */
export function createSessionApi(client: HttpClient, now: () => number = Date.now): SessionApi {
  return {
    async setCredentials(credentials) {
      client.setCredentials(credentials);
    },
    async setLanguage(lang) {
      client.setLanguage(lang);
    },
    captchaImage: () => client.call(E.captchaImage),
    register: (body) => client.call(E.register, body),
    async login(body) {
      const data = await client.call(E.login, body);
      if ('token' in data) client.setCredentials({ token: data.token, userId: data.id });
      return data;
    },
    async loginOtp(body) {
      const data = await client.call(SIGNIN_ENDPOINTS.loginOtp, body);
      client.setCredentials({ token: data.token, userId: data.id });
      return data;
    },
    loginEnrol: (ticket) => client.call(SIGNIN_ENDPOINTS.loginEnrol, { ticket }),
    async loginEnrolConfirm(body) {
      const data = await client.call(SIGNIN_ENDPOINTS.loginEnrolConfirm, body);
      client.setCredentials({ token: data.token, userId: data.id });
      return data;
    },
    getInfo: () => client.call(E.getInfo),
    loginCheck: (body) => client.call(E.loginCheck, body),
    checkPsw: (password) => client.call(E.checkPsw, { password }),
    changePsw: (body) => client.call(E.changePsw, body),
    async logout() {
      try {
        // Best effort: the user is leaving whatever the server says; no retry, no message.
        await client.call(E.logout);
      } catch {
        // Already ended or unreachable: forgetting the credentials below is what matters.
      } finally {
        client.setCredentials(null);
      }
    },
    noticeCheck: () => client.call(E.noticeCheck),
    limitInfo: () => client.call(E.limitInfo),
    getBrand: () => client.call(E.getBrand),
    // The timestamp defeats every cache between the browser and the file.
    versionFile: () => client.call(E.versionFile, { t: now() }),
  };
}
