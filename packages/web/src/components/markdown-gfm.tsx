import type { Root } from "mdast";
import { findAndReplace } from "mdast-util-find-and-replace";
import type { ComponentProps } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { Link } from "../router.js";
import { ZoomableImage } from "./zoomable-image.js";

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

/** An attachment's download path (contract, `downloadAttachment`): its id, whatever the signature. */
const ATTACHMENT = /\/api\/v1\/attachments\/([0-9a-f-]{36})\/content\b/;

export interface GfmProps {
  text: string;
  ws: string | undefined;
  /**
   * The current download URLs of the issue's attachments, by id: a signed URL written into the text
   * expires within hours, so the text's own is replaced by the one the page was just given.
   */
  freshUrls?: ReadonlyMap<string, string> | undefined;
  /** Ticking the n-th task list box (in reading order); absent, the boxes are read-only. */
  onToggleTask?: ((index: number, checked: boolean) => void) | undefined;
}

/**
 * GitHub-flavoured Markdown (react-markdown with remark-gfm: tables, task lists, strikethrough,
 * autolinks) rendered as React elements. Raw HTML in the text shows as text, and link targets go
 * through react-markdown's URL filter (http, https, mailto and paths only).
 */
export default function GfmMarkdown({ text, ws, onToggleTask, freshUrls }: GfmProps) {
  let task = 0;
  const fresh = (url: string | undefined) => {
    const id = url && ATTACHMENT.exec(url)?.[1];
    return (id && freshUrls?.get(id)) || url;
  };
  // A heading in the text sits under the page's own (h1) and its sections (h2): `#` is an h3.
  const components: Components = {
    h1: ({ children }) => <h3>{children}</h3>,
    h2: ({ children }) => <h4>{children}</h4>,
    h3: ({ children }) => <h5>{children}</h5>,
    h4: ({ children }) => <h6>{children}</h6>,
    h5: ({ children }) => <h6>{children}</h6>,
    img: ({ src, alt }) => (
      <ZoomableImage src={fresh(typeof src === "string" ? src : undefined)} alt={alt ?? ""} />
    ),
    a: ({ href, children }) =>
      href && ATTACHMENT.test(href) ? (
        <a href={fresh(href)} target="_blank" rel="noopener">
          {children}
        </a>
      ) : href?.startsWith("/") ? (
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
