// Zod inputs whose bounds, patterns and values are the contract's, read from the SDK's generated rules
// (`SCHEMA_RULES`, `BODY_RULES`, `QUERY_RULES`, generated from openapi.yaml), never copied: when the
// contract changes a limit, the tools' schemas (and their snapshots) follow.
import { BODY_RULES, QUERY_RULES, SCHEMA_RULES } from "@tracker/sdk";
import { z } from "zod";

/** One property's rule as the SDK generates it. */
export interface Rule {
  readonly type?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly pattern?: string;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly enum?: readonly unknown[];
  readonly items?: Rule;
}

export { BODY_RULES as body, QUERY_RULES as query, SCHEMA_RULES as schema };

/** A string with the rule's length bounds and pattern. */
export function text(rule: Rule): z.ZodString {
  let s = z.string();
  if (rule.minLength !== undefined) s = s.min(rule.minLength);
  if (rule.maxLength !== undefined) s = s.max(rule.maxLength);
  if (rule.pattern !== undefined) s = s.regex(new RegExp(rule.pattern));
  return s;
}

/** A whole number with the rule's bounds. */
export function whole(rule: Rule): z.ZodNumber {
  let n = z.number().int();
  if (rule.minimum !== undefined) n = n.min(rule.minimum);
  if (rule.maximum !== undefined) n = n.max(rule.maximum);
  return n;
}

/** An array of `item` with the rule's item-count bounds. */
export function list<T extends z.ZodType>(rule: Rule, item: T): z.ZodArray<T> {
  let a = z.array(item);
  if (rule.minItems !== undefined) a = a.min(rule.minItems);
  if (rule.maxItems !== undefined) a = a.max(rule.maxItems);
  return a;
}

/** An array of strings, each with the rule's item bounds, and the rule's count bounds. */
export function texts(rule: Rule): z.ZodArray<z.ZodString> {
  return list(rule, text(rule.items ?? {}));
}

/** One of the rule's string values. */
export function oneOf<const V extends readonly string[]>(rule: {
  readonly enum?: V;
}): z.ZodEnum<{ [K in V[number]]: K }> {
  if (!rule.enum?.length) throw new Error("internal error: the contract rule has no values");
  return z.enum(rule.enum as unknown as [V[number], ...V[number][]]) as never;
}
