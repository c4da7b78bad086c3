import type { MigrationObject } from "@mikro-orm/core";
import { Migration20261121053252_identity } from "./Migration20261121053252_identity.js";
import { Migration20261121053442_domain } from "./Migration20261121053442_domain.js";

/** Applied in this order on every start. Add each new migration here (npm run migration:create). */
export const migrationsList: MigrationObject[] = [
  { name: "Migration20261121053252_identity", class: Migration20261121053252_identity },
  { name: "Migration20261121053442_domain", class: Migration20261121053442_domain },
];
