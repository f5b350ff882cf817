/**
 * Search/replace edits applied to a file's bytes, not to decoded text: every byte outside the edited
 * regions stays exactly as it was, whatever the file's encoding. The edit texts are UTF-8; a file that is
 * not valid UTF-8 can still be edited where the search text's bytes occur, but an edit whose text holds the
 * replacement character (what a reader shows for bytes it could not decode) is refused: it stands for bytes
 * nobody can name.
 */

export interface ByteEdit {
  search: string;
  replace: string;
}

export type ByteEditResult = { ok: true; bytes: Buffer } | { ok: false; problem: string };

const REPLACEMENT_CHARACTER = '\uFFFD';

/** True when the bytes are valid UTF-8. */
export function isValidUtf8(bytes: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** Occurrences (overlapping ones too) of `needle` in `hay`. */
export function countBytes(hay: Buffer, needle: Buffer, limit = Number.MAX_SAFE_INTEGER): number {
  let count = 0;
  for (let at = hay.indexOf(needle); at >= 0 && count < limit; at = hay.indexOf(needle, at + 1)) count += 1;
  return count;
}

/**
 * Applies edits in order to a file's bytes. Each search text must occur exactly once in the file as it is
 * and again at its turn (so an earlier edit cannot create or hide the match), and an edit whose replacement
 * contains its own search text must not find that replacement already there (applying it again would nest it).
 */
export function applyByteEdits(original: Buffer, edits: readonly ByteEdit[]): ByteEditResult {
  let current = original;
  let utf8: boolean | null = null;
  for (const edit of edits) {
    if (edit.search.includes(REPLACEMENT_CHARACTER) || edit.replace.includes(REPLACEMENT_CHARACTER)) {
      utf8 ??= isValidUtf8(original);
      if (!utf8) {
        return {
          ok: false,
          problem:
            'the file is not valid UTF-8 and the edit holds \uFFFD, which stands for bytes that could not be read; ' +
            'edit this part by hand',
        };
      }
    }
    const search = Buffer.from(edit.search, 'utf8');
    const replace = Buffer.from(edit.replace, 'utf8');
    if (search.length === 0 || countBytes(original, search, 1) === 0 || current.indexOf(search) < 0) {
      return { ok: false, problem: 'the search text no longer matches' };
    }
    if (countBytes(original, search, 2) > 1 || countBytes(current, search, 2) > 1) {
      return { ok: false, problem: 'the search text matches more than once' };
    }
    if (replace.includes(search) && !replace.equals(search) && original.includes(replace)) {
      return { ok: false, problem: 'the replacement is already there (the patch looks applied)' };
    }
    const at = current.indexOf(search);
    current = Buffer.concat([current.subarray(0, at), replace, current.subarray(at + search.length)]);
  }
  return { ok: true, bytes: current };
}
