/** A self-contained, readable API reference rendered from the contract (no external scripts or fonts). */
type Json = Record<string, unknown>;

const esc = (s: unknown) =>
  String(s ?? "").replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);

/** Paragraphs and inline code from the contract's Markdown-ish descriptions, escaped. */
function prose(text: unknown): string {
  return String(text ?? "")
    .split(/\n{2,}/)
    .filter((p) => p.trim())
    .map(
      (p) =>
        `<p>${esc(p)
          .replace(/`([^`]+)`/g, "<code>$1</code>")
          .replace(/\n/g, "<br>")}</p>`,
    )
    .join("");
}

function refName(schema: unknown): string {
  const s = (schema ?? {}) as Json;
  if (typeof s.$ref === "string") return s.$ref.split("/").pop()!;
  if (s.type === "array") return `${refName(s.items)}[]`;
  return Array.isArray(s.type) ? s.type.join(" | ") : String(s.type ?? "object");
}

export function renderDocs(doc: Json): string {
  const info = (doc.info ?? {}) as Json;
  const paths = (doc.paths ?? {}) as Record<string, Json>;
  const byTag = new Map<string, string[]>();
  for (const [p, item] of Object.entries(paths)) {
    for (const method of ["get", "post", "put", "patch", "delete"]) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      const tag = ((op.tags as string[] | undefined) ?? ["Other"])[0]!;
      const params = ((op.parameters ?? []) as Json[])
        .map((x) => {
          const ref = typeof x.$ref === "string" ? x.$ref.split("/").pop() : undefined;
          return ref
            ? `<li><code>${esc(ref)}</code> (shared)</li>`
            : `<li><code>${esc(x.name)}</code> in ${esc(x.in)}${x.required ? ", required" : ""}: ${esc(refName(x.schema))} ${esc(x.description ?? "")}</li>`;
        })
        .join("");
      const body = ((op.requestBody as Json | undefined)?.content as Json | undefined)?.[
        "application/json"
      ] as Json | undefined;
      const responses = Object.entries((op.responses ?? {}) as Record<string, Json>)
        .map(
          ([status, r]) =>
            `<li><b>${esc(status)}</b> ${esc(r.description ?? (r.$ref as string)?.split("/").pop())}</li>`,
        )
        .join("");
      const html = `<section class="op" id="${esc(op.operationId)}">
<h3><span class="m ${method}">${method.toUpperCase()}</span> <code>${esc(p)}</code> <small>${esc(op.operationId)}</small></h3>
<p><b>${esc(op.summary)}</b></p>${prose(op.description)}
${params ? `<h4>Parameters</h4><ul>${params}</ul>` : ""}
${body ? `<h4>Body</h4><p><code>${esc(refName(body.schema))}</code></p>` : ""}
<h4>Responses</h4><ul>${responses}</ul></section>`;
      byTag.set(tag, [...(byTag.get(tag) ?? []), html]);
    }
  }
  const schemas = Object.entries(
    ((doc.components as Json | undefined)?.schemas ?? {}) as Record<string, Json>,
  )
    .map(
      ([name, s]) =>
        `<section id="schema-${esc(name)}"><h3>${esc(name)}</h3>${prose(s.description)}<pre>${esc(JSON.stringify(s, null, 2))}</pre></section>`,
    )
    .join("");
  const nav = [...byTag.keys()].map((t) => `<li><a href="#tag-${esc(t)}">${esc(t)}</a></li>`).join("");
  const sections = [...byTag.entries()]
    .map(([t, ops]) => `<h2 id="tag-${esc(t)}">${esc(t)}</h2>${ops.join("")}`)
    .join("");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(info.title)} API reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:15px/1.5 system-ui,sans-serif;margin:0;display:flex}nav{width:220px;padding:1rem;border-right:1px solid #ddd;position:sticky;top:0;height:100vh;overflow:auto}main{padding:1rem 2rem;max-width:960px}.op{border-top:1px solid #eee;padding:.5rem 0}.m{font-weight:700;padding:0 .3rem;border-radius:3px;color:#fff}.get{background:#2b7}.post{background:#27b}.put{background:#a6b}.patch{background:#b82}.delete{background:#c33}pre{background:#f6f6f6;padding:.5rem;overflow:auto;font-size:12px}small{color:#888}</style>
</head><body><nav><b>${esc(info.title)}</b> ${esc(info.version)}<ul>${nav}<li><a href="#schemas">Schemas</a></li></ul><a href="/api/v1/openapi.json">openapi.json</a></nav>
<main><h1>${esc(info.title)} API reference</h1>${prose(info.description)}${sections}<h2 id="schemas">Schemas</h2>${schemas}</main></body></html>`;
}
