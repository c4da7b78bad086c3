export interface Choice<T> {
  name: string;
  value: T;
  description?: string;
}

/** Questions for a person at a terminal; only asked when `deps.canPrompt`. */
export interface Prompter {
  input(message: string, options?: { default?: string; required?: boolean }): Promise<string>;
  password(message: string): Promise<string>;
  select<T>(message: string, choices: Choice<T>[], options?: { default?: T }): Promise<T>;
  confirm(message: string, defaultValue?: boolean): Promise<boolean>;
}

export interface PromptStreams {
  input: NodeJS.ReadableStream;
  /** Questions are messages, not data: they go to stderr so stdout stays clean for pipes. */
  output: NodeJS.WritableStream;
}

/**
 * Prompts drawn with @inquirer/prompts, loaded on the first question only: most runs ask nothing and
 * should not pay for it at start-up.
 */
export function inquirerPrompter(streams: PromptStreams): Prompter {
  const load = () => import("@inquirer/prompts");
  const context = { input: streams.input, output: streams.output, clearPromptOnDone: false };
  return {
    async input(message, options = {}) {
      const { input } = await load();
      return input(
        {
          message,
          ...(options.default !== undefined ? { default: options.default } : {}),
          required: options.required ?? true,
        },
        context,
      );
    },
    async password(message) {
      const { password } = await load();
      return password({ message, mask: "*" }, context);
    },
    async select(message, choices, options = {}) {
      const { select } = await load();
      return select(
        {
          message,
          choices,
          pageSize: 12,
          ...(options.default !== undefined ? { default: options.default } : {}),
        },
        context,
      );
    },
    async confirm(message, defaultValue = false) {
      const { confirm } = await load();
      return confirm({ message, default: defaultValue }, context);
    },
  };
}

/** For runs that may not ask: any question is a bug in the command, since it checks `canPrompt` first. */
export const noPrompter: Prompter = {
  input: refuse,
  password: refuse,
  select: refuse,
  confirm: refuse,
};

function refuse(): never {
  throw new Error("internal error: a prompt was attempted without a terminal");
}
