import * as Dialog from "@radix-ui/react-dialog";
import type { Schemas, Tracker } from "@tracker/sdk";
import {
  type ReactNode,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from "react";
import {
  AppContext,
  type AppContextValue,
  type NewIssueDefaults,
  type NoticeLink,
  useApp,
} from "./app-context.js";
import { CreateIssueDialog } from "./components/create-issue.js";
import { cachedIssueById, Palette, type PaletteMode } from "./components/palette.js";
import { ShortcutsDialog } from "./components/shortcuts.js";
import { Avatar, ErrorNote } from "./components/widgets.js";
import { previewChange, updateIssue } from "./issue-edit.js";
import { followEvents, type LiveStatus } from "./live.js";
import { BoardPage, MY_ISSUES, type MyIssuesTab } from "./pages/board.js";
import { ConsentPage } from "./pages/consent.js";
import { CyclePage } from "./pages/cycle.js";
import { DocumentPage, DocumentsPage, NewDocumentPage } from "./pages/documents.js";
import { FirstRunPage, WelcomeInvitePage } from "./pages/first-run.js";
import { InboxPage, UnreadBadge } from "./pages/inbox.js";
import { InitiativesPage } from "./pages/initiatives.js";
import { IssuePage } from "./pages/issue.js";
import { InitiativePage, ProjectPage } from "./pages/project.js";
import { ProjectsPage } from "./pages/projects.js";
import { isSettingsTab, SettingsPage } from "./pages/settings.js";
import { InvitePage, ResetPasswordPage, SignInPage, WorkspacePicker } from "./pages/sign-in.js";
import { ViewsPage } from "./pages/views.js";
import { Link, navigate, useLocation } from "./router.js";
import { clearSelection, selectedIds, toggleSelected } from "./selection.js";
import {
  describeError,
  SESSION,
  signOut,
  storedKey,
  storedWorkspace,
  storeWorkspace,
  trackerFor,
} from "./session.js";
import { store, useData } from "./store.js";
import { setTheme, subscribeTheme, type Theme, themeNow } from "./theme.js";

/** The whole page: sign-in without a key, the workspace picker at `/`, the signed-in app below `/<ws>`. */
export function Root() {
  const [apiKey, setApiKey] = useState(storedKey);
  const { path } = useLocation();
  const ws = path.split("/").filter(Boolean)[0];

  // An app asking for access (OAuth consent): the page signs the person in itself.
  const consent = /^\/consent\/([\w-]+)$/.exec(path);
  if (consent) return <ConsentPage uid={consent[1]!} />;
  if (path.startsWith("/reset/"))
    return <ResetPasswordPage token={decodeURIComponent(path.slice("/reset/".length))} />;
  if (path.startsWith("/invite/"))
    return <InvitePage token={decodeURIComponent(path.slice("/invite/".length))} onSignedIn={setApiKey} />;
  if (!apiKey) return <SignInPage onSignedIn={setApiKey} />;
  if (!ws) return <WorkspacePicker apiKey={apiKey} onSignOut={() => setApiKey(null)} />;
  return <SignedIn key={`${apiKey}:${ws}`} apiKey={apiKey} ws={ws} onSignOut={() => setApiKey(null)} />;
}

interface Notice {
  id: number;
  message: string;
  kind: "error" | "info";
  link?: NoticeLink | undefined;
}

const LIVE_WORDS: Record<LiveStatus, string> = {
  connecting: "Connecting…",
  live: "Live",
  reconnecting: "Reconnecting…",
  off: "Offline",
};

function SignedIn({ apiKey, ws, onSignOut }: { apiKey: string; ws: string; onSignOut(): void }) {
  const tracker = useMemo<Tracker>(() => {
    store.claim(`${apiKey}:${ws}`);
    return trackerFor(apiKey, ws);
  }, [apiKey, ws]);
  const [live, setLive] = useState<LiveStatus>("connecting");
  const [creating, setCreating] = useState<NewIssueDefaults | null>(null);
  const [palette, setPalette] = useState<{ mode: PaletteMode; identifier: string | undefined } | null>(null);
  const [shortcutsOpen, setShortcutsOpen] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const [notices, setNotices] = useState<Notice[]>([]);
  const noticeId = useRef(0);

  const teams = useData("teams", () => tracker.teams.list());
  // What the first page needs goes first; the rest waits for it (a browser opens six connections at most).
  const ready = teams.data !== undefined;
  const users = useData(ready ? "users" : null, () => tracker.users.list());
  const me = users.data?.find((u) => u.isMe);

  useEffect(() => {
    if (storedWorkspace() !== ws) storeWorkspace(ws);
  }, [ws]);
  useEffect(() => (ready ? followEvents(tracker, setLive) : undefined), [tracker, ready]);

  const notify = useCallback((message: string, kind: "error" | "info" = "info", link?: NoticeLink) => {
    const id = ++noticeId.current;
    setNotices((all) => [...all.slice(-3), { id, message, kind, link }]);
    // Errors stay longer, and until dismissed while more keep coming.
    setTimeout(() => setNotices((all) => all.filter((n) => n.id !== id)), kind === "info" ? 5_000 : 12_000);
  }, []);

  const context = useMemo<AppContextValue>(
    () => ({
      tracker,
      ws,
      me,
      teams: teams.data ?? [],
      openCreate: (defaults = {}) => setCreating(defaults),
      notify,
    }),
    [tracker, ws, me, teams.data, notify],
  );

  useShortcuts({
    create: () => setCreating((open) => open ?? defaultsFromPath(window.location.pathname)),
    palette: (mode = "root") => setPalette({ mode, identifier: issueInHand() }),
    shortcuts: () => setShortcutsOpen(true),
    goTo: (key) => {
      const to = chordTarget(key, ws, teams.data ?? []);
      if (to) navigate(to);
      return Boolean(to);
    },
    assignToMe: () => {
      const identifier = issueInHand();
      const issue = identifier ? knownIssue(identifier) : undefined;
      if (!issue || !me) return;
      const change = { assignee: me.id };
      updateIssue(tracker, issue, change, (i) => previewChange(i, change)).then(
        () => notify(`${issue.identifier} is assigned to you.`),
        (error) => notify(`${issue.identifier} not saved: ${describeError(error)}`, "error"),
      );
    },
  });

  const signOutNow = async (options: { everywhere?: boolean } = {}) => {
    await signOut(options);
    store.clear();
    navigate("/", { replace: true });
    onSignOut();
  };

  if (teams.error) {
    return (
      <main className="centered">
        <h1>Tracker</h1>
        <ErrorNote error={teams.error} />
        <p>
          <Link to="/">Choose another workspace</Link> or{" "}
          <button type="button" onClick={() => signOutNow()}>
            sign out
          </button>
        </p>
      </main>
    );
  }

  const openPalette = () => setPalette({ mode: "root", identifier: issueInHand() });
  return (
    <AppContext.Provider value={context}>
      <div className="shell">
        <Sidebar teams={teams.data ?? []} ws={ws} />
        <div className="content">
          <header className="topbar">
            <Dialog.Root open={menuOpen} onOpenChange={setMenuOpen}>
              <Dialog.Trigger className="menu-button" aria-label="Menu">
                ☰
              </Dialog.Trigger>
              <Dialog.Portal>
                <Dialog.Overlay className="overlay" />
                <Dialog.Content className="drawer" aria-describedby={undefined}>
                  <Dialog.Title className="sr-only">Menu</Dialog.Title>
                  {/* A link followed closes the drawer. */}
                  <div onClickCapture={(e) => (e.target as HTMLElement).closest("a") && setMenuOpen(false)}>
                    <Sidebar teams={teams.data ?? []} ws={ws} drawer />
                  </div>
                </Dialog.Content>
              </Dialog.Portal>
            </Dialog.Root>
            <button type="button" className="search-button" onClick={openPalette}>
              <span aria-hidden="true">⌕</span> <span className="search-text">Search or run a command…</span>{" "}
              <span aria-hidden="true">
                <kbd>Ctrl K</kbd>
              </span>
            </button>
            <button
              type="button"
              className="primary new-issue"
              onClick={() => setCreating(defaultsFromPath(location.pathname))}
              aria-keyshortcuts="c"
            >
              <span aria-hidden="true">+ </span>
              <span className="new-issue-text">New issue</span>{" "}
              <span aria-hidden="true">
                <kbd>C</kbd>
              </span>
            </button>
            <span
              className={`live live-${live}`}
              role="status"
              aria-label="Live updates"
              title="Live updates"
            >
              {LIVE_WORDS[live]}
            </span>
            <span className="who">
              {me && (
                <>
                  <Avatar name={me.name} size={22} /> <span className="who-name">{me.name}</span>
                </>
              )}
            </span>
            <button type="button" onClick={() => signOutNow()} className="sign-out">
              Sign out
            </button>
            {apiKey === SESSION && (
              <button type="button" onClick={() => signOutNow({ everywhere: true })} className="sign-out">
                Sign out everywhere
              </button>
            )}
          </header>
          <main id="main" tabIndex={-1}>
            <Routes />
          </main>
        </div>
      </div>
      {creating && <CreateIssueDialog defaults={creating} onClose={() => setCreating(null)} />}
      {palette && (
        <Palette
          mode={palette.mode}
          identifier={palette.identifier}
          onClose={() => setPalette(null)}
          onShortcuts={() => setShortcutsOpen(true)}
        />
      )}
      {shortcutsOpen && <ShortcutsDialog onClose={() => setShortcutsOpen(false)} />}
      <div className="notices" aria-live="polite">
        {notices.map((n) => (
          <div
            key={n.id}
            className={`notice notice-${n.kind}`}
            role={n.kind === "error" ? "alert" : "status"}
          >
            <span>{n.message}</span>
            {n.link &&
              ("to" in n.link ? (
                <Link to={n.link.to} className="notice-link">
                  {n.link.label}
                </Link>
              ) : (
                <button
                  type="button"
                  className="notice-link"
                  onClick={() => {
                    if (n.link && "run" in n.link) n.link.run();
                    setNotices((all) => all.filter((x) => x.id !== n.id));
                  }}
                >
                  {n.link.label}
                </button>
              ))}
            <button
              type="button"
              className="dismiss"
              aria-label="Dismiss"
              onClick={() => setNotices((all) => all.filter((x) => x.id !== n.id))}
            >
              ×
            </button>
          </div>
        ))}
      </div>
    </AppContext.Provider>
  );
}

/** The id and identifier of an issue the page has read (its page, or a list that shows it). */
function knownIssue(identifier: string): { id: string; identifier: string } | undefined {
  const page = store.get(`page:${identifier}`)?.data as
    | { issue: { id: string; identifier: string } }
    | undefined;
  if (page) return page.issue;
  for (const key of store.keys(["issues:"])) {
    const items = (store.get(key)?.data as { items?: { id: string; identifier: string }[] } | undefined)
      ?.items;
    const found = items?.find((i) => i.identifier === identifier);
    if (found) return found;
  }
  return undefined;
}

/**
 * The issue a shortcut or a palette action applies to: the one whose page is shown, else the card or
 * row that has the focus.
 */
function issueInHand(): string | undefined {
  const page = /^\/[^/]+\/issue\/([^/]+)/.exec(window.location.pathname);
  if (page?.[1]) return decodeURIComponent(page[1]);
  const id = (document.activeElement as HTMLElement | null)
    ?.closest("[data-issue-id]")
    ?.getAttribute("data-issue-id");
  return id ? cachedIssueById(id)?.identifier : undefined;
}

/** The team of the page shown, so `c` on ENG's board creates in ENG. */
function defaultsFromPath(path: string): NewIssueDefaults {
  const match = /^\/[^/]+\/team\/([^/]+)/.exec(path) ?? /^\/[^/]+\/issue\/([A-Za-z0-9]+)-/.exec(path);
  return match?.[1] ? { team: decodeURIComponent(match[1]) } : {};
}

/**
 * Where `g` then a letter goes: `i` the inbox, `m` my issues, `b`/`l` the board or list of the team shown
 * (else the first team), `p` projects, `s` settings, `v` views, `d` documents.
 */
function chordTarget(key: string, ws: string, teams: Schemas["Team"][]): string | undefined {
  const shown = /^\/[^/]+\/team\/([^/]+)/.exec(window.location.pathname)?.[1];
  const team = shown ? decodeURIComponent(shown) : teams[0]?.key;
  const places: Record<string, string | undefined> = {
    i: `/${ws}/inbox`,
    m: `/${ws}/my/assigned`,
    b: team && `/${ws}/team/${team}/board`,
    l: team && `/${ws}/team/${team}/list`,
    p: `/${ws}/projects`,
    s: `/${ws}/settings`,
    v: `/${ws}/views`,
    d: `/${ws}/documents`,
  };
  return places[key];
}

function Routes() {
  const { path } = useLocation();
  const { teams, ws } = useApp();
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  const [, section, id, view] = parts;

  if (section === "team" && id) {
    if (view === "cycle") return <CyclePage teamKey={id} />;
    return <BoardPage teamKey={id} display={view === "list" ? "list" : "board"} />;
  }
  if (section === "issue" && id) return <IssuePage identifier={id} />;
  if (section === "issues") return <BoardPage teamKey={undefined} display="list" />;
  if (section === "projects") return <ProjectsPage />;
  if (section === "project" && id) return <ProjectPage key={id} id={id} />;
  if (section === "initiatives") return <InitiativesPage />;
  if (section === "initiative" && id) return <InitiativePage key={id} id={id} />;
  if (section === "documents") return id === "new" ? <NewDocumentPage /> : <DocumentsPage />;
  if (section === "document" && id) return <DocumentPage key={id} id={id} />;
  if (section === "views") return <ViewsPage />;
  if (section === "inbox") return <InboxPage />;
  if (section === "settings") {
    if (!isSettingsTab(id)) return <Redirect to={`/${ws}/settings/workspace`} />;
    return <SettingsPage tab={id} />;
  }
  if (section === "welcome" && id) return <WelcomeInvitePage teamKey={id} />;
  if (section === "my") {
    const tab = (id ?? "assigned") as MyIssuesTab;
    if (!(tab in MY_ISSUES)) return <Redirect to={`/${ws}/my/assigned`} />;
    return <BoardPage key={tab} teamKey={undefined} display="list" mine={tab} />;
  }
  if (!section) {
    const first = teams[0];
    if (first) return <Redirect to={`/${ws}/team/${first.key}/board`} />;
    return <FirstRunPage />;
  }
  return (
    <div>
      <h1>Not found</h1>
      <p>
        Nothing lives at <code>{path}</code>. <Link to={`/${ws}`}>Go to the board</Link>.
      </p>
    </div>
  );
}

function Redirect({ to }: { to: string }) {
  useEffect(() => navigate(to, { replace: true }), [to]);
  return null;
}

function Sidebar({ teams, ws, drawer = false }: { teams: Schemas["Team"][]; ws: string; drawer?: boolean }) {
  const { path } = useLocation();
  // `section` marks an entry current on any of its pages (My issues' three tabs).
  const item = (to: string, label: string, extra?: ReactNode, section?: string) => (
    <li>
      <Link to={to} aria-current={path === to || (section && path.startsWith(section)) ? "page" : undefined}>
        {label}
        {extra}
      </Link>
    </li>
  );
  return (
    <nav className={drawer ? "sidebar sidebar-drawer" : "sidebar"} aria-label={drawer ? "Menu" : "Workspace"}>
      <div className="brand">
        <Link to="/?choose" title="Choose another workspace">
          {ws}
        </Link>
      </div>
      {!drawer && (
        <a className="skip" href="#main">
          Skip to content
        </a>
      )}
      <ul>
        {item(`/${ws}/inbox`, "Inbox", <UnreadBadge />)}
        {item(`/${ws}/my/assigned`, "My issues", undefined, `/${ws}/my/`)}
        {item(`/${ws}/projects`, "Projects")}
        {item(`/${ws}/initiatives`, "Initiatives")}
        {item(`/${ws}/documents`, "Documents")}
        {item(`/${ws}/views`, "Views")}
        {item(`/${ws}/settings`, "Settings", undefined, `/${ws}/settings`)}
      </ul>
      <ThemeChoice id={drawer ? "theme-drawer" : "theme"} />
      {teams.map((team) => (
        <section key={team.id} aria-label={team.name}>
          <h2>
            {team.name} <span className="muted">{team.key}</span>
          </h2>
          <ul>
            {item(`/${ws}/team/${team.key}/board`, "Board")}
            {item(`/${ws}/team/${team.key}/list`, "List")}
            {team.cyclesEnabled && item(`/${ws}/team/${team.key}/cycle`, "Current cycle")}
          </ul>
        </section>
      ))}
    </nav>
  );
}

/** Light, dark, or as the system says (`prefers-color-scheme`); remembered by theme.ts. */
function ThemeChoice({ id }: { id: string }) {
  const theme = useSyncExternalStore(subscribeTheme, themeNow);
  return (
    <div className="theme-choice">
      <label htmlFor={id}>Theme</label>{" "}
      <select id={id} value={theme} onChange={(e) => setTheme(e.target.value as Theme)}>
        <option value="system">System</option>
        <option value="light">Light</option>
        <option value="dark">Dark</option>
      </select>
    </div>
  );
}

function typing(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el) return false;
  return el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName);
}

