export interface Item { id: string; name?: string; secret: string; size: number }
export const enum Kind { Small = "small", Large = "large" }
export type Patch = Partial<Item>;
export type Full = Required<Item>;
export type Summary = Pick<Item, "id" | "name">;
export type WithoutSecret = Omit<Item, "secret">;
export type Frozen = Readonly<Item>;
/** Literal-union keys: every key is required. */
export type Flags = Record<"read" | "write", boolean>;
/** No key: an empty object type. */
export type Empty = Record<never, string>;
/** No value but `never`: no key may be present. */
export type Closed = Record<string, never>;
/** An enum as the keys: every member is a key. */
export type ByKind = Record<Kind, number>;
