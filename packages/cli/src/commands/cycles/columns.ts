import type { Schemas } from "@tracker/sdk";
import type { Column } from "../../output.js";

const day = (iso: string) => iso.slice(0, 10);

export const cycleColumns: Column<Schemas["Cycle"]>[] = [
  { header: "NUMBER", value: (c) => String(c.number), style: (c, p) => (c.isActive ? p.green : p.cyan) },
  { header: "NAME", value: (c) => c.name ?? "", flex: true },
  { header: "STARTS", value: (c) => c.startsAt, tty: (c) => day(c.startsAt) },
  { header: "ENDS", value: (c) => c.endsAt, tty: (c) => day(c.endsAt) },
  { header: "ACTIVE", value: (c) => (c.isActive ? "active" : ""), style: (_, p) => p.green },
  { header: "ID", value: (c) => c.id, style: (_, p) => p.gray },
];
