import * as Dialog from "@radix-ui/react-dialog";

/** Every key the board answers to: the one list `?` shows (app.tsx's `useShortcuts` implements them). */
export const SHORTCUTS: [keys: string[], what: string][] = [
  [["C"], "Create an issue"],
  [["Ctrl", "K"], "Command palette: actions, issues, pages"],
  [["S"], "Change the state of the issue shown or focused"],
  [["A"], "Change the assignee"],
  [["P"], "Change the priority"],
  [["L"], "Change the labels"],
  [["I"], "Assign it to me"],
  [["E"], "Edit the title (on an issue), or open the focused issue"],
  [["J"], "Next card or row"],
  [["K"], "Previous card or row"],
  [["X"], "Select the focused card or row (Shift-click: a range, Ctrl/Cmd-click: one more)"],
  [["Esc"], "Clear the selection"],
  [["G", "I"], "Go to the inbox"],
  [["G", "M"], "Go to my issues"],
  [["G", "B"], "Go to the board"],
  [["G", "L"], "Go to the list"],
  [["G", "P"], "Go to projects"],
  [["G", "V"], "Go to saved views"],
  [["G", "D"], "Go to documents"],
  [["G", "S"], "Go to settings"],
  [["Shift", "←"], "Move the focused card to the previous column"],
  [["Shift", "→"], "Move the focused card to the next column"],
  [["Ctrl", "Enter"], "Create, in the new-issue dialog"],
  [["Esc"], "Close a dialog, a menu or an editor"],
  [["?"], "This list"],
];

export function ShortcutsDialog({ onClose }: { onClose(): void }) {
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content className="dialog" aria-describedby={undefined}>
          <Dialog.Title className="dialog-title">Keyboard shortcuts</Dialog.Title>
          <dl className="shortcuts">
            {SHORTCUTS.map(([keys, what]) => (
              <div key={what}>
                <dt>
                  {keys.map((k) => (
                    <kbd key={k}>{k}</kbd>
                  ))}
                </dt>
                <dd>{what}</dd>
              </div>
            ))}
          </dl>
          <Dialog.Close asChild>
            <button type="button">Close</button>
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
