// Text edits computed from syntax-tree positions and applied once, back to front. Every rewrite of the codemod is
// an edit at positions the TypeScript parser gave; nothing here searches text.

/** One replacement of `[start, end)` of the original text (`start === end` inserts). */
export interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** The edits of one file, checked for overlaps when applied. */
export class EditList {
  readonly #edits: Edit[] = [];

  /** Replaces `[start, end)` with `text`. */
  replace(start: number, end: number, text: string): void {
    this.#edits.push({ start, end, text });
  }

  /** Inserts `text` at `position` (insertions at one position keep the order they were made in). */
  insert(position: number, text: string): void {
    this.#edits.push({ start: position, end: position, text });
  }

  /** How many edits were recorded. */
  get size(): number {
    return this.#edits.length;
  }

  /** Whether `[start, end)` overlaps a replacement already recorded (insertions never overlap). */
  overlaps(start: number, end: number): boolean {
    return this.#edits.some((edit) => edit.start < edit.end && edit.start < end && start < edit.end);
  }

  /**
   * Applies every edit to `text`. Throws `RangeError` when two replacements overlap: that is a bug of a rule
   * (two rules rewriting the same code), never something to resolve by guessing.
   */
  apply(text: string): string {
    const ordered = this.#edits.map((edit, index) => ({ edit, index }));
    ordered.sort((a, b) => a.edit.start - b.edit.start || a.edit.end - b.edit.end || a.index - b.index);
    let out = '';
    let at = 0;
    for (const { edit } of ordered) {
      if (edit.start < at) {
        throw new RangeError(`overlapping edits at ${edit.start} (previous edit ends at ${at})`);
      }
      out += text.slice(at, edit.start) + edit.text;
      at = edit.end;
    }
    return out + text.slice(at);
  }
}
