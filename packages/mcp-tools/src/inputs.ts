// Inputs several tools share, described once so every tool says the same thing in the same few words.
import { PRIORITY_NAMES } from "@tracker/sdk";
import { z } from "zod";
import { query, schema, whole } from "./contract.js";

export const identifierInput = z.string().min(1).max(40).describe("Issue identifier, e.g. `ENG-123`.");

export const identifiersInput = z
  .array(z.string().min(1).max(40))
  .min(1)
  .max(50)
  .describe("Issue identifiers, e.g. [`ENG-1`, `ENG-2`].");

export const teamInput = z.string().min(1).max(40).describe("Team key, e.g. `ENG`.");

export const userInput = z.string().min(1).max(320).describe("Email, user id, or `me`.");

export const priorityInput = z
  .union([z.enum(PRIORITY_NAMES), z.number().int().min(0).max(4)])
  .describe("urgent, high, medium, low, none (or 1-4, 0).");

/** A page size of a list the tool pages itself (the API answers it whole): 1-`max`, `fallback` by default. */
export const limitInput = (max: number, fallback: number) =>
  z.number().int().min(1).max(max).default(fallback).describe(`1-${max}, default ${fallback}.`);

/**
 * A page size of a list the API pages: within the contract's `limit`; `fallback` by default. No description:
 * the schema's minimum, maximum and default already say it, and default tools pay for every byte.
 */
export const pageLimitInput = (fallback: number) => whole(query.listIssues.limit).default(fallback);

export const projectRefInput = z.string().min(1).max(200).describe("Project name or id.");

export const initiativeRefInput = z.string().min(1).max(200).describe("Initiative name or id.");

/** Exactly one subject of a status update: a team, a project or an initiative. */
export const updateSubjectInput = {
  team: teamInput.optional(),
  project: projectRefInput.optional(),
  initiative: initiativeRefInput.optional(),
};

const [cycleNumber] = schema.IssueCreate.cycle.anyOf;
export const cycleInput = z
  .union([whole(cycleNumber), z.literal("current")])
  .describe("Cycle number of the team, or `current`.");
