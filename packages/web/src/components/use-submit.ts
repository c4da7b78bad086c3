import { type FormEvent, useState } from "react";

/**
 * A form's save: the form is not sent twice while a save is in flight, and a refused save leaves the
 * problem in `error` with everything typed still in the form (nothing lost when a save fails).
 */
export function useSubmit(save: () => Promise<void>): {
  submit(event: FormEvent): Promise<void>;
  busy: boolean;
  error: unknown;
} {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await save();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return { submit, busy, error };
}
