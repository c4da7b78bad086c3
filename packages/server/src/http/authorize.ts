import { authorizeOperation } from "../rules/operations.js";
import type { OperationStep } from "./operation-call.js";

/**
 * The step that asks who may do what (`rules/permissions.ts`): the operation's action, for this input
 * (`rules/operations.ts`), refused here with the contract's 403 when the caller's role (or key) may never
 * do it; what depends on the subject (its author, its owner, ...) the handler asks once it has it.
 */
export const authorize: OperationStep = (call, next) => {
  const { caller, workspace } = call.scope;
  if (caller) authorizeOperation({ caller, workspace }, call.op.operationId, call.input!);
  return next();
};
