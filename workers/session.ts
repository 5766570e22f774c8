import {
  brandSchema,
  captchaImageSchema,
  changePswDataSchema,
  checkPswDataSchema,
  limitInfoSchema,
  loginCheckDataSchema,
  loginDataSchema,
  noticeCheckDataSchema,
  registerDataSchema,
  userInfoSchema,
  versionFileSchema,
} from '../contract/session';
import type { SessionApi } from './api';
import type { HttpClient } from './http/client';

/** Session and account calls (seller-tool §7 "Session and account"); timeouts and silence come from workers/http/calls.ts. */
export function createSessionApi(client: HttpClient, now: () => number = Date.now): SessionApi {
  return {
    async setCredentials(credentials) {
      client.setCredentials(credentials);
    },
    async setLanguage(lang) {
      client.setLanguage(lang);
    },
    captchaImage: () => client.request('/captchaImage', { method: 'GET', schema: captchaImageSchema }),
    register: (body) => client.request('/user/register', { method: 'POST', body, schema: registerDataSchema }),
    async login(body) {
      const data = await client.request('/login', { method: 'POST', body, schema: loginDataSchema });
      client.setCredentials({ token: data.token, userId: data.id });
      return data;
    },
    getInfo: () => client.request('/getInfo', { method: 'GET', schema: userInfoSchema }),
    loginCheck: (body) => client.request('/loginCheck', { method: 'POST', body, schema: loginCheckDataSchema }),
    checkPsw: (password) => client.request('/user/checkPsw', { method: 'POST', body: { password }, schema: checkPswDataSchema }),
    changePsw: (body) => client.request('/user/changePsw', { method: 'POST', body, schema: changePswDataSchema }),
    async logout() {
      try {
        // Best effort: the user is leaving whatever the server says; no retry, no message.
        await client.request('/logout', { method: 'POST', silent: true, retries: 0 });
      } catch {
        // Already ended or unreachable: forgetting the credentials below is what matters.
      } finally {
        client.setCredentials(null);
      }
    },
    noticeCheck: () => client.request('/noticeCheck', { method: 'GET', schema: noticeCheckDataSchema }),
    limitInfo: () => client.request('/limitInfo', { method: 'GET', schema: limitInfoSchema }),
    getBrand: () => client.request('/getBrand', { method: 'GET', schema: brandSchema }),
    versionFile: () =>
      client.request('/version.json', {
        method: 'GET',
        base: '',
        envelope: false,
        // The timestamp defeats every cache between the browser and the file.
        params: { t: now() },
        silent: true,
        schema: versionFileSchema,
      }),
  };
}
