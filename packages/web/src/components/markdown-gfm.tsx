import type { Root } from "mdast";
import { findAndReplace } from "mdast-util-find-and-replace";
import type { ComponentProps } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { Link } from "../router.js";

/** An issue identifier as the contract writes it (`IssueIdentifier`): a team key, a dash, a number. */
const IDENTIFIER = /\b[A-Z][A-Z0-9]{0,6}-[1-9][0-9]*\b/g;

/** Turns every identifier in the text (not in code or links) into a link to the issue. */
function remarkIssueLinks(ws: string | undefined) {
  return () => (tree: Root) => {
    if (!ws) return;
    findAndReplace(tree, [
      [
        IDENTIFIER,
        (id: string) => ({
          type: "link",
          url: `/${ws}/issue/${id}`,
          children: [{ type: "text", value: id }],
        }),
      ],
    ]);
  };
}

/** Raw HTML in the text is shown as the text it is, never as elements. */
function remarkHtmlAsText() {
  const walk = (node: { type: string; value?: string; children?: unknown[] }) => {
    if (node.type === "html") node.type = "text";
    for (const child of node.children ?? []) walk(child as typeof node);
  };
  return (tree: Root) => walk(tree as unknown as Parameters<typeof walk>[0]);
}

export interface GfmProps {
  text: string;
  ws: string | undefined;
  /** Ticking the n-th task list box (in reading order); absent, the boxes are read-only. */
  onToggleTask?: ((index: number, checked: boolean) => void) | undefined;
}

/**
 * GitHub-flavoured Markdown (react-markdown with remark-gfm: tables, task lists, strikethrough,
 * autolinks) rendered as React elements. Raw HTML in the text shows as text, and link targets go
 * through react-markdown's URL filter (http, https, mailto and paths only).
 */
export default function GfmMarkdown({ text, ws, onToggleTask }: GfmProps) {
  let task = 0;
  // A heading in the text sits under the page's own (h1) and its sections (h2): `#` is an h3.
  const components: Components = {
    h1: ({ children }) => <h3>{children}</h3>,
    h2: ({ children }) => <h4>{children}</h4>,
    h3: ({ children }) => <h5>{children}</h5>,
    h4: ({ children }) => <h6>{children}</h6>,
    h5: ({ children }) => <h6>{children}</h6>,
    a: ({ href, children }) =>
      href?.startsWith("/") ? (
        <Link to={href}>{children}</Link>
      ) : (
        <a href={href} rel="noopener noreferrer nofollow" target="_blank">
          {children}
        </a>
      ),
    input: (props: ComponentProps<"input"> & { node?: unknown }) => {
      if (props.type !== "checkbox") return null;
      const index = task++;
      return (
        <input
          type="checkbox"
          checked={Boolean(props.checked)}
          disabled={!onToggleTask}
          onChange={(e) => onToggleTask?.(index, e.target.checked)}
        />
      );
    },
    li: ({ children, className }) =>
      className === "task-list-item" ? (
        <li className={className}>
          {/* The box's name is its item's text; the box is among the children. */}
          {/* biome-ignore lint/a11y/noLabelWithoutControl: the task's checkbox is rendered inside it */}
          <label>{children}</label>
        </li>
      ) : (
        <li className={className}>{children}</li>
      ),
    table: ({ children }) => (
      <div className="table-scroll">
        <table>{children}</table>
      </div>
    ),
  };
  return (
    <ReactMarkdown
      remarkPlugins={[remarkGfm, remarkHtmlAsText, remarkIssueLinks(ws)]}
      components={components}
    >
      {text}
    </ReactMarkdown>
  );
}
