import { useId, useRef, useState } from "react";

/**
 * A secret or link shown once (an invite link, a new API key's token): read-only, selected on focus, with a
 * Copy button (named for what it copies, as a screen may show several) that says when it worked. Where the
 * browser refuses the clipboard, the text is selected so Ctrl/Cmd-C copies it.
 */
export function CopyField({ label, value, hint }: { label: string; value: string; hint?: string }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<"yes" | "no" | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied("yes");
    } catch {
      input.current?.select();
      setCopied("no");
    }
  };
  return (
    <div className="copy-field">
      <label htmlFor={id}>{label}</label>
      <div className="copy-row">
        <input
          id={id}
          ref={input}
          readOnly
          value={value}
          onFocus={(e) => e.currentTarget.select()}
          aria-describedby={hint ? `${id}-hint` : undefined}
          spellCheck={false}
        />
        <button type="button" onClick={() => void copy()}>
          Copy<span className="sr-only"> {label.toLowerCase()}</span>
        </button>
      </div>
      {hint && (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      )}
      <span role="status" className="hint">
        {copied === "yes" ? "Copied." : copied === "no" ? "Selected: press Ctrl+C (⌘C) to copy." : ""}
      </span>
    </div>
  );
}
