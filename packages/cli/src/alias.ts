import { UsageError } from "./command.js";

/**
 * Splits an alias's expansion into words as a shell would for simple quoting: spaces separate words,
 * '…' keeps everything literally, "…" keeps spaces (with \" and \\ escapes).
 */
export function splitWords(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      if (end === -1) throw new UsageError(`unclosed ' in alias expansion: ${line}`);
      word += line.slice(i + 1, end);
      i = end;
      inWord = true;
    } else if (ch === '"') {
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === "\\" && (line[j + 1] === '"' || line[j + 1] === "\\")) j++;
        word += line[j];
      }
      if (j >= line.length) throw new UsageError(`unclosed " in alias expansion: ${line}`);
      i = j;
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/**
 * The command line an alias stands for, with the words typed after it: `$1`, `$2`… take them in order
 * (as gh's aliases do), and those no placeholder took are appended.
 */
export function expandAlias(expansion: string, args: string[]): string[] {
  const used = new Set<number>();
  const words = splitWords(expansion).map((word) =>
    word.replace(/\$(\d+)/g, (_, n: string) => {
      const index = Number(n) - 1;
      used.add(index);
      return args[index] ?? "";
    }),
  );
  return [...words, ...args.filter((_, i) => !used.has(i))];
}
