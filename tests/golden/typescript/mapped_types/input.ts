export interface Item { id: string; name?: string; size: number }
export type Keys = "alpha" | "beta";
/** Over literal keys. */
export type Toggles = { [K in Keys]: boolean };
/** Homomorphic, all optional. */
export type Optional = { [K in keyof Item]?: Item[K] };
/** `-?` removes optionality (and `undefined`). */
export type Strict = { -readonly [K in keyof Item]-?: Item[K] };
/** Over `string`: a map. */
export type Lookup = { [K in string]: number };
