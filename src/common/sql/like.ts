/**
 * LIKE and ILIKE patterns from client text: `%`, `_` and the escape character `\` (PostgreSQL's
 * default) are matched literally, so a search for `a_b` means those three characters.
 */
const escapeLike = (text: string): string => text.replace(/[\\%_]/g, '\\$&');

/** Values that contain `text`. */
export const likeContaining = (text: string): string => `%${escapeLike(text)}%`;

/** Values that start with `text`. */
export const likePrefix = (text: string): string => `${escapeLike(text)}%`;
