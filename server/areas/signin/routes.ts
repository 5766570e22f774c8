import type { FastifyInstance } from 'fastify';
import { PASSWORD_POLICY_ENDPOINTS as P } from '../../../contract/passwordPolicy';
import { SIGNIN_ENDPOINTS as E } from '../../../contract/signin';
import { writeXlsx } from '../../../contract/xlsx';
import { route } from '../../http/route';
import { setRefreshCookie, signInOrigin } from '../session/routes';
import { orgContext, type TeamDeps } from '../team/service';
import * as policies from './passwordPolicy';
import * as signin from './service';
import * as services from './services';
import { SERVICE_ENDPOINTS as S } from '../../../contract/signinServices';
import { RESET_ENDPOINTS as R } from '../../../contract/passwordReset';
import * as reset from './passwordReset';

/** Sign-in security (contract/signin.ts): the login's second step, the person's own one-time password, the console. */
export async function signinRoutes(app: FastifyInstance) {
  const team: TeamDeps = { db: app.db, now: () => app.now() };
  const ctx = (user: Parameters<typeof orgContext>[1], orgId: number | undefined) => orgContext(team, user, orgId);

  route(app, E.loginOtp, async ({ input, request, reply }) => {
    const { data, refreshToken } = await signin.loginWithCode(app, input, signInOrigin(request));
    setRefreshCookie(app, reply, refreshToken);
    return data;
  });
  route(app, E.loginEnrol, async ({ input, reply }) => {
    reply.header('cache-control', 'no-store');
    return signin.loginEnrolment(app, input.ticket);
  });
  route(app, E.loginEnrolConfirm, async ({ input, request, reply }) => {
    const { data, refreshToken } = await signin.loginEnrolConfirm(app, input, signInOrigin(request));
    setRefreshCookie(app, reply, refreshToken);
    reply.header('cache-control', 'no-store');
    return data;
  });

  route(app, E.otpStatus, async ({ user }) => signin.otpStatus(app, user));
  route(app, E.otpSetup, async ({ user, reply }) => {
    reply.header('cache-control', 'no-store');
    return signin.setupOtp(app, user);
  });
  route(app, E.otpConfirm, async ({ user, input, reply }) => {
    reply.header('cache-control', 'no-store');
    return signin.confirmOtp(app, user, input.code);
  });
  route(app, E.otpRecovery, async ({ user, input, reply }) => {
    reply.header('cache-control', 'no-store');
    return signin.regenerateRecoveryCodes(app, user, input.code);
  });
  route(app, E.otpDisable, async ({ user, input }) => signin.disableOtp(app, user, input.password));
  route(app, E.ownSignIns, async ({ user, input }) => signin.ownSignIns(app, user, input));

  route(app, E.orgOtp, async ({ user, input }) => signin.orgOtpSettings(app, await ctx(user, input.orgId)));
  route(app, E.saveOrgOtp, async ({ user, input, request }) => {
    const { orgId, ...body } = input;
    const org = await ctx(user, orgId);
    const before = await signin.orgOtpSettings(app, org);
    const after = await signin.saveOrgOtp(app, org, body);
    request.operationChange = { record: `orgId=${org.orgId}`, before: { policy: before.policy, requiredRoleIds: before.requiredRoleIds }, after: { policy: after.policy, requiredRoleIds: after.requiredRoleIds } };
    return after;
  });
  route(app, E.markMember, async ({ user, input, request }) => {
    const member = await signin.markMember(app, await ctx(user, undefined), input.id, input.required);
    request.operationChange = { record: `id=${member.id} name=${member.name}`, after: { required: member.required } };
    return member;
  });
  route(app, E.resetMember, async ({ user, input, request }) => {
    const result = await signin.resetMember(app, await ctx(user, undefined), input.id);
    request.operationChange = { record: `id=${input.id} otp=reset` };
    return result;
  });
  route(app, E.dynamicPwdList, async ({ user, input }) => signin.dynamicPasswords(app, await ctx(user, input.orgId), input));
  route(app, E.signInLog, async ({ user, input }) => signin.orgSignIns(app, await ctx(user, input.orgId), input));
  route(app, E.signInExport, async ({ user, input, reply }) => {
    const entries = await signin.orgSignInsForExport(app, await ctx(user, input.orgId), input);
    const header = ['time', 'username', 'event', 'method', 'success', 'reason', 'ip', 'browser'];
    const rows = entries.map((entry) => [new Date(entry.at), entry.username, entry.event, entry.method, entry.success ? 'yes' : 'no', entry.reason, entry.ip, entry.browser]);
    const bytes = writeXlsx('sign-in log', header, rows, [20, 16, 10, 10, 8, 36, 16, 48]);
    return reply
      .header('content-type', E.signInExport.raw.contentType)
      .header('content-disposition', 'attachment; filename="signin-log.xlsx"')
      .send(Buffer.from(bytes));
  });

  // Password policies
  const policyCtx = async (user: Parameters<typeof orgContext>[1], orgId: number | undefined): Promise<policies.PolicyContext> => ({
    orgId: (await ctx(user, orgId)).orgId,
    admin: user.isAdmin && !user.isMember,
    actorName: user.name,
  });
  route(app, P.rulesForRegister, async () => policies.registerRules(app.db));
  route(app, P.ownRules, async ({ user }) => policies.ownRules(app.db, user.row));
  route(app, P.list, async ({ user, input }) => policies.listPolicies(app.db, await policyCtx(user, input.orgId), input));
  route(app, P.save, async ({ user, input, request }) => {
    const { orgId, ...body } = input;
    const { before, after } = await policies.savePolicy(app, await policyCtx(user, orgId), body);
    request.operationChange = { record: `id=${after.id} name=${after.name}`, before, after };
    return after;
  });
  route(app, P.delete, async ({ user, input, request }) => {
    const result = await policies.deletePolicies(app.db, await policyCtx(user, undefined), input.ids);
    request.operationChange = { record: `ids=${input.ids.join(',')}` };
    return result;
  });

  // The services the sign-in relies on: mail, SMS, captcha
  route(app, S.mail, async ({ user, input }) => services.mailSettingsOf(app, await ctx(user, input.orgId)));
  route(app, S.saveMail, async ({ user, input, request }) => {
    const { orgId, ...body } = input;
    const { before, after } = await services.saveMail(app, await ctx(user, orgId), body);
    request.operationChange = { record: 'mail', before, after: after.settings };
    return after;
  });
  route(app, S.testMail, async ({ user, input }) => services.sendTestMail(app, await ctx(user, input.orgId), input.to));
  route(app, S.emailList, async ({ user, input }) => services.emailList(app, await ctx(user, input.orgId), input));
  route(app, S.sms, async ({ user, input }) => services.smsSettingsOf(app, await ctx(user, input.orgId)));
  route(app, S.saveSms, async ({ user, input, request }) => {
    const { orgId, ...body } = input;
    const { before, after } = await services.saveSms(app, await ctx(user, orgId), body);
    request.operationChange = { record: 'sms', before, after: after.settings };
    return after;
  });
  route(app, S.testSms, async ({ user, input }) => services.sendTestSms(app, await ctx(user, input.orgId), input.phone));
  route(app, S.smsList, async ({ user, input }) => services.smsList(app, await ctx(user, input.orgId), input));
  route(app, S.captcha, async ({ user }) => services.captchaOf(app, user));
  route(app, S.saveCaptcha, async ({ user, input, request }) => {
    const { before, after } = await services.saveCaptcha(app, user, input);
    request.operationChange = { record: 'captcha', before, after: after.settings };
    return after;
  });
  route(app, S.captchaList, async ({ user, input }) => {
    await ctx(user, input.orgId);
    return services.captchaList(app, input);
  });

  // A forgotten password, and where its codes go
  route(app, R.forgotSend, async ({ input, request, reply }) => {
    reply.header('cache-control', 'no-store');
    return reset.sendResetCode(app, input, signInOrigin(request));
  });
  route(app, R.forgotReset, async ({ input, request }) => {
    const { endedSessionIds } = await reset.resetWithCode(app, input, signInOrigin(request));
    app.push.closeSessions(endedSessionIds);
    return null;
  });
  route(app, R.contact, async ({ user }) => reset.ownContact(user));
  route(app, R.saveContact, async ({ user, input }) => reset.saveOwnContact(app, user, input));
}
