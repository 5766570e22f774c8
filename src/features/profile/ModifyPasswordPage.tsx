import { LockOutlined } from "@ant-design/icons";
import { Alert, App, Button, Card, Form, Input } from "antd";
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { message as catalogue } from "@contract/errors";
import { useDataClient } from "@/app/dataClient";
import { toLang } from "@/app/i18n";
import { SessionContext } from "@/app/session";
import {
  PasswordRuleList,
  passwordRuleValidator,
  usePasswordRules,
} from "@/components/password-rules/PasswordRules";

type PasswordValues = {
  oldPassword: string;
  newPassword: string;
  confirm: string;
};

export function ModifyPasswordPage() {
  const { t, i18n } = useTranslation(["profile", "shell"]);
  const lang = toLang(i18n.language);
  const client = useDataClient();
  const actor = SessionContext.useActorRef();
  const { message } = App.useApp();
  const [form] = Form.useForm<PasswordValues>();
  const [saving, setSaving] = useState(false);
  const rules = usePasswordRules(
    useCallback(() => client.signin.ownPasswordRules(), [client]),
  );
  const newPassword = Form.useWatch("newPassword", form) ?? "";

  const submit = async (values: PasswordValues) => {
    setSaving(true);
    try {
      const { auto } = await client.session.changePsw({
        oldPassword: values.oldPassword,
        newPassword: values.newPassword,
      });
      // This session goes on with the new password token; the server already ended every other one.
      actor.send({ type: "session.passwordChanged", auto });
      form.resetFields();
      void message.success(t("success"), 5);
    } catch {
      // The worker showed the reason (wrong current password, same password, policy).
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <Card title={t("title")} style={{ maxWidth: 560 }}>
        <Alert
          type="info"
          showIcon
          title={t("hint")}
          style={{ marginBottom: 24 }}
        />
        <Form<PasswordValues>
          form={form}
          layout="vertical"
          requiredMark={false}
          onFinish={submit}
          aria-label={t("title")}
        >
          <Form.Item
            name="oldPassword"
            label={t("oldPassword")}
            rules={[
              {
                required: true,
                message: t("shell:common.required", {
                  field: t("oldPassword"),
                }),
              },
            ]}
          >
            <Input.Password
              prefix={<LockOutlined />}
              autoComplete="current-password"
              maxLength={128}
            />
          </Form.Item>
          <Form.Item
            name="newPassword"
            label={t("newPassword")}
            extra={
              <PasswordRuleList
                state={rules}
                password={newPassword}
                lang={lang}
              />
            }
            dependencies={["oldPassword"]}
            rules={[
              {
                required: true,
                message: t("shell:common.required", {
                  field: t("newPassword"),
                }),
              },
              passwordRuleValidator(rules, lang),
              ({ getFieldValue }) => ({
                validator: (_, value) =>
                  !value || getFieldValue("oldPassword") !== value
                    ? Promise.resolve()
                    : Promise.reject(
                        new Error(catalogue("samePassword", lang)),
                      ),
              }),
            ]}
          >
            <Input.Password
              prefix={<LockOutlined />}
              autoComplete="new-password"
              maxLength={64}
            />
          </Form.Item>
          <Form.Item
            name="confirm"
            label={t("confirm")}
            dependencies={["newPassword"]}
            rules={[
              {
                required: true,
                message: t("shell:common.required", { field: t("confirm") }),
              },
              ({ getFieldValue }) => ({
                validator: (_, value) =>
                  !value || getFieldValue("newPassword") === value
                    ? Promise.resolve()
                    : Promise.reject(new Error(t("mismatch"))),
              }),
            ]}
          >
            <Input.Password
              prefix={<LockOutlined />}
              autoComplete="new-password"
              maxLength={64}
            />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={saving}>
            {t("submit")}
          </Button>
        </Form>
      </Card>
      <ContactCard />
    </>
  );
}

type ContactValues = { email: string; phone: string };

/** Where the codes of a forgotten password go (contract/passwordReset.ts). */
function ContactCard() {
  const { t } = useTranslation("profile");
  const client = useDataClient();
  const { message } = App.useApp();
  const [form] = Form.useForm<ContactValues>();
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    client.signin.contact().then(
      (contact) => form.setFieldsValue(contact),
      () => undefined,
    );
  }, [client, form]);
  const submit = async (values: ContactValues) => {
    setSaving(true);
    try {
      form.setFieldsValue(
        await client.signin.saveContact({
          email: values.email.trim(),
          phone: values.phone.trim(),
        }),
      );
      void message.success(t("contact.saved"));
    } catch {
      // The worker showed the reason.
    } finally {
      setSaving(false);
    }
  };
  return (
    <Card title={t("contact.title")} style={{ maxWidth: 560, marginTop: 16 }}>
      <Alert
        type="info"
        showIcon
        title={t("contact.hint")}
        style={{ marginBottom: 16 }}
      />
      <Form<ContactValues>
        form={form}
        layout="vertical"
        onFinish={(values) => void submit(values)}
        initialValues={{ email: "", phone: "" }}
        aria-label={t("contact.title")}
      >
        <Form.Item
          name="email"
          label={t("contact.email")}
          rules={[{ type: "email", message: t("contact.invalidEmail") }]}
        >
          <Input autoComplete="email" maxLength={200} />
        </Form.Item>
        <Form.Item
          name="phone"
          label={t("contact.phone")}
          rules={[
            { pattern: /^\+?\d{6,15}$/, message: t("contact.invalidPhone") },
          ]}
        >
          <Input autoComplete="tel" maxLength={16} />
        </Form.Item>
        <Button htmlType="submit" loading={saving}>
          {t("contact.save")}
        </Button>
      </Form>
    </Card>
  );
}
