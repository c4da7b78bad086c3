import { z } from "zod";
import { oneOf, schema, text, whole } from "../contract.js";
import { ToolRefusal } from "../errors.js";
import { teamInput } from "../inputs.js";
import { defineTool, idempotencyKeyInput } from "../tool.js";

const stateName = text(schema.WorkflowStateCreate.name);

type State = { name: string; type: string; color: string; position: number };

const row = (s: State) => ({ name: s.name, type: s.type, color: s.color, position: s.position });
/** `Backlog (backlog), Todo (unstarted), ...`: the team's order, as the agent needs it for the next call. */
const listed = (team: string, states: State[]) =>
  `${team} states: ${states.map((s) => `${s.name} (${s.type})`).join(", ")}.`;

export const manageWorkflowStatesTool = defineTool({
  name: "manage_workflow_states",
  title: "Add, change or delete a team's workflow states",
  description:
    "A team's workflow states. `create` one (`name`, `type`, optional `color`, `position` from 0); `update` " +
    "`state` (`name`, `color`, `position`; the type is fixed); `delete` `state`, its issues moving to " +
    "`moveTo`. A team keeps a backlog-or-unstarted, a completed and a canceled state. Answers the states.",
  input: {
    team: teamInput,
    action: z.enum(["create", "update", "delete"]),
    state: stateName.optional().describe("update/delete: the state (name or id)."),
    name: stateName.optional().describe("create: its name; update: the new name."),
    type: oneOf(schema.WorkflowStateCreate.type).optional().describe("create: its type."),
    color: text(schema.WorkflowStateCreate.color).optional().describe("`#rrggbb`."),
    position: whole(schema.WorkflowStateCreate.position).optional().describe("Place in the order, from 0."),
    moveTo: stateName.optional().describe("delete: where its issues go (name or id)."),
    idempotencyKey: idempotencyKeyInput,
  },
  output: {
    states: z.array(
      z.object({ name: z.string(), type: z.string(), color: z.string(), position: z.number() }),
    ),
    moved: z.number().optional(),
  },
  readOnly: false,
  destructive: true,
  idempotent: false,
  role: "member",
  async run(input, { tracker, read, write }) {
    const team = input.team.toUpperCase();
    const extras = {
      ...(input.color ? { color: input.color } : {}),
      ...(input.position !== undefined ? { position: input.position } : {}),
    };
    let said: string;
    let moved: number | undefined;
    if (input.action === "create") {
      if (!input.name || !input.type)
        throw new ToolRefusal(
          "create needs `name` and `type` (backlog, unstarted, started, completed or canceled).",
        );
      const state = await tracker.teams.createState(
        team,
        { name: input.name, type: input.type, ...extras },
        write(),
      );
      said = `Added ${state.name} (${state.type}, ${state.color}) to ${team} at position ${state.position}.`;
    } else {
      if (!input.state) throw new ToolRefusal(`${input.action} needs \`state\`: its name or id.`);
      if (input.action === "update") {
        if (!input.name && !input.color && input.position === undefined)
          throw new ToolRefusal("update needs `name`, `color` or `position`; a state's type cannot change.");
        const state = await tracker.teams.updateState(
          team,
          input.state,
          { ...(input.name ? { name: input.name } : {}), ...extras },
          write(),
        );
        said = `${input.state} is now ${state.name} (${state.type}, ${state.color}) at position ${state.position}.`;
      } else {
        const result = await tracker.teams.deleteState(
          team,
          input.state,
          input.moveTo ? { moveTo: input.moveTo } : {},
          write(),
        );
        moved = result.moved;
        said = `Deleted ${input.state} from ${team}${moved ? `; ${moved} issues moved to ${input.moveTo}` : ""}.`;
      }
    }
    const states = (await tracker.teams.states(team, read)).map(row);
    return {
      text: `${said}\n${listed(team, states)}`,
      data: { states, ...(moved !== undefined ? { moved } : {}) },
    };
  },
  about: (input) => ({ team: input.team, state: input.moveTo ?? input.state ?? input.name }),
});
