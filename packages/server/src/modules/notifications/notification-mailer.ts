import type { EntityManager } from "@mikro-orm/postgresql";
import { createTransport } from "nodemailer";
import type { NotificationMailSettings } from "../../config.js";
import type { Orm } from "../../db/orm.js";
import type { Logger } from "../../logger.js";
import * as db from "./notification-settings.query.js";

export interface MailerDeps {
  orm: Orm;
  logger: Logger;
  /** The deployment's mail server (`TRACKER_SMTP_URL`); none: nothing is sent and the outbox is emptied. */
  smtpUrl: string | undefined;
  /** The board's address, for links to issues (known once the server listens). */
  publicUrl: () => string;
  settings: NotificationMailSettings;
}

/** Outbox rows claimed at a time, and how long a claim holds before another instance may take it. */
const CLAIM = 20;
const LEASE_SECONDS = 300;
/** Attempts before an `instant` e-mail the mail server keeps refusing is given up (logged). */
const MAX_ATTEMPTS = 8;

/**
 * Notification e-mail (openapi.yaml, `putNotificationSettings`), off every request's path. Every instance
 * runs one:
 * - `instant`: the outbox `notification_mails` (filled in each change's own transaction by the trigger of
 *   `db/functions/notification-mails.ts`) is polled every `pollMs`; claims are leased (SKIP LOCKED), each
 *   e-mail is sent, then its row deleted. A crash between the two sends it again: at least once.
 * - `daily`: every `digestCheckMs`, {@link sendDueDigests} sends each person due at the last `digestHour`
 *   one e-mail, each person's row locked for the send (SKIP LOCKED), so among instances one sends it, once.
 */
export class NotificationMailer {
  private timers: NodeJS.Timeout[] = [];
  private polling: Promise<unknown> | undefined;
  private digesting: Promise<unknown> | undefined;

  constructor(private readonly deps: MailerDeps) {}

  start(): void {
    const { settings } = this.deps;
    const poll = setInterval(() => this.pollSoon(), settings.pollMs);
    const digest = setInterval(() => this.digestSoon(), settings.digestCheckMs);
    const first = setTimeout(() => this.digestSoon(), Math.min(60_000, settings.digestCheckMs));
    for (const t of [poll, digest, first]) t.unref();
    this.timers = [poll, digest, first];
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    await Promise.allSettled([this.polling, this.digesting]);
  }

  private pollSoon(): void {
    this.polling ??= this.sendInstant()
      .catch((err) =>
        this.deps.logger.warn("mail: sending notifications failed", { error: (err as Error).message }),
      )
      .finally(() => {
        this.polling = undefined;
      });
  }

  private digestSoon(): void {
    this.digesting ??= this.sendDueDigests()
      .catch((err) => this.deps.logger.warn("mail: daily e-mails failed", { error: (err as Error).message }))
      .finally(() => {
        this.digesting = undefined;
      });
  }

  /** Sends what the outbox holds that is due, a claim at a time; answers how many e-mails were sent. */
  async sendInstant(): Promise<number> {
    let sent = 0;
    for (;;) {
      const em = this.deps.orm.em.fork();
      const claimed = await db.claimInstantMails(em, CLAIM, LEASE_SECONDS);
      if (!claimed.length) return sent;
      const done: string[] = [];
      for (const item of claimed) {
        if (!item.wanted || !this.deps.smtpUrl) {
          done.push(item.id);
          continue;
        }
        try {
          await this.send(item.to, instantMail(item, this.deps.publicUrl()));
          done.push(item.id);
          sent++;
        } catch (err) {
          if (item.attempts >= MAX_ATTEMPTS) {
            this.deps.logger.warn("mail: a notification e-mail was given up", {
              attempts: item.attempts,
              error: (err as Error).message,
            });
            done.push(item.id);
          } else await db.retryMailLater(em, item.id, Math.min(3_600, 30 * 2 ** item.attempts));
        }
      }
      await db.finishMails(em, done);
      if (claimed.length < CLAIM) return sent;
    }
  }

