export interface Message { method: string; params?: { [key: string]: unknown }; id: string | number }
/** Narrowing inherited fields is legal TypeScript: string → a literal, optional → required. */
export interface Call extends Message { method: "call"; params: { name: string }; id: number }
/** Redeclared with the same type: the same field. */
export interface Again extends Message { id: string | number }
/** Not a narrowing: `method` may not become a number (STR001). */
export interface Wrong extends Message { method: number }
