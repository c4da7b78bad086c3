import { readFileSync } from "node:fs";
import { UsageError } from "../../command.js";

/**
 * People of another tracker as emails, which the API's import mode takes (members by email, else
 * placeholders): a `--users FILE` (JSON `{"name, login or id": "email"}`, or CSV lines `name,email`)
 * says who is who; anyone it does not name gets a stable address of the reserved `.invalid` domain
 * (`ada-lovelace@jira.invalid`), a placeholder the workspace can later point at the real person.
 */
export class People {
  /** Display names by email, for the placeholders (`names` of `POST /import/issues`). */
  readonly names: Record<string, string> = {};
  private readonly map = new Map<string, string>();

  constructor(
    private readonly system: string,
    file?: string,
  ) {
    if (!file) return;
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (err) {
      throw new UsageError(`cannot read --users ${file}: ${(err as Error).message}`);
    }
    const trimmed = text.trim();
    const pairs: [string, string][] = trimmed.startsWith("{")
      ? Object.entries(JSON.parse(trimmed) as Record<string, string>)
      : trimmed
          .split(/\r?\n/)
          .filter((l) => l.includes(","))
          .map((l) => {
            const at = l.lastIndexOf(",");
            return [l.slice(0, at).trim(), l.slice(at + 1).trim()];
          });
    for (const [who, email] of pairs)
      if (email.includes("@")) this.map.set(who.toLowerCase(), email.toLowerCase());
  }

  /** The email of someone the other tracker names (several spellings: name, login, id); null for nobody. */
  email(...who: (string | null | undefined)[]): string | undefined {
    const known = who.filter((w): w is string => !!w && w.trim() !== "");
    if (known.length === 0) return undefined;
    for (const w of known) {
      const mapped = this.map.get(w.trim().toLowerCase());
      if (mapped) {
        this.names[mapped] ??= known[0]!.trim();
        return mapped;
      }
    }
    const first = known[0]!.trim();
    if (first.includes("@")) return first.toLowerCase();
    const local =
      first
        .normalize("NFKD")
        .replace(/[^\w\s.-]/g, "")
        .trim()
        .toLowerCase()
        .replace(/[\s_]+/g, "-")
        .replace(/[^a-z0-9.-]/g, "")
        .slice(0, 60) || "someone";
    const email = `${local}@${this.system}.invalid`;
    this.names[email] ??= first;
    return email;
  }
}
