// A real SMTP server on loopback that keeps what it receives, for tests of the mails the app sends.
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  to: string[];
  /** The raw message: headers and body as sent (see mailText for a readable body). */
  data: string;
}

export interface Mailbox {
  port: number;
  url: string;
  mails: ReceivedMail[];
  /** While true, every message is refused with a 550 (a mailbox the server cannot deliver to). */
  refusing: boolean;
  close(): Promise<void>;
}

export async function startMailbox(): Promise<Mailbox> {
  const mails: ReceivedMail[] = [];
  let box: Mailbox | undefined;
  const smtp = new SMTPServer({
    disabledCommands: ["STARTTLS", "AUTH"],
    onData(stream, session, callback) {
      let data = "";
      stream.on("data", (chunk: Buffer) => (data += chunk.toString("utf8")));
      stream.on("end", () => {
        if (box?.refusing) return callback(Object.assign(new Error("mailbox unavailable"), { responseCode: 550 }));
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), data });
        callback();
      });
    },
  });
  const port = await new Promise<number>((resolve) =>
    smtp.listen(0, "127.0.0.1", () => resolve((smtp.server.address() as { port: number }).port)),
  );
  box = {
    port,
    url: `smtp://127.0.0.1:${port}`,
    mails,
    refusing: false,
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
  return box;
}

/** Folded headers, quoted-printable soft breaks and UTF-8 escapes undone, so assertions read the text as written. */
export function mailText(raw: string): string {
  const qp = raw.replace(/\r\n[ \t]/g, " ").replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < qp.length; i++) {
    const m = /^=([0-9A-F]{2})/.exec(qp.slice(i, i + 3));
    if (m) {
      bytes.push(parseInt(m[1]!, 16));
      i += 2;
    } else bytes.push(...new TextEncoder().encode(qp[i]!));
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}
