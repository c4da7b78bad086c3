import * as Popover from "@radix-ui/react-popover";
import { Command } from "cmdk";
import { type ReactNode, useState } from "react";

export interface PickerOption {
  /** What is saved (a state name, a user id, a label name…). */
  value: string;
  label: string;
  /** Shown before the label: a state icon, an avatar, a label's colour. */
  icon?: ReactNode;
  /** Other words the search matches (an email, a key). */
  keywords?: string[];
}

interface PickerBase {
  /** The property's name: the trigger is named "<label>: <value>" and the search "Change <label>…". */
  label: string;
  options: PickerOption[];
  /** What the trigger shows. */
  children: ReactNode;
  /** Names the trigger for the keyboard shortcuts (`s`, `a`, `p`, `l` press it). */
  shortcut?: string;
  /** The trigger's name when "<label>: <value>" does not fit (an "add" button). */
  triggerLabel?: string;
  className?: string;
  disabled?: boolean;
}

/**
 * A property picker: a button that opens a searchable list (Radix Popover for placement, focus and
 * dismissal; cmdk for the combobox and its keyboard). One value closes it on choice; several (`multiple`)
 * keep it open, each option ticking at once (`aria-checked`).
 */
export function Picker(
  props: PickerBase &
    (
      | { multiple?: false; value: string | null; onChange(value: string): void }
      | { multiple: true; value: string[]; onChange(value: string[]): void }
    ),
) {
  const [open, setOpen] = useState(false);
  const { label, options, children, shortcut, className, disabled, triggerLabel } = props;
  const chosen = (value: string) => (props.multiple ? props.value.includes(value) : props.value === value);
  const choose = (value: string) => {
    if (props.multiple) {
      props.onChange(
        props.value.includes(value) ? props.value.filter((v) => v !== value) : [...props.value, value],
      );
    } else {
      setOpen(false);
      if (value !== props.value) props.onChange(value);
    }
  };
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger
        className={`picker-trigger${className ? ` ${className}` : ""}`}
        data-picker={shortcut}
        disabled={disabled}
      >
        {/* Named by what it shows, after the property's name: "Priority: High". */}
        {triggerLabel ? (
          <>
            <span className="sr-only">{triggerLabel}</span>
            <span aria-hidden="true">{children}</span>
          </>
        ) : (
          <>
            <span className="sr-only">{label}: </span>
            {children}
          </>
        )}
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          className="picker"
          aria-label={label}
          align="start"
          sideOffset={4}
          collisionPadding={8}
        >
          <Command label={label} loop>
            <Command.Input
              className="picker-search"
              aria-label={`Change ${label.toLowerCase()}…`}
              placeholder={`Change ${label.toLowerCase()}…`}
            />
            {/* Outside the list: a listbox holds options only. */}
            <Command.Empty className="muted picker-empty">Nothing matches.</Command.Empty>
            <Command.List className="picker-list">
              {options.map((o) => (
                <Command.Item
                  key={o.value}
                  value={`${o.label}\u0000${o.value}`}
                  keywords={o.keywords}
                  onSelect={() => choose(o.value)}
                  aria-checked={chosen(o.value)}
                  className="picker-item"
                >
                  {o.icon}
                  <span className="picker-label">{o.label}</span>
                  {chosen(o.value) && (
                    <span className="picker-check" aria-hidden="true">
                      ✓
                    </span>
                  )}
                </Command.Item>
              ))}
            </Command.List>
          </Command>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