  /**
   * Sends the daily e-mail of everyone due at the last `digestHour` at or before `now` (a test passes a
   * later `now` instead of waiting for the hour), one person per transaction. Answers how many were sent.
   */
  async sendDueDigests(now = new Date()): Promise<number> {
    if (!this.deps.smtpUrl) return 0;
    const scheduled = lastScheduled(now, this.deps.settings.digestHour);
    let sent = 0;
    // People whose e-mail failed this time: tried again at the next check, after the others.
    const failed: string[] = [];
    for (;;) {
      const more = await this.deps.orm.em.fork().transactional(async (em: EntityManager) => {
        const due = await db.lockNextDigest(em, scheduled, failed);
        if (!due) return false;
        const items = await db.unreadSince(em, due.user_id, due.since, now);
        if (items.length) {
          try {
            await this.send(items[0]!.to, digestMail(items, this.deps.publicUrl()));
          } catch (err) {
            this.deps.logger.warn("mail: a daily e-mail failed", { error: (err as Error).message });
            failed.push(due.user_id);
            return true;
          }
          sent++;
        }
        await db.digestSent(em, due.user_id, now);
        return true;
      });
      if (!more) return sent;
    }
  }

  private async send(to: string, mail: { subject: string; text: string }): Promise<void> {
    const transport = createTransport(this.deps.smtpUrl);
    try {
      await transport.sendMail({
        from: `Tracker <tracker@${new URL(this.deps.publicUrl()).hostname}>`,
        to,
        ...mail,
      });
    } finally {
      transport.close();
    }
  }
}

/** The last instant at or before `now` whose UTC hour is `hour`, on the hour. */
export function lastScheduled(now: Date, hour: number): Date {
  const at = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), hour));
  if (at > now) at.setUTCDate(at.getUTCDate() - 1);
  return at;
}

function issueLink(item: db.MailItem, publicUrl: string): string {
  return `${publicUrl.replace(/\/$/, "")}/${item.slug}/issue/${item.identifier}`;
}

/** What happened, in words: "Ada assigned you", "Ada commented", ... */
function whatHappened(item: db.MailItem): string {
  const who = item.actor ?? "Automation";
  const p = item.payload as {
    to?: { id?: string; name?: string } | null;
    comment?: { body?: string };
    changes?: Record<string, unknown>;
  };
  switch (item.type) {
    case "issue_created":
      return `${who} created it`;
    case "assignee_changed":
      return p.to?.id === item.recipientId
        ? `${who} assigned it to you`
        : `${who} assigned it to ${p.to?.name ?? "nobody"}`;
    case "state_changed":
      return `${who} moved it to ${p.to?.name ?? "another state"}`;
    case "comment_added":
      return `${who} commented: ${(p.comment?.body ?? "").slice(0, 300)}`;
    case "labels_changed":
      return `${who} changed its labels`;
    case "issue_moved":
      return `${who} moved it to another team`;
    case "issue_archived":
      return `${who} archived it`;
    case "issue_unarchived":
      return `${who} restored it`;
    case "pull_request":
      return "A pull request changed";
    default:
      return `${who} updated ${Object.keys(p.changes ?? {}).join(", ") || "it"}`;
  }
}

export function instantMail(item: db.MailItem, publicUrl: string) {
  const what = whatHappened(item);
  return {
    subject: `[${item.workspace}] ${item.identifier} ${item.title}`,
    text: `${item.identifier} ${item.title}\n${what}.\n\n${issueLink(item, publicUrl)}\n\nYou get this as the issue's ${REASON[item.reason] ?? "follower"}. Choose how you are told of notifications in Settings, My account.\n`,
  };
}

export function digestMail(items: db.MailItem[], publicUrl: string) {
  const lines = items.map(
    (item) =>
      `- [${item.workspace}] ${item.identifier} ${item.title}: ${whatHappened(item)}.\n  ${issueLink(item, publicUrl)}`,
  );
  return {
    subject: `Tracker: ${items.length} unread notification${items.length === 1 ? "" : "s"}`,
    text: `Your unread notifications since the last e-mail:\n\n${lines.join("\n")}\n\nChoose how you are told of notifications in Settings, My account.\n`,
  };
}

const REASON: Record<string, string> = {
  mentioned: "mentioned person",
  assigned: "assignee",
  created: "creator",
  subscribed: "follower",
};
