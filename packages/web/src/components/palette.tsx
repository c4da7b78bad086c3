import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import { useApp } from "../app-context.js";
import { initiativePath, projectPath } from "../pages/project.js";
import { navigate } from "../router.js";
import { describeError } from "../session.js";
import { useData } from "../store.js";

interface Choice {
  id: string;
  label: string;
  hint: string;
  to: string;
}

/** Ctrl/Cmd-K: jump to a team's board, a page, a project or initiative by name, or an issue by identifier or text. */
export function Palette({ onClose }: { onClose(): void }) {
  const { tracker, teams, ws } = useApp();
  const dialog = useRef<HTMLDialogElement>(null);
  const [text, setText] = useState("");
  const [found, setFound] = useState<Choice[]>([]);
  const [problem, setProblem] = useState("");
  const [active, setActive] = useState(0);
  const projects = useData("projects:all", () => tracker.projects.list({ limit: 200 }));
  const initiatives = useData("initiatives:all", () => tracker.initiatives.list({ limit: 200 }));

  useEffect(() => {
    dialog.current?.showModal();
  }, []);

  useEffect(() => {
    const q = text.trim();
    if (q.length < 2) {
      setFound([]);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      tracker.issues.list({ q, limit: 8 }, { signal: controller.signal }).then(
        (page) => {
          setProblem("");
          setFound(
            page.items.map((i) => ({
              id: i.id,
              label: `${i.identifier} ${i.title}`,
              hint: i.state.name,
              to: `/${ws}/issue/${i.identifier}`,
            })),
          );
        },
        (error) => {
          if (!controller.signal.aborted) setProblem(describeError(error));
        },
      );
    }, 120);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [text, tracker, ws]);

  const lower = text.trim().toLowerCase();
  const places: Choice[] = [
    ...teams.map((t) => ({
      id: t.id,
      label: `${t.name} board`,
      hint: t.key,
      to: `/${ws}/team/${t.key}/board`,
    })),
    { id: "projects", label: "Projects", hint: "page", to: `/${ws}/projects` },
    { id: "initiatives", label: "Initiatives", hint: "page", to: `/${ws}/initiatives` },
    { id: "views", label: "Saved views", hint: "page", to: `/${ws}/views` },
    { id: "documents", label: "Documents", hint: "page", to: `/${ws}/documents` },
    { id: "new-document", label: "New document", hint: "action", to: `/${ws}/documents/new` },
  ].filter((c) => !lower || `${c.label} ${c.hint}`.toLowerCase().includes(lower));
  // Projects and initiatives are found by name once something is typed.
  const named: Choice[] = lower
    ? [
        ...(projects.data?.items ?? []).map((p) => ({
          id: p.id,
          label: p.name,
          hint: "project",
          to: projectPath(ws, p),
        })),
        ...(initiatives.data?.items ?? []).map((i) => ({
          id: i.id,
          label: i.name,
          hint: "initiative",
          to: initiativePath(ws, i),
        })),
      ].filter((c) => c.label.toLowerCase().includes(lower))
    : [];
  const choices = [...found, ...named, ...places];
  const pick = (choice: Choice | undefined) => {
    if (!choice) return;
    dialog.current?.close();
    navigate(choice.to);
  };

  const onKey = (event: KeyboardEvent) => {
    if (event.key === "ArrowDown") {
      event.preventDefault();
      setActive((a) => Math.min(choices.length - 1, a + 1));
    } else if (event.key === "ArrowUp") {
      event.preventDefault();
      setActive((a) => Math.max(0, a - 1));
    } else if (event.key === "Enter") {
      event.preventDefault();
      pick(choices[active]);
    }
  };

  return (
    <dialog ref={dialog} className="dialog palette" aria-label="Command palette" onClose={onClose}>
      <label htmlFor="palette-input" className="sr-only">
        Search issues, teams and pages
      </label>
      <input
        id="palette-input"
        role="combobox"
        aria-expanded="true"
        aria-controls="palette-list"
        aria-activedescendant={choices[active] ? `choice-${choices[active].id}` : undefined}
        placeholder="Type an issue, a team or a page…"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setActive(0);
        }}
        onKeyDown={onKey}
        autoFocus
      />
      {problem && <p className="error">{problem}</p>}
      <div id="palette-list" role="listbox" aria-label="Results">
        {choices.map((c, n) => (
          <div
            key={c.id}
            tabIndex={-1}
            id={`choice-${c.id}`}
            role="option"
            aria-selected={n === active}
            className={n === active ? "active" : undefined}
            onMouseDown={(e) => {
              e.preventDefault();
              pick(c);
            }}
            onKeyDown={() => {}}
          >
            {c.label} <span className="muted">{c.hint}</span>
          </div>
        ))}
      </div>
    </dialog>
  );
}
