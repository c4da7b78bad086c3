import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestServer } from "../../test/harness.js";

/**
 * Password reset by a link an admin makes (openapi.yaml, `POST /members/{userId}/password-reset`): shown
 * once, used once, expiring; e-mailed through a real SMTP server this test runs, whose mail is read and
 * whose link is followed.
 */
const mails: { to: string[]; text: string }[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  onData(stream, session, done) {
    let text = "";
    stream.setEncoding("utf8");
    stream.on("data", (d: string) => {
      text += d;
    });
    stream.on("end", () => {
      mails.push({ to: session.envelope.rcptTo.map((r) => r.address), text });
      done();
    });
  },
});
let smtpPort = 0;
beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

const srv = useTestServer({
  get smtpUrl() {
    return `smtp://127.0.0.1:${smtpPort}`;
  },
});

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await srv.fetch(
    new Request(`${srv.url}/api/v1${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    }),
  );
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, res };
}

describe("password reset", () => {
  it("e-mails the admin's link; following it sets the password once and ends the person's sessions", async () => {
    const { apiKey } = await srv.bootstrap();
    const member = await srv.addMember(apiKey.token, "member");
    const admin = srv.client(apiKey.token);
    const made = await admin.POST("/members/{userId}/password-reset", {
      params: { path: { userId: member.userId } },
    });
    expect(made.response.status).toBe(201);
    expect(made.data!.reset.emailed).toBe(true);

    const mail = mails.find((m) => m.to.includes(member.email));
    expect(mail).toBeDefined();
    // The link as the person reads it in the mail (quoted-printable may wrap it: unwrap soft line breaks).
    const text = mail!.text.replace(/=\r?\n/g, "");
    const link = /(http:\/\/\S+\/reset\/(rst_[\w-]+))/.exec(text);
    expect(link?.[1]).toBe(made.data!.reset.url);
    const token = link![2]!;

    // A session the person had before (a first password set through the link, then signed in).
    expect((await post("/auth/password-reset", { token, password: "first password 1" })).status).toBe(200);
    const before = await post("/auth/sign-in", { email: member.email, password: "first password 1" });
    expect(before.status).toBe(200);
    const cookie = /tracker_session=([^;]+)/.exec(before.res.headers.get("set-cookie")!)![1]!;

    const reused = await post("/auth/password-reset", { token, password: "second password 2" });
    expect({ status: reused.status, code: reused.body.code }).toEqual({ status: 409, code: "conflict" });
    expect((await post("/auth/sign-in", { email: member.email, password: "second password 2" })).status).toBe(
      401,
    );

    const again = await admin.POST("/members/{userId}/password-reset", {
      params: { path: { userId: member.userId } },
    });
    const second = again.data!.reset.url.split("/").pop()!;
    expect(
      (await post("/auth/password-reset", { token: second, password: "second password 2" })).status,
    ).toBe(200);
    const ended = await srv.fetch(
      new Request(`${srv.url}/api/v1/auth/session`, { headers: { cookie: `tracker_session=${cookie}` } }),
    );
    expect(ended.status).toBe(401);
    expect((await post("/auth/sign-in", { email: member.email, password: "first password 1" })).status).toBe(
      401,
    );
    expect((await post("/auth/sign-in", { email: member.email, password: "second password 2" })).status).toBe(
      200,
    );
  });

  it("refuses an expired link, an unknown one, a non-admin, and a user of another workspace", async () => {
    const { apiKey } = await srv.bootstrap();
    const member = await srv.addMember(apiKey.token, "member");
    const admin = srv.client(apiKey.token);
    const made = await admin.POST("/members/{userId}/password-reset", {
      params: { path: { userId: member.userId } },
    });
    const token = made.data!.reset.url.split("/").pop()!;
    await srv.query("update password_resets set expires_at = now() - interval '1 second'");
    const expired = await post("/auth/password-reset", { token, password: "too late password" });
    expect({ status: expired.status, code: expired.body.code }).toEqual({
      status: 410,
      code: "reset_expired",
    });
    expect(
      (await post("/auth/password-reset", { token: "rst_nothing", password: "whatever 12345" })).status,
    ).toBe(404);

    const byMember = await srv
      .client(member.token)
      .POST("/members/{userId}/password-reset", { params: { path: { userId: member.userId } } });
    expect(byMember.error!.code).toBe("admin_required");
    const stranger = await srv.bootstrap();
    const elsewhere = await admin.POST("/members/{userId}/password-reset", {
      params: { path: { userId: stranger.user.id } },
    });
    expect(elsewhere.response.status).toBe(404);
  });
});
