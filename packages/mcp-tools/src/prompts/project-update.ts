import { completable } from "@modelcontextprotocol/sdk/server/completable.js";
import { z } from "zod";
import { completeProjects } from "../completions.js";
import { shortTime } from "../format.js";
import { projectDetailOf, projectDetailText } from "../tools/get-project.js";
import { definePrompt } from "./prompt.js";

export const projectUpdatePrompt = definePrompt({
  name: "project_update",
  title: "Draft a project update",
  description:
    "Draft a project's next status update from the issues completed since its last one, its progress and health.",
  args: (deps) => ({
    project: completable(z.string().min(1).describe("Project name."), (typed) =>
      completeProjects(deps, typed),
    ),
  }),
  async text(deps, { project }, { read, offers }) {
    const [detail, candidates] = await Promise.all([
      projectDetailOf(deps.tracker, project, read),
      deps.tracker.updates.candidates({ project }, read),
    ]);
    return [
      `Draft the next status update of project "${detail.name}": a title, then Markdown with what was completed`,
      "(cite the issues below by identifier), what is next (the open issues), and risks (health, target date).",
      offers("post_status_update")
        ? `Show me the draft; when I agree, post it with post_status_update (project "${detail.name}", title, content,\nissues: the identifiers you cite).`
        : "Show me the draft for a person to post (this session cannot post updates).",
      "",
      projectDetailText(detail),
      "",
      `Completed since ${candidates.since.update ? "the last update" : "the project started"} (${shortTime(candidates.since.at)}):`,
      ...(candidates.issues.length
        ? candidates.issues.map(
            (i) =>
              `  ${i.identifier} ${i.title}${i.assignee ? ` (${i.assignee})` : ""}${i.labels.length ? ` [${i.labels.join(", ")}]` : ""}`,
          )
        : ["  nothing yet"]),
    ].join("\n");
  },
});
