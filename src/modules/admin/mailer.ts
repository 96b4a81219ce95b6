// Alert e-mail over SMTP (nodemailer). Configured by SMTP_URL — smtp://user:pass@host:587
// (STARTTLS when the server offers it) or smtps://user:pass@host:465 (TLS from the start) — and
// ALERT_EMAIL_FROM. Without SMTP_URL there is no mailer and the console says e-mail is unavailable.
import { createTransport } from "nodemailer";

export interface Mailer {
  send(message: { to: string[]; subject: string; text: string }): Promise<void>;
}

export const DEFAULT_ALERT_FROM = "Design Intel <alerts@design-intel.invalid>";

export function smtpMailer(url: string, from: string = DEFAULT_ALERT_FROM): Mailer {
  // Bounded so a mail server that hangs can't pile up sends behind the alert checks.
  const transport = createTransport({ url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 });
  return {
    async send({ to, subject, text }) {
      if (to.length === 0) return;
      await transport.sendMail({ from, to, subject, text });
    },
  };
}
