// Alert e-mails through a real SMTP conversation: nodemailer (the server's mailer, configured by
// SMTP_URL with credentials) talks to an SMTP server on 127.0.0.1 that requires them.
import { afterAll, describe, expect, test } from "bun:test";
import { SMTPServer } from "smtp-server";
import { makeTestApp } from "#tests/support/app";
import { waitFor } from "#tests/support/wait";
import { metricsSample, saveAlertSettings } from "./admin-support";

interface Received {
  from: string;
  to: string[];
  user: string | undefined;
  data: string;
}
const received: Received[] = [];
/** Sign-ins the SMTP server refused: a mailer with wrong credentials got this far, and no further. */
let refused = 0;
const smtp = new SMTPServer({
  disabledCommands: ["STARTTLS"], // plain on loopback; smtps:// and STARTTLS are nodemailer's own, well-trodden paths
  authMethods: ["PLAIN", "LOGIN"],
  onAuth(auth, _session, callback) {
    if (auth.username === "alerts" && auth.password === "s3cret") callback(null, { user: auth.username });
    else {
      refused++;
      callback(new Error("Invalid username or password"));
    }
  },
  onData(stream, session, callback) {
    let data = "";
    stream.on("data", (chunk: Buffer) => (data += chunk.toString("utf8")));
    stream.on("end", () => {
      received.push({
        from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
        to: session.envelope.rcptTo.map((r) => r.address),
        user: session.user as string | undefined,
        data,
      });
      callback();
    });
  },
});
const port = await new Promise<number>((resolve) =>
  smtp.listen(0, "127.0.0.1", () => resolve((smtp.server.address() as { port: number }).port)),
);
afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

const sample = metricsSample;

const until = (what: string, check: () => boolean) => waitFor(what, check, 15_000, 20);

describe("alert e-mails", () => {
  test("a crossing mails every active admin through SMTP with credentials; not users, not disabled admins", async () => {
    received.length = 0;
    const t = makeTestApp({
      env: { SMTP_URL: `smtp://alerts:s3cret@127.0.0.1:${port}`, ALERT_EMAIL_FROM: "Design Intel <alerts@example.com>" },
    });
    const boss = await t.signup("boss@example.com"); // first account: admin
    const second = await t.signup("second@example.com");
    const gone = await t.signup("gone@example.com");
    await t.signup("plain@example.com");
    const h = t.auth(boss.token);
    for (const u of [second, gone]) await t.call("PATCH", `/api/admin/users/${u.user.id}`, { headers: h, body: { role: "admin" } });
    await t.call("PATCH", `/api/admin/users/${gone.user.id}`, { headers: h, body: { disabled: true } });

    const settings = await t.call("GET", "/api/admin/alert-settings", { headers: h });
    expect(settings.json.channels).toEqual({ email: true, chat: false });
    await saveAlertSettings(t, boss.token, { emailNotifications: true });

    expect(await t.services.admin.hostAlerts.check(sample({ cpu: 63.2 }))).toHaveLength(1);
    await until("the alert e-mail", () => received.length > 0);
    expect(received).toHaveLength(1);
    const mail = received[0]!;
    expect(mail.user).toBe("alerts");
    expect(mail.from).toBe("alerts@example.com");
    expect(mail.to.sort()).toEqual(["boss@example.com", "second@example.com"]);
    expect(mail.data).toContain("Subject: Design Intel alert: CPU usage at 63.2%");
    expect(mail.data).toContain("CPU usage at 63.2% crossed the 50% alert threshold.");
    expect(mail.data).toContain("CPU usage: 63.2% (threshold 50%)");
  });

  test("with e-mail notifications off nothing is mailed; without SMTP_URL the console is told e-mail is unavailable", async () => {
    received.length = 0;
    const t = makeTestApp({ env: { SMTP_URL: `smtp://alerts:s3cret@127.0.0.1:${port}` } });
    const boss = await t.signup("boss@example.com");
    await saveAlertSettings(t, boss.token, { emailNotifications: false });
    expect(await t.services.admin.hostAlerts.check(sample({ cpu: 90 }))).toHaveLength(1);
    await Bun.sleep(300);
    expect(received).toHaveLength(0);

    const none = makeTestApp();
    const admin = await none.signup("boss@example.com");
    expect((await none.call("GET", "/api/admin/alert-settings", { headers: none.auth(admin.token) })).json.channels).toEqual({
      email: false,
      chat: false,
    });
  });

  test("a mail server that refuses the credentials costs the e-mail, never the alert", async () => {
    received.length = 0;
    const t = makeTestApp({ env: { SMTP_URL: `smtp://alerts:wrong@127.0.0.1:${port}` } });
    const boss = await t.signup("boss@example.com");
    const h = t.auth(boss.token);
    await saveAlertSettings(t, boss.token, { emailNotifications: true });
    const before = refused;
    expect(await t.services.admin.hostAlerts.check(sample({ cpu: 90 }))).toHaveLength(1);
    // The mailer really tried: the server refused its sign-in, so nothing can follow on that connection.
    await until("the SMTP server to refuse the sign-in", () => refused > before);
    expect(received).toHaveLength(0);
    // The alert itself still landed everywhere else, and the next check runs as usual.
    expect((await t.call("GET", "/api/admin/audit-logs?action=alert.raised", { headers: h })).json.total).toBe(1);
    expect(await t.services.admin.hostAlerts.check(sample({ cpu: 10, memory: 95 }))).toHaveLength(1);
  });
});