/** The property pickers a letter opens, as Linear has them. */
const PICKER_KEYS: Record<string, PaletteMode> = { s: "state", a: "assignee", p: "priority", l: "labels" };

/**
 * The keyboard, as Linear has it (the `?` dialog lists every key, `components/shortcuts.tsx`): `c`
 * creates, Ctrl/Cmd-K opens the palette, `s`/`a`/`p`/`l` change the state, assignee, priority or labels
 * of the issue shown or focused, `e` edits it, `j`/`k` move through cards and rows (anything marked
 * `data-nav-item`), `x` selects the focused one (Esc clears the selection), `g` then a letter goes to a
 * page (`chordTarget`), `?` lists the keys. Letters are ignored while typing or while a dialog is open.
 */
function useShortcuts(handlers: {
  create(): void;
  palette(mode?: PaletteMode): void;
  shortcuts(): void;
  goTo(key: string): boolean;
  assignToMe(): void;
}) {
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    // When `g` was pressed: the next letter within 1.5 s goes to a page.
    let chordAt = 0;
    const onKey = (event: KeyboardEvent) => {
      const actions = latest.current;
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "k") {
        event.preventDefault();
        actions.palette();
        return;
      }
      if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
      if (document.querySelector("dialog[open], [role=dialog], [data-radix-popper-content-wrapper]")) return;
      const key = event.key;
      const onIssuePage = /^\/[^/]+\/issue\//.test(window.location.pathname);
      if (chordAt && Date.now() - chordAt < 1500 && !event.shiftKey) {
        chordAt = 0;
        if (actions.goTo(key)) event.preventDefault();
        return;
      }
      chordAt = 0;
      if (key === "g" && !event.shiftKey) {
        event.preventDefault();
        chordAt = Date.now();
        return;
      }
      if (key === "x") {
        const id = (document.activeElement as HTMLElement | null)
          ?.closest("[data-issue-id]")
          ?.getAttribute("data-issue-id");
        if (id) {
          event.preventDefault();
          toggleSelected(id);
        }
        return;
      }
      if (key === "Escape" && selectedIds().size > 0) {
        event.preventDefault();
        clearSelection();
        return;
      }
      if (key === "c") {
        event.preventDefault();
        actions.create();
      } else if (key === "i") {
        event.preventDefault();
        actions.assignToMe();
      } else if (key === "?") {
        event.preventDefault();
        actions.shortcuts();
      } else if (PICKER_KEYS[key]) {
        event.preventDefault();
        // On the issue page the side panel's own picker opens; on a focused card or row, the palette's.
        const picker = onIssuePage ? document.querySelector<HTMLElement>(`[data-picker="${key}"]`) : null;
        if (picker) picker.click();
        else if (issueInHand()) actions.palette(PICKER_KEYS[key]);
      } else if (key === "e") {
        const title = onIssuePage ? document.querySelector<HTMLElement>(".title-button") : null;
        if (title) {
          event.preventDefault();
          title.click();
        } else {
          const item = (document.activeElement as HTMLElement | null)?.closest<HTMLElement>(
            "[data-nav-item]",
          );
          if (item instanceof HTMLAnchorElement) {
            event.preventDefault();
            item.click();
          }
        }
      } else if (key === "j" || key === "k") {
        const items = [...document.querySelectorAll<HTMLElement>("main [data-nav-item]")];
        if (items.length === 0) return;
        const at = items.indexOf(document.activeElement as HTMLElement);
        const next = at === -1 ? 0 : Math.max(0, Math.min(items.length - 1, at + (key === "j" ? 1 : -1)));
        items[next]?.focus();
        event.preventDefault();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}
