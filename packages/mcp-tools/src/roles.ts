import type { Schemas } from "@tracker/sdk";

export type MemberRole = Schemas["MemberRole"];

// The contract's roles from most to least allowed ("Authentication": admin, member, guest).
const RANK: Record<MemberRole, number> = { admin: 2, member: 1, guest: 0 };

/** Whether a key with `role` may call a tool that needs `needs`; an unknown role is allowed everything. */
export function roleAllows(role: MemberRole | undefined, needs: "admin" | "member" | undefined): boolean {
  return role === undefined || needs === undefined || RANK[role] >= RANK[needs];
}
