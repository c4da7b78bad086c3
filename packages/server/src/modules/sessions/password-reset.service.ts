import { randomBytes } from "node:crypto";
import { type EntityManager, LockMode } from "@mikro-orm/postgresql";
import { createTransport } from "nodemailer";
import { hashToken } from "../../http/auth.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { Conflict, Gone, NotFound } from "../../http/problem.js";
import { findById } from "../shared/resolve.query.js";
import { checkPassword, hashPassword } from "../users/password.js";
import { User } from "../users/user.entity.js";
import { Membership } from "../workspaces/workspace.entity.js";
import { PasswordReset } from "./password-reset.entity.js";
import { Session } from "./session.entity.js";

/** How long a reset link works. */
const RESET_HOURS = 24;
const RESET_PREFIX = "rst_";

/**
 * An admin's reset link for a member (openapi.yaml, `POST /members/{userId}/password-reset`): answered once,
 * and e-mailed when the deployment has a mail server. The row is written in a transaction that commits only
 * once the mail was accepted, so a refused mail leaves no working link nobody received.
 */
export async function createPasswordReset(scope: WorkspaceScope, userId: string) {
  return scope.em.transactional(async (em) => {
    const member = await findById(userId, `No member ${userId} in this workspace.`, (id) =>
      em.findOne(
        Membership,
        { workspace: scope.workspace.id, user: id },
        { populate: ["user"], fields: ["user.email", "user.name"] },
      ),
    );
    const token = RESET_PREFIX + randomBytes(32).toString("base64url");
    const expiresAt = new Date(Date.now() + RESET_HOURS * 3_600_000);
    em.create(PasswordReset, { user: userId, tokenHash: hashToken(token), expiresAt });
    await em.flush();
    const url = `${scope.config.publicUrl.replace(/\/$/, "")}/reset/${token}`;
    const emailed = scope.config.smtpUrl
      ? await mailLink(
          scope.config.smtpUrl,
          scope.config.publicUrl,
          member.user.email,
          scope.workspace.name,
          url,
        )
      : false;
    return { url, expiresAt: expiresAt.toISOString(), emailed };
  });
}

async function mailLink(smtpUrl: string, publicUrl: string, to: string, workspace: string, url: string) {
  const host = new URL(publicUrl).hostname;
  const transport = createTransport(smtpUrl);
  try {
    await transport.sendMail({
      from: `Tracker <tracker@${host}>`,
      to,
      subject: `Set a new password for ${workspace}`,
      text: `An admin of ${workspace} made you a link to set a new password. It works once, for ${RESET_HOURS} hours:\n\n${url}\n\nIf you did not ask for this, tell your admin.`,
    });
  } finally {
    transport.close();
  }
  return true;
}

/** Sets the password with a reset link: once, before it expires; every session of the person ends. */
export async function resetPassword(em: EntityManager, token: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(checkPassword(password));
  await em.transactional(async (tem) => {
    const reset = await tem.findOne(
      PasswordReset,
      { tokenHash: hashToken(token) },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!reset) throw new NotFound("No password reset link with that token.");
    if (reset.usedAt) throw new Conflict("conflict", "This reset link has already been used.");
    if (reset.expiresAt <= new Date())
      throw new Gone("reset_expired", "This reset link has expired: ask an admin for a new one.");
    reset.usedAt = new Date();
    await tem.flush();
    await tem.nativeUpdate(User, reset.user.id, { passwordHash });
    await tem.nativeDelete(Session, { user: reset.user.id });
  });
}
