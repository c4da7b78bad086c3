import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { useTestServer } from "../../test/harness.js";

/**
 * Notification e-mail (openapi.yaml, `putNotificationSettings`) through a real SMTP server this test runs:
 * `instant` mails each notification shortly after the change commits, `daily` sends one e-mail of the unread
 * ones at the digest hour, once, and `none` sends nothing. The mails name the issue and link to it.
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
      // Quoted-printable may wrap long lines: unwrap soft line breaks.
      mails.push({ to: session.envelope.rcptTo.map((r) => r.address), text: text.replace(/=\r?\n/g, "") });
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
  // The outbox looked at often; the daily e-mails only when the test asks.
  notificationMail: { pollMs: 100, digestHour: 8, digestCheckMs: 3_600_000 },
});

const mailsTo = (email: string) => mails.filter((m) => m.to.includes(email));

async function setup() {
  const { apiKey, workspace } = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
  const admin = srv.client(apiKey.token);
  const member = await srv.addMember(apiKey.token, "member");
  return { admin, member, memberClient: srv.client(member.token), workspace };
}

describe("notification e-mail", () => {
  it("e-mails an instant person when someone else assigns them an issue, naming and linking it", async () => {
    const { admin, member, memberClient, workspace } = await setup();
    const settings = await memberClient.PUT("/my/notification-settings", { body: { email: "instant" } });
    expect(settings.data!.settings).toEqual({ email: "instant", emailAvailable: true, digestHour: 8 });
    expect((await memberClient.GET("/my/notification-settings")).data!.settings.email).toBe("instant");

    const made = await admin.POST("/issues", { body: { team: "ENG", title: "Fix the login page" } });
    const identifier = made.data!.issue.identifier;
    await admin.PATCH("/issues/{identifier}", {
      params: { path: { identifier } },
      body: { assignee: member.email },
    });
    await vi.waitFor(() => expect(mailsTo(member.email)).toHaveLength(1), { timeout: 10_000 });
    const text = mailsTo(member.email)[0]!.text;
    expect(text).toContain(`${identifier} Fix the login page`);
    expect(text).toContain("assigned it to you");
    expect(text).toContain(
      `${srv.url.replace("localhost", "127.0.0.1")}/${workspace.slug}/issue/${identifier}`,
    );
    // Sent once: the outbox is empty.
    expect(await srv.query("select 1 from notification_mails")).toEqual([]);
  });

  it("sends nothing to a person who chose the inbox only", async () => {
    const { admin, member } = await setup();
    const made = await admin.POST("/issues", {
      body: { team: "ENG", title: "Inbox only", assignee: member.email },
    });
    expect(made.response.status).toBe(201);
    await new Promise((r) => setTimeout(r, 500));
    expect(mailsTo(member.email)).toEqual([]);
    expect(await srv.query("select 1 from notification_mails")).toEqual([]);
  });

  it("sends a daily person one e-mail of the unread notifications at the digest hour, once", async () => {
    const { admin, member, memberClient, workspace } = await setup();
    await memberClient.PUT("/my/notification-settings", { body: { email: "daily" } });
    const first = await admin.POST("/issues", {
      body: { team: "ENG", title: "Write the docs", assignee: member.email },
    });
    const second = await admin.POST("/issues", {
      body: { team: "ENG", title: "Ship it", assignee: member.email },
    });
    const read = await admin.POST("/issues", {
      body: { team: "ENG", title: "Already read", assignee: member.email },
    });
    const inbox = await memberClient.GET("/my/notifications");
    const readOne = inbox.data!.notifications.find((n) => n.event.issue.title === "Already read")!;
    await memberClient.POST("/my/notifications/read", { body: { ids: [readOne.id] } });
    await new Promise((r) => setTimeout(r, 300));
    expect(mailsTo(member.email)).toEqual([]);

    // A day on: the digest hour has come.
    const tomorrow = new Date(Date.now() + 25 * 3_600_000);
    expect(await srv.running.mailer.sendDueDigests(tomorrow)).toBeGreaterThanOrEqual(1);
    expect(mailsTo(member.email)).toHaveLength(1);
    const text = mailsTo(member.email)[0]!.text;
    for (const made of [first, second]) {
      const identifier = made.data!.issue.identifier;
      expect(text).toContain(identifier);
      expect(text).toContain(`/${workspace.slug}/issue/${identifier}`);
    }
    expect(text).toContain("Write the docs");
    expect(text).not.toContain(read.data!.issue.identifier);
    // The same hour again, by this instance or another: nothing more.
    await srv.running.mailer.sendDueDigests(tomorrow);
    expect(mailsTo(member.email)).toHaveLength(1);
  });

  it("refuses an unknown setting, changing nothing", async () => {
    const { memberClient } = await setup();
    const res = await memberClient.PUT("/my/notification-settings", {
      body: { email: "hourly" as "daily" },
    });
    expect(res.response.status).toBe(400);
    expect((await memberClient.GET("/my/notification-settings")).data!.settings.email).toBe("none");
  });
});
