import type { KoaContextWithOIDC } from "oidc-provider";

/**
 * The device authorization grant's own pages (RFC 8628, `/oauth/device`): where a person types (or
 * confirms) the code a command line shows, before the consent page. Plain HTML; the provider supplies
 * each form (with its anti-forgery field); everything shown is escaped.
 */

const html = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${html(title)} · Tracker</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 32rem; margin: 3rem auto; line-height: 1.5">
<h1>${html(title)}</h1>
${body}
</body></html>`;
}

/** Whether the request asks for a page (a browser's `Accept`) rather than JSON (anything else, `*\/*`). */
export function prefersPage(ctx: { accepts(...types: string[]): string | false }): boolean {
  return ctx.accepts("json", "html") === "html";
}

/**
 * The code's page; also what the provider answers when a post of it fails (`err`). A post that found no
 * session of the provider's (no cookie, or an expired one) is refused before anything is read; its
 * answer must not save the fresh form secret the provider made meanwhile, since that session was never
 * stored (the provider would fail saving it, and answer 500), so the person is sent to a fresh page.
 */
export async function userCodeInputSource(
  ctx: KoaContextWithOIDC,
  form: string,
  out?: { error: string; error_description?: string },
  err?: { userCode?: string; name?: string },
): Promise<void> {
  const session = ctx.oidc.session as
    | (typeof ctx.oidc.session & { exp?: number; touched?: boolean })
    | undefined;
  const unsaved = err !== undefined && session !== undefined && typeof session.exp !== "number";
  if (unsaved) session.touched = false;
  if (err && out && ctx.status >= 400 && !prefersPage(ctx)) {
    ctx.body = { error: out.error, error_description: out.error_description };
    return;
  }
  if (unsaved) {
    ctx.body = page(
      "Connect a device",
      `<p>This page has expired. <a href="${html(ctx.oidc.urlFor("code_verification"))}">Open it again</a> and enter the code your device shows.</p>`,
    );
    return;
  }
  const message = err
    ? err.userCode || err.name === "NoCodeError"
      ? "That code is not right, or has expired. Try again."
      : "The request could not be completed. Start again from your device."
    : "Enter the code your device shows.";
  ctx.body = page(
    "Connect a device",
    `<p>${html(message)}</p>${form}
<p><button type="submit" form="op.deviceInputForm">Continue</button></p>`,
  );
}

export async function userCodeConfirmSource(
  ctx: KoaContextWithOIDC,
  form: string,
  client: { clientName?: string; clientId: string },
  _deviceInfo: unknown,
  userCode: string,
): Promise<void> {
  ctx.body = page(
    "Confirm the code",
    `<p><strong>${html(client.clientName ?? client.clientId)}</strong> should be showing this code:</p>
<p><code style="font-size: 2em">${html(userCode)}</code></p>
<p>If it does not, or you did not start this, abort.</p>${form}
<p><button type="submit" form="op.deviceConfirmForm">Continue</button>
<button type="submit" form="op.deviceConfirmForm" name="abort" value="yes">Abort</button></p>`,
  );
}

export async function successSource(ctx: KoaContextWithOIDC): Promise<void> {
  const name = ctx.oidc.client?.clientName;
  ctx.body = page(
    "Device connected",
    `<p>${name ? `${html(name)} is` : "Your device is"} signed in. You can close this page and go back to it.</p>`,
  );
}
