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

export async function userCodeInputSource(
  ctx: KoaContextWithOIDC,
  form: string,
  _out?: unknown,
  err?: { userCode?: string; name?: string },
): Promise<void> {
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
